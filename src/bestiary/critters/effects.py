"""Action cards as data: the vocabulary of effects a card is written in (docs/cards.md).

A card is what it does. The sheet's three targeted cards are declared here in the same words a
deck file uses for a new card, and the rules (``moves``, ``refusals``, ``state``) read a card's
definition, never its name::

    [cards.sneak]
    title = "Sneak"
    description = "Take a Down Card from an opponent's incomplete set, then draw a card."
    effects = ["choose_target", "take_down", "draw 1", "answerable_by_no"]

The words (``EFFECTS``): ``choose_target`` (the player chooses an opponent); at most one
*choice* on the target's cards, ``take_down``, ``swap_down`` or ``steal_set`` (the choices the
sheet's cards make, with the sheet's limits); ``draw N`` (the player draws N from the Draw Pile,
fewer if it runs out); ``skip_turn`` (the target skips their next turn); ``take_random`` (a card
of the target's hand, picked by chance, goes to the player's hand: a chance event only the two
of them see); ``protect_set`` (a choice on the player's own sets: one is protected from other
players' cards until the player's turn comes round again); ``answerable_by_no`` (the target
may answer "It's Okay to Say NO!", which cancels the whole card).

>>> sneak = card_from_spec("sneak", {"description": "Take one, draw one.",
...     "effects": ["choose_target", "take_down", "draw 1", "answerable_by_no"]}, "deck")
>>> sneak.choice, sneak.draw, sneak.targeted, sneak.answerable, sneak.title
('take_down', 1, True, True, 'Sneak')
>>> card_from_spec("x", {"description": "?", "effects": ["take_down"]}, "deck line 3")
Traceback (most recent call last):
...
bestiary.core.errors.BadOption: deck line 3: card 'x' takes from a target, so it needs choose_target
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from bestiary.core.errors import BadOption
from bestiary.core.values import by_fields

CHOOSE_TARGET: Final = "choose_target"
TAKE_DOWN: Final = "take_down"
SWAP_DOWN: Final = "swap_down"
STEAL_SET: Final = "steal_set"
DRAW: Final = "draw"
SKIP_TURN: Final = "skip_turn"
TAKE_RANDOM: Final = "take_random"
PROTECT_SET: Final = "protect_set"
ANSWERABLE_BY_NO: Final = "answerable_by_no"

CHOICES: Final = (TAKE_DOWN, SWAP_DOWN, STEAL_SET, PROTECT_SET)
ON_TARGET: Final = (TAKE_DOWN, SWAP_DOWN, STEAL_SET)  # the choices made on the target's cards
MAX_DRAW: Final = 5

EFFECTS: Final[dict[str, str]] = {
    CHOOSE_TARGET: "the player chooses an opponent as the card's target",
    TAKE_DOWN: (
        "take one Down Card (critter or wild) from the target's incomplete set into your own "
        "Down Cards"
    ),
    SWAP_DOWN: "swap one of your Down Cards with one of the target's; neither from a full set",
    STEAL_SET: "steal one of the target's full sets, whole",
    f"{DRAW} N": f"draw N cards (1 to {MAX_DRAW}) from the Draw Pile, fewer if it runs out",
    SKIP_TURN: "the target skips their next turn",
    TAKE_RANDOM: (
        "take one card, picked at random, from the target's hand into yours (only the two of "
        "you see which)"
    ),
    PROTECT_SET: (
        "protect one of your own sets: until your turn comes round again no other player's "
        "card takes from it, swaps with it, adds to it or steals it"
    ),
    ANSWERABLE_BY_NO: (
        'the target may answer with "It\'s Okay to Say NO!", cancelling the whole card'
    ),
}
"""Every word of the vocabulary and what it does (docs/cards.md shows this table)."""


@dataclass(frozen=True, slots=True)
class ActionCard:
    """One action card's definition: its name (its record events' ``do``), how front ends show
    it, and what it does, read from its effects in the order written.

    What the rules ask of it (``choice``, ``targeted``, ``draw``, ``skips``, ``answerable``) is
    read off the effects once, when it is made: the rules ask at every play."""

    name: str
    title: str
    description: str
    effects: tuple[str, ...]
    # the one choice it makes (take_down, swap_down, steal_set on the target's cards,
    # protect_set on the player's own sets), or ""
    choice: str = field(init=False, compare=False)
    targeted: bool = field(init=False, compare=False)
    draw: int = field(init=False, compare=False)  # cards drawn
    skips: bool = field(init=False, compare=False)  # the target skips their next turn
    takes_random: bool = field(init=False, compare=False)  # from the target's hand, by chance
    answerable: bool = field(init=False, compare=False)  # by NO!

    def __post_init__(self) -> None:
        effects = self.effects
        choices = [e for e in effects if e in CHOICES]
        object.__setattr__(self, "choice", choices[0] if choices else "")
        object.__setattr__(self, "targeted", CHOOSE_TARGET in effects)
        object.__setattr__(self, "draw", sum(_drawn(e) for e in effects))
        object.__setattr__(self, "skips", SKIP_TURN in effects)
        object.__setattr__(self, "takes_random", TAKE_RANDOM in effects)
        object.__setattr__(self, "answerable", ANSWERABLE_BY_NO in effects)

    def spec(self) -> dict[str, object]:
        """The definition as a deck file's ``[cards.NAME]`` table holds it."""
        return {"title": self.title, "description": self.description, "effects": list(self.effects)}


def _drawn(effect: str) -> int:
    """How many cards ``effect`` draws (0 unless it is a well-formed ``draw N``)."""
    parts = effect.split()
    if len(parts) == 2 and parts[0] == DRAW and parts[1].isdigit():
        return int(parts[1])
    return 0


def card_from_spec(name: str, spec: object, where: str) -> ActionCard:
    """A card from a deck file's ``[cards.NAME]`` table; BadOption (one sentence, saying
    ``where``) if it is unknown words, ambiguous, or a card that could never be played."""
    if not isinstance(spec, Mapping):
        raise BadOption(f"{where}: card {name!r} must be a table with description and effects")
    unknown = sorted(set(map(str, spec)) - {"title", "description", "effects"})
    if unknown:
        raise BadOption(f"{where}: card {name!r} has unknown keys: {', '.join(unknown)}")
    description = spec.get("description")
    if not isinstance(description, str) or not description.strip():
        raise BadOption(f"{where}: card {name!r} needs a description sentence")
    title = spec.get("title", name.replace("_", " ").title())
    if not isinstance(title, str) or not title.strip():
        raise BadOption(f"{where}: card {name!r} needs its title as text")
    effects = spec.get("effects")
    if not isinstance(effects, list) or not all(isinstance(e, str) for e in effects):
        raise BadOption(f"{where}: card {name!r} needs effects as a list of words")
    card = ActionCard(name, title.strip(), description.strip(), tuple(e.strip() for e in effects))
    check_card(card, where)
    return card


def check_card(card: ActionCard, where: str) -> None:
    """Refuse an unknown word, an ambiguous card (two choices, a word twice) or one that could
    never be played (doing nothing, or acting on a target it never chooses)."""
    name = card.name
    seen: list[str] = []
    for effect in card.effects:
        word = effect.split()[0] if effect else ""
        if word not in EFFECTS and word != DRAW:
            known = ", ".join(EFFECTS)
            raise BadOption(f"{where}: card {name!r} has an unknown effect {effect!r} ({known})")
        if word == DRAW and not _draw_count(effect):
            raise BadOption(
                f"{where}: card {name!r} has {effect!r}: write draw and a number 1 to {MAX_DRAW}"
            )
        if word in seen:
            raise BadOption(f"{where}: card {name!r} names {word} twice, which is ambiguous")
        seen.append(word)
    choices = [e for e in card.effects if e in CHOICES]
    on_target = [e for e in choices if e in ON_TARGET]
    if len(choices) > 1:
        raise BadOption(
            f"{where}: card {name!r} makes two choices ({' and '.join(choices)}), which is "
            "ambiguous: a card makes at most one"
        )
    acts = [e for e in seen if e not in (CHOOSE_TARGET, ANSWERABLE_BY_NO)]
    if not acts:
        raise BadOption(f"{where}: card {name!r} does nothing, so it could never be played")
    if not card.targeted:
        needs = f"{where}: card {name!r} %s, so it needs choose_target"
        if on_target:
            raise BadOption(needs % "takes from a target")
        if card.skips:
            raise BadOption(needs % "skips a target's turn")
        if card.takes_random:
            raise BadOption(needs % "takes from a target's hand")
        if card.answerable:
            raise BadOption(
                f"{where}: card {name!r} is answerable_by_no but has no target to answer it"
            )


def _draw_count(effect: str) -> bool:
    parts = effect.split()
    return len(parts) == 2 and parts[1].isdigit() and 1 <= int(parts[1]) <= MAX_DRAW


def _sheet(name: str, title: str, description: str, choice: str) -> ActionCard:
    return ActionCard(name, title, description, (CHOOSE_TARGET, choice, ANSWERABLE_BY_NO))


SHEET_CARDS: Final = (
    _sheet("hop_over", "Hop Over", "Take one Down Card from an opponent's incomplete set.",
           TAKE_DOWN),
    _sheet("game_changer", "Game Changer",
           "Swap one of your Down Cards with one of an opponent's (neither from a full set).",
           SWAP_DOWN),
    _sheet("ultimate_collector", "Ultimate Collector", "Steal an opponent's full set, whole.",
           STEAL_SET),
)  # fmt: skip
"""The sheet's targeted action cards, in the vocabulary (RULINGS.md's texts)."""


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(ActionCard)
