"""Setting up a critters game: players, options, the deck and the deal (RULINGS.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bestiary.core.errors import BadOption
from bestiary.critters.cards import Deck

MIN_PLAYERS = 2
MAX_PLAYERS = 8
OPTION_NAMES = ("set_size", "sets_to_win", "hand_limit", "deck", "first")
# Below the sheet's 3 or 4: for small research variants (CFR, exploitability; docs/rl.md).
SMALL_SET_SIZES = (2,)
SMALL_SETS_TO_WIN = (1, 2)


@dataclass(frozen=True)
class Table:
    """Everything fixed for one game, shared by every clone of its state."""

    players: tuple[str, ...]
    set_size: int
    sets_to_win: int
    hand_limit: int
    deck: Deck
    deal: tuple[str, ...]
    first: int
    seed: int | None
    seat: dict[str, int] = field(init=False, compare=False)
    memo: dict[Any, Any] = field(init=False, compare=False, repr=False)
    kinds: tuple[str, ...] = field(init=False, compare=False)
    card_order: tuple[str, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", {name: i for i, name in enumerate(self.players)})
        # Per-game lists of ready-made actions (legal-action generation reuses them).
        object.__setattr__(self, "memo", {})
        object.__setattr__(self, "kinds", self.deck.kinds)
        object.__setattr__(self, "card_order", tuple(card for card, _ in self.deck.counts))

    def options(self) -> dict[str, Any]:
        """The effective options, as a record header carries them."""
        return {
            "set_size": self.set_size,
            "sets_to_win": self.sets_to_win,
            "hand_limit": self.hand_limit,
        }


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    names = tuple(players)
    if not all(isinstance(p, str) and p for p in names):
        raise BadOption("player names must be non-empty text")
    if len(set(names)) != len(names):
        raise BadOption("player names must be unique")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise BadOption(f"critters takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    return names


def read_options(
    players: tuple[str, ...], options: Mapping[str, Any] | None
) -> tuple[int, int, int, int]:
    """Validate options; return (set_size, sets_to_win, hand_limit, first seat)."""
    opts = dict(options or {})
    unknown = [key for key in opts if key not in OPTION_NAMES]
    if unknown:
        raise BadOption(
            f"unknown critters option {unknown[0]!r} (known: {', '.join(OPTION_NAMES)})"
        )
    set_size = _choice(opts, "set_size", 3, SMALL_SET_SIZES)
    sets_to_win = _choice(opts, "sets_to_win", 3, SMALL_SETS_TO_WIN)
    if set_size == 4 and sets_to_win == 4:
        raise BadOption("choose one longer variant: set_size 4 or sets_to_win 4, not both")
    if (set_size == 4 or sets_to_win == 4) and len(players) > 4:
        raise BadOption("the longer variants (set_size 4, sets_to_win 4) are for 2 to 4 players")
    default_limit = 4 if len(players) >= 6 else 5
    hand_limit = opts.get("hand_limit", default_limit)
    if not isinstance(hand_limit, int) or isinstance(hand_limit, bool) or not 1 <= hand_limit <= 20:
        raise BadOption(f"option hand_limit must be a whole number 1 to 20, not {hand_limit!r}")
    first = opts.get("first", players[0])
    if first not in players:
        raise BadOption(f"option first must name one of the players, not {first!r}")
    return set_size, sets_to_win, hand_limit, players.index(first)


def _choice(opts: dict[str, Any], name: str, default: int, small: tuple[int, ...]) -> int:
    """The sheet's 3 or 4, or a smaller value of the research variants (docs/rl.md)."""
    value = opts.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value not in (*small, 3, 4):
        also = " or ".join(map(str, small))
        raise BadOption(
            f"option {name} must be 3 or 4 (or {also} for a small variant), not {value!r}"
        )
    return value


def check_deal(deal: Sequence[str], players: int, hand_limit: int) -> None:
    if len(deal) < players * hand_limit:
        raise BadOption(
            f"the deck has {len(deal)} cards, too few to deal {hand_limit} to each of "
            f"{players} players"
        )
