"""Every event of a game said in words, for the log beside the table.

The words are given an event already redacted for the one who reads them (``state.redact``,
the game's one filter), so they can only say what that reader may know: in wild a Call is
heard but the card stays face-down. A hidden card is named only when the event still carries
it and the reader is not the one who played it (they hold it already): the replay viewer's
show-everything mode.

>>> wild_words({"by": "ann", "do": "call", "call": "megalotaur"})
"ann calls 'HROOM!' (megalotaur) with a face-down card"
>>> wild_words({"by": "ann", "do": "call", "card": "snerlep", "call": "megalotaur"})
"ann calls 'HROOM!' (megalotaur) with their snerlep"
>>> critters_words({"by": "bob", "do": "hop_over", "target": "ann", "kind": "fox", "card": "fox"})
"bob plays Hop Over on ann: take a fox from ann's fox set"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bestiary.core.game import State
from bestiary.critters.cards import WILD
from bestiary.wild.cards import SOUNDS

Event = dict[str, Any]


@dataclass(frozen=True)
class LogLine:
    """One line of the table's narration; ``to_you`` lines stand out on screen."""

    text: str
    to_you: bool = False


def wild_words(event: Event, viewer: str | None = None, meeting: str | None = None) -> str:
    """One wild event in words; ``meeting`` is the outcome text when the event made one."""
    by = event.get("by", "")
    do = event.get("do")
    card = event.get("card") if by != viewer else None
    if do == "draw":
        return f"{by} draws a card"
    if do == "call":
        call = event["call"]
        hidden = f"their {card}" if card else "a face-down card"
        return f"{by} calls {SOUNDS[call]!r} ({call}) with {hidden}"
    if do == "withdraw":
        return f"{by} takes their offer back"
    if do == "discard":
        what = f"a {card}" if card else "a card"
        return f"{by} discards {what} face-down at the Watering Hole"
    if do == "reveal_own":
        return f"{by} flips their own offer: it goes face-down to the Watering Hole"
    if do == "meet":
        other = event.get("with", "")
        if meeting is not None:
            return f"{by} and {other} meet: {meeting}"
        return f"{by} asks {other} to meet"
    if do == "nightfall":
        return "Nightfall: no meeting for too long, the game ends"
    return str(event)


def wild_line(event: Event, viewer: str | None, after: State, progressed: bool) -> LogLine:
    """A wild event for ``viewer``'s log; ``progressed``: it made a meeting (``after``'s last)."""
    from bestiary.wild import WildState, describe_meeting

    if event.get("do") == "meet" and progressed and isinstance(after, WildState):
        text = wild_words(event, viewer, meeting=describe_meeting(after.meetings[-1]))
        return LogLine(text, viewer is not None and viewer in (event.get("by"), event.get("with")))
    return LogLine(wild_words(event, viewer), viewer is not None and event.get("with") == viewer)


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) if isinstance(cards, list) else str(cards)


def critters_words(event: Event) -> str:
    """One critters event in words (every critters move is public)."""
    by = event.get("by", "")
    do = event.get("do")
    target = event.get("target", "")
    kind = event.get("kind", "")
    if do == "down":
        if event.get("card") == WILD:
            return f"{by} puts down a wild as a {event.get('as')}"
        return f"{by} puts down a {event.get('card')}"
    if do == "set":
        return f"{by} plays a full {kind} set: {_cards(event.get('cards'))}"
    if do == "complete":
        return f"{by} completes their {kind} set with {_cards(event.get('cards'))}"
    if do == "hop_over":
        what = "the wild" if event.get("card") == WILD else f"a {event.get('card')}"
        return f"{by} plays Hop Over on {target}: take {what} from {target}'s {kind} set"
    if do == "game_changer":
        give, take = event.get("give", {}), event.get("take", {})
        return (
            f"{by} plays Game Changer on {target}: give their {give.get('card')} "
            f"({give.get('kind')} set) for {target}'s {take.get('card')} ({take.get('kind')} set)"
        )
    if do == "ultimate_collector":
        return f"{by} plays Ultimate Collector on {target}: steal {target}'s full {kind} set"
    if do == "no":
        return f"{by} says NO! The action is cancelled"
    if do == "allow":
        return f"{by} allows it"
    if do == "swap_wild":
        return (
            f"{by} puts a {kind} in place of the wild in their full {kind} set; "
            f"the wild becomes a {event.get('to')}"
        )
    if do == "pass":
        return f"{by} passes"
    if do == "discard":
        return f"{by} must discard: a {event.get('card')} goes to the centre pile"
    if do == "reshuffle":
        return "the centre pile is shuffled into a new Draw Pile"
    return str(event)


def critters_line(event: Event, viewer: str | None, after: State, progressed: bool) -> LogLine:
    """A critters event for ``viewer``'s log: lines that target the viewer stand out."""
    return LogLine(critters_words(event), viewer is not None and event.get("target") == viewer)
