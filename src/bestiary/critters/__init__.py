"""The critter set-collection game (game id ``critters``): cards, rules, views, records.

>>> from bestiary.critters import GAME
>>> state = GAME.new_game(["ann", "bo"], seed=7)
>>> state.turn, len(state.hand("ann")), len(state.hand("bo"))
('ann', 6, 5)
"""

from bestiary.critters.game import GAME, CrittersGame
from bestiary.critters.state import CrittersState

__all__ = ["GAME", "CrittersGame", "CrittersState"]
