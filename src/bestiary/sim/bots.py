"""Bots for a simulation: a registered name (``reader``, or with parameters
``reader(decay=0.5)``: core/bot_params.py) or a designer's own ``module:Factory``.

A factory is called as ``factory(player, rng)`` and returns an Agent, exactly like a registered
bot's (``bestiary.core.agent.register_bot``). The module is imported from ``sys.path`` with the
current folder first, so ``--bots my_bots:Careful`` finds ``./my_bots.py``; worker processes
inherit the same path.
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Callable
from typing import Any, cast

from bestiary.core.agent import Agent, AgentFactory, bot_entry, make_bot


def is_custom(name: str) -> bool:
    """A ``module:attribute`` name rather than a registered bot.

    >>> is_custom("reader"), is_custom("my_bots:Careful")
    (False, True)
    """
    return ":" in name


def load_factory(name: str) -> AgentFactory:
    """The factory ``module:attribute`` names, or ValueError with one sentence."""
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"a custom bot is written module:Factory, not {name!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"cannot import {module_name!r} for bot {name!r}: {err}") from None
    factory: Any = module
    for part in attribute.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise ValueError(f"{module_name!r} has no {attribute!r} for bot {name!r}")
    if not callable(factory):
        raise ValueError(f"bot {name!r} is not callable as factory(player, rng)")
    return cast(AgentFactory, factory)


def check_bot(game: str, name: str) -> None:
    """Refuse a bot name that neither the registry nor an import can give."""
    if is_custom(name):
        load_factory(name)
        return
    bot_entry(game, name)  # its name and every parameter it sets


def make_agent(game: str, name: str, player: str, seed: int) -> Agent:
    """A seeded bot for ``player``: registered by name, or built by a custom factory."""
    if is_custom(name):
        return load_factory(name)(player, random.Random(seed))
    return make_bot(game, name, player, seed)


BotMaker = Callable[[str, str, str, int], Agent]
