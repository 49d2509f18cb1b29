"""Bots for the built-in games. Each game's info names its bot modules (``GameInfo.bots``);
``bestiary.core.agent`` imports them with the game, and importing one registers its bots."""
