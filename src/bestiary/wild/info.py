"""What Call of the Wild says about itself (``GameInfo``): options, vocabulary, dynamics."""

from __future__ import annotations

from typing import Any, Final

from bestiary.core.info import Faces, GameInfo, OptionSpec
from bestiary.wild.analytics import ANALYTICS
from bestiary.wild.cards import CREATURES, EATING_VERBS, SOUNDS, eaten_by_index

MIN_PLAYERS, MAX_PLAYERS = 2, 6
# The most events a game's record holds: the game then ends as at Nightfall (docs/rulings.md),
# whatever the options, so that every record, replay and restore of a game stays within what the
# server serves (a real-time game of people stays far below it).
MAX_EVENTS: Final = 20_000

OPTIONS = (
    OptionSpec(
        "mating_bonus",
        "bool",
        False,
        description="2 points per Den card from another player's Pack, 1 per own card",
    ),
    OptionSpec(
        "objectives",
        "bool",
        False,
        description="deal each player a secret Objective worth 1 to 3 points at the end",
    ),
    OptionSpec(
        "nightfall_seconds",
        "number",
        120,
        minimum=1,
        maximum=3600,
        description=(
            "the game ends at Nightfall after this many seconds without a meeting; whatever "
            f"this is, a game also ends so once its record holds {MAX_EVENTS:,} events"
        ),
    ),
    # Smaller Packs (docs/rulings.md): the food chain is the sheet's, only fewer of its
    # creatures are dealt, from Megalotaur down.
    OptionSpec(
        "pack_creatures",
        "int",
        5,
        minimum=3,
        maximum=5,
        description="each Pack holds the first this many creatures of the food chain",
    ),
    OptionSpec(
        "pack_copies",
        "int",
        2,
        minimum=1,
        maximum=2,
        description="copies of each of those creatures in a Pack",
    ),
)
# Options a record names only when they differ from the sheet's game (see WildState.header).
PACK_OPTIONS = ("pack_creatures", "pack_copies")

# Named option sets (docs/rl.md). ``small``: for 2 players, small enough to learn in minutes on
# one core: Packs of three cards (one Megalotaur, one Snerlep, one Fizzalisk, the top of the
# sheet's food chain: Megalotaur has no eater in them and Fizzalisk eats nothing), Nightfall
# after 30 seconds without a meeting.
VARIANTS: dict[str, dict[str, Any]] = {
    "small": {"pack_creatures": 3, "pack_copies": 1, "nightfall_seconds": 30},
}

INFO = GameInfo(
    name="wild",
    title="Call of the Wild",
    summary=(
        "A real-time bluffing game for 2 to 6 players. Offer a creature face-down with a Call, "
        "pair up with a player making the same Call, and Mate (same creature, honest Call), "
        "Hunt (your creature eats theirs) or Double-Cross a hunter along the five-creature "
        "food chain. Den cards score; the game ends at Sundown, when someone meets with "
        "their last card."
    ),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    real_time=True,
    chance=False,
    options=OPTIONS,
    vocabulary={
        "cards": {c: c.capitalize() for c in CREATURES},
        "creatures": list(CREATURES),
        "sounds": dict(SOUNDS),
        "eats": {c: CREATURES[eaten_by_index(i)] for i, c in enumerate(CREATURES)},
        "eating_verbs": dict(EATING_VERBS),
        # signs a seat may show the table (meetings are agreed "usually non-verbally")
        "reactions": [
            {"key": "meet", "sign": "\N{HANDSHAKE}", "words": "meet me?"},
            {"key": "eyes", "sign": "\N{EYES}", "words": "I see you"},
            {"key": "howl", "sign": "\N{WOLF FACE}", "words": "awoo!"},
            {"key": "hurry", "sign": "\N{HOURGLASS WITH FLOWING SAND}", "words": "hurry up"},
        ],
    },
    default_bot="reader",
    quiet_option="nightfall_seconds",
    bots=("bestiary.bots.wild", "bestiary.bots.wild_exploiters"),
    faces=Faces(
        web="bestiary.wild:web",
        terminal="bestiary.tui.wild_table:BOARD",
        encoding="bestiary.adapters.wild_encoding:from_view",
        vector="bestiary.adapters.vector:WildVectorEnv",
        demo="bestiary.demo:run_demo",
    ),
    analytics=ANALYTICS,
    endings={
        "sundown": "a meeting resolved in which a player used their last card",
        "nightfall": (
            f"no meeting for nightfall_seconds, or {MAX_EVENTS:,} events in the record, whatever"
            " the options (bestiary's rules): scored as at Sundown"
        ),
        "out_of_cards": "no player had a card left in hand, offer or Pack",
    },
)
