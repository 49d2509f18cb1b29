"""Bots for Call of the Wild, each with a personality (registered as ``wild`` bots).

All of them play the same table manners: keep the hand full, offer one card with a Call,
answer a Call they like by making the same Call and asking to meet, agree when asked by
someone they want to meet, and re-think an offer nobody answers. They differ in what they offer,
which Call they make and whom they meet.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from bestiary.bots.wild_aims import (
    best_partner_pursuit,
    mate_worth,
    nightfall_share,
    objective,
    planned,
    pursuit,
)
from bestiary.bots.wild_view import INDEX, Unseen, eater_of, eats, legal_moves, payoff
from bestiary.core.agent import register_bot
from bestiary.core.bot_params import BotParam
from bestiary.core.chance import RandomSource
from bestiary.wild import CREATURES, Call, Discard, Draw, Meet, RevealOwn
from bestiary.wild.analytics import BLUFF, DOUBLE_CROSS, HONEST, HUNT, intent

# Acts an unanswered offer waits before the bot re-thinks it, and before it throws a card away.
PATIENCE = 3
DESPERATION = 10
# Decisions without a meeting anywhere at the table before a bot is fully restless: it then
# meets whoever it must, because a table where nobody meets ends at Nightfall with nothing
# scored (a line-up of careful bots would otherwise stall there: docs/bots.md). That is at the
# default Nightfall; a table with a sooner (later) Nightfall makes them restless sooner (later).
RESTLESS = 30

# The personalities' defaults (each settable as ``name(key=value)``: core/bot_params.py). They
# live at module level: a compiled class body cannot read its own earlier names.
# The hunter mates a Call it cannot hunt when a mate is worth this share of a hunt.
APPETITE = 0.6
# The trickster double-crosses a caller who hunts this often (without the Mating Bonus).
SUSPICION = 0.4
# The reader: points a rival's gain costs us, and the least expected gain worth a card.
RIVALRY = 0.5
THRESHOLD = 0.15
# How the reader weighs what it has seen (Beliefs): recent meetings, and meetings with it.
DECAY = 0.85
PAIR = 3.0
# What hunting a player who takes revenge costs (the meetings it spoils afterwards).
REVENGE = 3.0
# An Objective's points against Den points (1: a point is a point).
AMBITION = 1.0
# The cautious reader refuses to meet a player who hunts this often.
DISTRUST = 0.35
# The random bot: how often it lets a decision pass, how often it may throw a card away, and how
# often it echoes a Call already on the table.
PAUSE = 0.25
DISCARD = 0.05
ECHO = 0.5

View = Mapping[str, Any]


class WildBot:
    """Shared table manners; subclasses choose offers and partners.

    With ``objectives`` on, every bot but the random one leans towards its Objective where its
    personality leaves it a choice (which Call to answer, which card to offer: wild_aims.py).
    """

    # The numbers a personality plays by, settable as ``name(key=value)`` (core/bot_params.py).
    PARAMS: ClassVar[tuple[BotParam, ...]] = ()

    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player
        self.rng = rng
        self.waited = 0
        self._quiet = 0  # own decisions since the table's last meeting
        self._met = 0
        self._restless = RESTLESS

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled through __init__ and then its fields: a compiled (mypyc) bot is made only
        through its __init__ (OpenSpiel serializes a state with its match and bots)."""
        return type(self), (self.player, self.rng), self.__getstate__()

    # --------------------------------------------------------------- what personalities choose

    def answer(self, view: View, other: str, call: str) -> str | None:
        """The card to offer to meet ``other``, who calls ``call``, or None to let it be."""
        raise NotImplementedError

    def opening(self, view: View) -> tuple[str, str]:
        """(card, Call) to offer when no Call on the table is worth answering."""
        raise NotImplementedError

    def agrees(self, view: View, other: str, card: str, call: str) -> bool:
        """Whether to meet ``other`` (who calls ``call``) with ``card`` on offer."""
        return True

    # --------------------------------------------------------------- table manners

    def urgency(self) -> float:
        """0 right after a meeting, rising to 1 after ``RESTLESS`` quiet decisions."""
        return min(1.0, self._quiet / self._restless)

    def _count_quiet(self, view: View) -> None:
        self._restless = max(1, round(RESTLESS * nightfall_share(view)))
        met = len(view["meetings"])
        self._quiet = 0 if met != self._met else self._quiet + 1
        self._met = met

    def act(self, view: View, legal: Sequence[Any] | None = None) -> Any | None:
        if view["over"]:
            return None
        self._count_quiet(view)
        me = self.player
        hand: list[str] = view["hand"]
        offer = view["offer"]
        if len(hand) + (offer is not None) < view["hand_limit"] and view["packs"][me] > 0:
            return Draw(me)
        if offer is not None:
            meet = self._meet(view, offer["card"], offer["call"])
            if meet is not None:
                return meet
            self.waited += 1
        # Answer a Call worth answering at once: Calls on the table change fast.
        move = self._respond(view)
        if move is not None:
            self.waited = 0
            return move
        if offer is not None and self.waited < PATIENCE:
            return None
        if offer is None:
            card, call = self.opening(view)
            self.waited = 0
            return Call(me, card, call)
        if self.waited >= DESPERATION and hand and view["packs"][me] > 0:
            self.waited = 0  # nobody wants what we hold: make room for a fresh card
            return Discard(me, self.rng.choice(hand))
        if self.waited % PATIENCE == 0 and hand:
            card, call = self.opening(view)
            if (card, call) != (offer["card"], offer["call"]):
                return Call(me, card, call)
        return None

    def _meet(self, view: View, card: str, call: str) -> Meet | None:
        me = self.player
        asked_me = [p for p, q in view["asks"] if q == me]
        mine = {q for p, q in view["asks"] if p == me}
        others = list(view["players"])
        self.rng.shuffle(others)  # no favourite seat: ties between partners go by chance
        for other in sorted(others, key=lambda p: p not in asked_me):
            if other == me or other in mine or view["calls"][other] != call:
                continue
            if self.agrees(view, other, card, call):
                return Meet(me, other)
        return None

    def _respond(self, view: View) -> Call | None:
        """Answer a Call on the table by making it too (with a card that serves the plan):
        the first one worth answering, or with an Objective the one that serves it best."""
        me = self.player
        offer = view["offer"]
        others = [(p, c) for p, c in view["calls"].items() if p != me and c is not None]
        self.rng.shuffle(others)
        aiming = objective(view) is not None
        best: tuple[float, str, str] | None = None
        for other, call in others:
            if offer is not None and offer["call"] == call:
                continue  # already answering this Call
            card = self.answer(view, other, call)
            if card is not None and (card in view["hand"] or (offer and offer["card"] == card)):
                if not aiming:
                    return Call(me, card, call)
                aim = pursuit(view, me, card, planned(card, call), call, other)
                if best is None or aim > best[0]:
                    best = (aim, card, call)
        return None if best is None else Call(me, best[1], best[2])

    def _aimed(self, view: View, cards: list[str], call_for: dict[str, str]) -> list[str]:
        """``cards`` whose opening Call (``call_for``) serves the Objective best, or all of
        them when none serves it (or the table plays without Objectives)."""
        if objective(view) is None:
            return cards
        aims = {c: best_partner_pursuit(view, self.player, c, call_for[c]) for c in set(cards)}
        top = max(aims.values())
        return [c for c in cards if aims[c] == top] if top > 0 else cards

    def _held(self, view: View) -> list[str]:
        offer = view["offer"]
        return list(view["hand"]) + ([offer["card"]] if offer else [])


class RandomBot(WildBot):
    """Random legal moves, now and then pausing.

    It first picks a kind of move (draw, call, meet, ...) and then a move of that kind: picking
    among all moves alike would almost always make a Call (there are up to 15 of them) and
    hardly ever meet, and a baseline that never meets says little. For the same reason its
    Calls are as often one already on the table (with a random card) as a random one, it
    discards only now and then (``discard``) and never turns up its own offer (the umpiring
    move, docs/rulings.md): a baseline that throws its cards away leaves the other players nobody
    to meet, and the table stalls until Nightfall.
    """

    PARAMS: ClassVar[tuple[BotParam, ...]] = (
        BotParam("pause", PAUSE, 0.0, 0.95, "share of its decisions it lets pass"),
        BotParam("discard", DISCARD, 0.0, 1.0, "share of its decisions at which it may discard"),
        BotParam("echo", ECHO, 0.0, 1.0, "share of its Calls that echo one on the table"),
    )
    lazy_view: ClassVar[bool] = True  # reads its view rarely if at all (core.agent.LazyView)

    def __init__(
        self,
        player: str,
        rng: random.Random,
        pause: float = PAUSE,
        discard: float = DISCARD,
        echo: float = ECHO,
    ) -> None:
        super().__init__(player, rng)
        self.pause = pause
        self.discard = discard
        self.echo = echo

    def act(self, view: View, legal: Sequence[Any] | None = None) -> Any | None:
        moves = list(legal) if legal is not None else legal_moves(view)
        if not moves or self.rng.random() < self.pause:
            return None
        kinds: dict[type, list[Any]] = {}
        discards = self.rng.random() < self.discard
        for move in moves:
            if type(move) is not RevealOwn and (discards or type(move) is not Discard):
                kinds.setdefault(type(move), []).append(move)
        if not kinds:
            return None
        draws = RandomSource(self.rng)  # rng.choice's draws, compiled
        kind = draws.pick(list(kinds))
        if kind is Call:
            heard = {c for p, c in view["calls"].items() if p != self.player and c}
            echo = [m for m in kinds[Call] if m.call in heard]
            if echo and self.rng.random() < self.echo:
                return draws.pick(echo)
        return draws.pick(kinds[kind])


class HonestBot(WildBot):
    """Always mates: offers a card with its own Call, answers Calls it can match."""

    def answer(self, view: View, other: str, call: str) -> str | None:
        return call if call in self._held(view) else None

    def opening(self, view: View) -> tuple[str, str]:
        held = self._held(view)
        card = self.rng.choice(self._aimed(view, held, {c: c for c in held}))
        return card, card


class HunterBot(WildBot):
    """Hunts: answers a Call with the creature that eats it, and lures with false Calls.

    A Call it cannot hunt it answers with a mate when a mate is worth ``appetite`` of a hunt
    (a half without the Mating Bonus, two thirds with it) or its Objective asks for one."""

    PARAMS: ClassVar[tuple[BotParam, ...]] = (
        BotParam(
            "appetite",
            APPETITE,
            0.0,
            1.0,
            "mates with a Call it cannot hunt when a mate is worth this share of a hunt"
            " (1/2 without the Mating Bonus, 2/3 with it)",
        ),
    )

    def __init__(self, player: str, rng: random.Random, appetite: float = APPETITE) -> None:
        super().__init__(player, rng)
        self.appetite = appetite

    def answer(self, view: View, other: str, call: str) -> str | None:
        held = self._held(view)
        card = eater_of(call)
        if card in held:
            return card
        if call in held and (
            mate_worth(view) >= self.appetite
            or pursuit(view, self.player, call, call, call, other) > 0
        ):
            return call
        return None

    def opening(self, view: View) -> tuple[str, str]:
        held = self._held(view)
        card = self.rng.choice(self._aimed(view, held, {c: eats(c) for c in held}))
        return card, eats(card)


class Beliefs:
    """How each player's Calls relate to their cards, from the meetings the table has revealed.

    Counts per player of honest Calls, hunts (one step clockwise), double-crosses (two steps)
    and bluffs (any other Call), starting from a prior that leans towards honesty.

    Seen from ``me`` (the reader's way), a meeting weighs more the more recent it is (``decay``
    per later meeting: a player who changes their ways is believed quickly) and when it was with
    ``me`` (``pair`` times: a player may treat me as they treat nobody else, e.g. in revenge).
    """

    PRIOR: ClassVar[dict[str, float]] = {HONEST: 2.0, HUNT: 1.0, DOUBLE_CROSS: 0.5, BLUFF: 0.5}

    def __init__(
        self, view: View, me: str | None = None, decay: float = 1.0, pair: float = 1.0
    ) -> None:
        self.counts = {p: dict(self.PRIOR) for p in view["players"]}
        meetings = view["meetings"]
        for age, meeting in enumerate(reversed(meetings)):
            weight = decay**age * (pair if me in meeting["players"] else 1.0)
            for player in meeting["players"]:
                if player != me:
                    self.counts[player][intent(meeting["cards"][player], meeting["call"])] += weight

    def share(self, player: str, what: str) -> float:
        counts = self.counts[player]
        return counts[what] / sum(counts.values())

    def hunting(self, player: str) -> float:
        """Estimated chance that ``player``'s next Call is a hunt."""
        return self.share(player, HUNT)


def vengeful(view: View) -> set[str]:
    """Players who have double-crossed someone who had hunted them before."""
    hunted_by: dict[str, set[str]] = {p: set() for p in view["players"]}
    avengers = set()
    for m in view["meetings"]:
        a, b = m["players"]
        for me, other in ((a, b), (b, a)):
            if intent(m["cards"][me], m["call"]) == DOUBLE_CROSS and other in hunted_by[me]:
                avengers.add(me)
        for me, other in ((a, b), (b, a)):
            if intent(m["cards"][other], m["call"]) == HUNT:
                hunted_by[me].add(other)
    return avengers


class TricksterBot(HonestBot):
    """Mates with the trusted, double-crosses callers it suspects of hunting.

    The Mating Bonus makes trust pay more: the bar for suspicion is the hunting share at which
    an honest offer and a double-cross are worth the same, m / (m + e) for a mate's points m and
    an eat's e (1/3 without the bonus, 2/5 with it), scaled by ``suspicion`` / (1/3)."""

    PARAMS: ClassVar[tuple[BotParam, ...]] = (
        BotParam(
            "suspicion",
            SUSPICION,
            0.0,
            1.0,
            "the share of hunts (without the Mating Bonus) at which it double-crosses a caller",
        ),
    )

    def __init__(self, player: str, rng: random.Random, suspicion: float = SUSPICION) -> None:
        super().__init__(player, rng)
        self.suspicion = suspicion

    def bar(self, view: View) -> float:
        worth = mate_worth(view)
        return self.suspicion * (3.0 * worth / (1.0 + worth))  # exactly suspicion without it

    def answer(self, view: View, other: str, call: str) -> str | None:
        if Beliefs(view).hunting(other) >= self.bar(view):
            # A hunter calling ``call`` holds its eater; offer the creature that eats that.
            card = eater_of(eater_of(call))
            return card if card in self._held(view) else None
        return super().answer(view, other, call)

    def agrees(self, view: View, other: str, card: str, call: str) -> bool:
        suspected = Beliefs(view).hunting(other) >= self.bar(view)
        return intent(card, call) == (DOUBLE_CROSS if suspected else "honest")


@dataclass(frozen=True)
class ReaderNumbers:
    """The numbers a reader plays by (the cautious reader too): one value passed whole, so a
    compiled ``__init__`` gets them as it declares them."""

    decay: float = DECAY
    pair: float = PAIR
    rivalry: float = RIVALRY
    threshold: float = THRESHOLD
    revenge: float = REVENGE
    ambition: float = AMBITION


READER = ReaderNumbers()


class ReaderBot(WildBot):
    """Reads the table: weighs each offer, Call and partner by expected points."""

    PARAMS: ClassVar[tuple[BotParam, ...]] = (
        BotParam("decay", DECAY, 0.0, 1.0, "weight of a meeting for each later one (1: all alike)"),
        BotParam("pair", PAIR, 0.0, 10.0, "weight of a meeting with the reader itself"),
        BotParam("rivalry", RIVALRY, 0.0, 1.0, "points a rival's Den point costs it"),
        BotParam("threshold", THRESHOLD, -1.0, 3.0, "least expected gain worth spending a card on"),
        BotParam("revenge", REVENGE, 0.0, 10.0, "points hunting an avenger costs it"),
        BotParam("ambition", AMBITION, 0.0, 3.0, "weight of its Objective's points"),
    )

    def __init__(self, player: str, rng: random.Random, numbers: ReaderNumbers = READER) -> None:
        super().__init__(player, rng)
        self.decay = numbers.decay
        self.pair = numbers.pair
        self.rivalry = numbers.rivalry
        self.least = numbers.threshold
        self.revenge = numbers.revenge
        self.ambition = numbers.ambition

    def _bonus(self, view: View) -> bool:
        if "options" in view:
            return bool(view["options"].get("mating_bonus", False))
        # Without options in the view: with the Mating Bonus, a foreign Den card scores 2.
        for player, den in view["dens"].items():
            foreign = sum(1 for card in den if card["owner"] != player)
            if foreign:
                return bool(view["scores"][player] >= len(den) + foreign)
        return False

    def _their_cards(self, view: View, other: str, call: str, unseen: Unseen) -> dict[str, float]:
        """Chance of each card ``other`` offers with ``call``, from their habits and their Pack."""
        beliefs = Beliefs(view, self.player, self.decay, self.pair)
        weights: dict[str, float] = {}
        for step in range(5):  # the card lies ``step`` places before the Call on the chain
            what = intent(CREATURES[(INDEX[call] - step) % 5], call)
            share = beliefs.share(other, what) / (2.0 if what == BLUFF else 1.0)
            weights[CREATURES[(INDEX[call] - step) % 5]] = share
        left = unseen.left[other]
        odds = {card: w * (left[card] + 0.25) for card, w in weights.items()}
        total = sum(odds.values()) or 1.0
        return {card: w / total for card, w in odds.items()}

    def value(self, view: View, card: str, call: str, other: str, unseen: Unseen) -> float:
        """Expected Den points (ours less a share of theirs) of meeting ``other`` on ``call``."""
        bonus = self._bonus(view)
        aiming = objective(view) is not None
        rivalry = 1.0 if len(view["players"]) == 2 else self.rivalry
        total = 0.0
        for theirs, chance in self._their_cards(view, other, call, unseen).items():
            mine, gained = payoff(card, theirs, call)
            if bonus:  # a mate brings a foreign card (2); an eat one own and one foreign (3)
                mine, gained = mine + (mine > 0), gained + (gained > 0)
            total += chance * (mine - rivalry * gained)
            if aiming:
                aim = pursuit(view, self.player, card, theirs, call, other)
                total += chance * self.ambition * aim
        if intent(card, call) == HUNT and other in vengeful(view):
            total -= self.revenge  # every later meeting with them would be a double-cross
        return total

    def _best(self, view: View, call: str, other: str, unseen: Unseen) -> tuple[float, str]:
        return max((self.value(view, c, call, other, unseen), c) for c in set(self._held(view)))

    def threshold(self) -> float:
        """The least expected gain worth a meeting: lower the longer nobody has met."""
        return self.least - self.urgency()

    def answer(self, view: View, other: str, call: str) -> str | None:
        gain, card = self._best(view, call, other, Unseen.from_view(view))
        return card if gain > self.threshold() else None

    def agrees(self, view: View, other: str, card: str, call: str) -> bool:
        return self.value(view, card, call, other, Unseen.from_view(view)) > self.threshold()

    def opening(self, view: View) -> tuple[str, str]:
        """The (card, Call) with the best expected value against the table as a whole."""
        unseen = Unseen.from_view(view)
        others = [p for p in view["players"] if p != self.player]
        best: tuple[float, float, str, str] | None = None
        for card in sorted(set(self._held(view)), key=INDEX.__getitem__):
            for call in CREATURES:
                gain = sum(self.value(view, card, call, p, unseen) for p in others) / len(others)
                option = (gain, self.rng.random(), card, call)
                if best is None or option > best:
                    best = option
        assert best is not None
        return best[2], best[3]


class CautiousBot(ReaderBot):
    """A reader that will not meet anyone it distrusts, whatever the odds say."""

    PARAMS: ClassVar[tuple[BotParam, ...]] = (
        *ReaderBot.PARAMS,
        BotParam("distrust", DISTRUST, 0.0, 1.0, "share of hunts at which it refuses to meet"),
    )

    def __init__(
        self,
        player: str,
        rng: random.Random,
        numbers: ReaderNumbers = READER,
        distrust: float = DISTRUST,
    ) -> None:
        super().__init__(player, rng, numbers)
        self.distrust = distrust

    def distrusts(self, view: View, other: str) -> bool:
        """Whether ``other`` hunts too often to meet: the bar rises while nobody meets."""
        bar = self.distrust + (1.0 - self.distrust) * self.urgency()
        return Beliefs(view).hunting(other) > bar

    def opening(self, view: View) -> tuple[str, str]:
        # Never echo a distrusted player's Call: that only invites a meeting it will refuse.
        shunned = {
            call
            for player, call in view["calls"].items()
            if player != self.player and call and self.distrusts(view, player)
        }
        card, call = super().opening(view)
        if call in shunned:
            free = [c for c in CREATURES if c not in shunned]
            return card, card if card in free else self.rng.choice(free)
        return card, call

    def agrees(self, view: View, other: str, card: str, call: str) -> bool:
        if self.distrusts(view, other):
            return False
        return super().agrees(view, other, card, call)

    def answer(self, view: View, other: str, call: str) -> str | None:
        if self.distrusts(view, other):
            return None
        return super().answer(view, other, call)


_READER_KEYS = tuple(f.name for f in fields(ReaderNumbers))


def _register(name: str, description: str, cls: type[WildBot], rank: int, persona: str) -> None:
    def factory(player: str, rng: random.Random, **params: float) -> WildBot:
        if issubclass(cls, ReaderBot):  # the reader's own numbers travel as one ReaderNumbers
            numbers = {k: params.pop(k) for k in _READER_KEYS if k in params}
            return cls(player, rng, ReaderNumbers(**numbers), **params)
        return cls(player, rng, **params)

    register_bot("wild", name, description, rank=rank, persona=persona, params=cls.PARAMS)(factory)


# Ranks follow the 4-player tournament of docs/balance.md (higher is stronger); the last
# sentence of each is what the lobby tells a person about it.
_register(
    "random",
    "Plays random legal moves, pausing now and then.",
    RandomBot,
    0,
    "Plays at random: easy to read, easy to beat.",
)
_register(
    "honest",
    "Always mates: offers its cards with their own Calls.",
    HonestBot,
    1,
    "Always makes its card's own Call: meet it to mate.",
)
_register(
    "hunter",
    "Always hunts: answers a Call with the creature that eats it.",
    HunterBot,
    2,
    "Always hunts: answers your Call with the creature that eats yours.",
)
_register(
    "trickster",
    "Honest with the trusted; double-crosses callers it suspects.",
    TricksterBot,
    3,
    "Honest with players it trusts; turns on those it suspects.",
)
_register(
    "reader",
    "Tracks how often each player hunts and picks card, Call and partner by expected points.",
    ReaderBot,
    5,
    "Watches who bluffs and picks the card, Call and partner worth the most.",
)
_register(
    "cautious",
    "A reader that refuses to meet players it distrusts.",
    CautiousBot,
    4,
    "Watches who bluffs and will not meet anyone it distrusts.",
)
