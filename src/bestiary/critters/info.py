"""What the critters game says about itself (``GameInfo``): options, vocabulary, dynamics."""

from __future__ import annotations

from typing import Final

from bestiary.core.info import Faces, GameInfo, OptionSpec
from bestiary.critters.analytics import ANALYTICS
from bestiary.critters.cards import ACTION_CARDS, DEFAULT_KINDS, WILD
from bestiary.critters.decks import DECKS

# Reshuffles in a row without a new full set before the stalled ending (docs/rulings.md).
STALL_RESHUFFLES: Final = 30
# The most events a game's record holds before its next turn: the game then ends as stalled
# (docs/rulings.md), whatever the options, so that every record, replay and restore of a game
# stays within what the server serves (games on the default options stay far below it).
MAX_EVENTS: Final = 5_000
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8

OPTIONS = (
    # The sheet says 3 or 4; the smaller values are for small research variants (docs/rl.md).
    OptionSpec(
        "set_size",
        "choice",
        3,
        choices=(2, 3, 4),
        description="cards in a full set (the printed rules: 3, or 4 for a longer game)",
    ),
    OptionSpec(
        "sets_to_win",
        "choice",
        3,
        choices=(1, 2, 3, 4),
        description=(
            "full sets of different kinds needed to win"
            " (the printed rules: 3, or 4 for a longer game with 2 to 4 players)"
        ),
    ),
    OptionSpec(
        "hand_limit",
        "int",
        None,
        minimum=1,
        maximum=20,
        description="most cards in hand after a turn (default 5, or 4 with six or more players)",
    ),
    OptionSpec(
        "stall_reshuffles",
        "int",
        STALL_RESHUFFLES,
        minimum=1,
        maximum=1000,
        description=(
            "the game ends (ranked as when exhausted) rather than reshuffle again after this "
            "many reshuffles in a row that saw no new full set (bestiary's rule); whatever "
            f"this is, a game also ends so once a turn is due after {MAX_EVENTS:,} events"
        ),
    ),
    OptionSpec("first", "player", None, description="who plays first (default: the first seat)"),
    OptionSpec(
        "deck",
        "deck",
        None,
        description="a deck by name, or a deck's content (default: the sheet's 9 kinds)",
    ),
)

_NAMES = {
    WILD: "Wild card",
    "no": "It's Okay to Say NO!",
    "hop_over": "Hop Over",
    "game_changer": "Game Changer",
    "ultimate_collector": "Ultimate Collector",
}

INFO = GameInfo(
    name="critters",
    title="Critters",
    summary=(
        "A turn-based set-collection game for 2 to 8 players. Draw a card, then put critters "
        "down, play full sets, or play action cards that take, swap and steal other "
        "players' sets; an action can be answered with \"It's Okay to Say NO!\". The first "
        "to hold full sets of three different kinds wins."
    ),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    real_time=False,
    chance=True,
    options=OPTIONS,
    vocabulary={
        "cards": {**{k: k.capitalize() for k in DEFAULT_KINDS}, **_NAMES},
        "kinds": list(DEFAULT_KINDS),
        "wild": WILD,
        "actions": list(ACTION_CARDS),
        # signs a seat may show the table
        "reactions": [
            {"key": "think", "sign": "\N{THINKING FACE}", "words": "let me think"},
            {"key": "wow", "sign": "\N{FACE WITH OPEN MOUTH}", "words": "wow"},
            {"key": "oops", "sign": "\N{GRIMACING FACE}", "words": "oops"},
        ],
    },
    default_bot="greedy",
    answer_timeout=True,
    decks=DECKS,
    bots=("bestiary.bots.critters", "bestiary.bots.critters_search"),
    faces=Faces(
        web="bestiary.critters:web",
        terminal="bestiary.tui.critters_table:BOARD",
        encoding="bestiary.adapters.critters_encoding:from_view",
        vector="bestiary.adapters.vector:CrittersVectorEnv",
    ),
    analytics=ANALYTICS,
    endings={
        "won": "a player holds full sets of sets_to_win different kinds",
        "exhausted": (
            "every player in turn, with an empty Draw Pile, passed or was forced to discard; "
            "ranked by most different full-set kinds, then most Down Cards, then a shared win"
        ),
        "stalled": (
            "a reshuffle was due after stall_reshuffles reshuffles in a row that saw no new "
            f"full set, or a turn was due after {MAX_EVENTS:,} events (whatever the options); "
            "ranked as when exhausted"
        ),
    },
)
