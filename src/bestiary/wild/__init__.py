"""Call of the Wild: the rules engine (``GAME``), its actions, views and records."""

from bestiary.wild.actions import (
    Call,
    Discard,
    Draw,
    Meet,
    Nightfall,
    RevealOwn,
    WildAction,
    Withdraw,
    action_from_event,
)
from bestiary.wild.cards import CREATURES, SOUNDS, relation
from bestiary.wild.game import GAME, WildGame
from bestiary.wild.meetings import Meeting, describe_meeting
from bestiary.wild.objectives import OBJECTIVES, Objective
from bestiary.wild.state import WildState

__all__ = [
    "CREATURES",
    "GAME",
    "OBJECTIVES",
    "SOUNDS",
    "Call",
    "Discard",
    "Draw",
    "Meet",
    "Meeting",
    "Nightfall",
    "Objective",
    "RevealOwn",
    "WildAction",
    "WildGame",
    "WildState",
    "Withdraw",
    "action_from_event",
    "describe_meeting",
    "relation",
]
