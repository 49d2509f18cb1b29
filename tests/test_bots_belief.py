"""The critters belief: deals that never contradict the public record, and clues it reads."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.bots.critters_belief import Belief
from bestiary.bots.critters_search import IsmctsBot
from bestiary.core.agent import make_bot
from bestiary.critters import GAME, CrittersState
from bestiary.critters.actions import Down, Pass, PlaySet, UltimateCollector
from bestiary.critters.cards import NO
from bestiary.critters.view import unseen_cards
from bestiary.search.ismcts import Budget

PUBLIC = ("tableaus", "centre_pile", "hand_sizes", "draw_pile", "turn", "awaiting", "pending")


def _check_deal(belief: Belief, state: CrittersState, me: str, seed: int) -> None:
    view = state.view(me)
    world = belief.sample(view, random.Random(seed))
    assert world.view(me) == view  # everything the seat sees is exactly as it is
    dealt = Counter(world.draw_pile)
    for p in state.players:
        if p != me:
            dealt.update(world.hand(p))
    assert dealt == Counter(
        unseen_cards(view, me)
    )  # the hidden cards are the unseen ones, every one once
    assert {m for m in world.legal_actions(me)} == set(state.legal_actions(me))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.sampled_from(["random", "greedy"]))
def test_deals_never_contradict_the_public_record(seed: int, players: int, bots: str) -> None:
    """Over random games, every deal the belief makes fits what the seat has seen."""
    names = [f"p{i + 1}" for i in range(players)]
    state = GAME.new_game(names, seed=seed)
    me = names[seed % players]
    belief = Belief(me, trust=1.0)  # every clue honoured: the strictest deals it can make
    agents = {p: make_bot("critters", bots, p, seed + i) for i, p in enumerate(names)}
    for step in range(60):
        if state.is_over:
            break
        actor = state.to_act
        assert actor is not None
        legal = state.legal_actions(actor)
        if actor == me:
            belief.observe(state.view(me))
            _check_deal(belief, state, me, seed + step)
        move = agents[actor].act(state.view(actor), legal)
        if actor == me:
            belief.remember(move)
        state.apply(move)


def _table(hands: dict[str, list[str]], draw: list[str]) -> CrittersState:
    players = list(hands)
    size = len(hands[players[0]])
    deck = [hands[p][i] for i in range(size) for p in players] + draw
    header = {
        "game": "critters",
        "version": 1,
        "players": players,
        "options": {"hand_limit": size},
        "deck": deck,
        "first": players[0],
    }
    return GAME.from_header(header)


FILLER = ["rabbit", "squirrel", "raccoon", "hedgehog", "turtle", "otter", "no", "no"] * 2


def test_a_player_who_lets_a_set_be_stolen_is_dealt_no_no() -> None:
    state = _table(
        {
            "ann": ["fox", "fox", "fox", "ultimate_collector", "owl"],
            "bo": ["frog", "frog", "frog", "rabbit", "otter"],
        },
        FILLER,
    )
    belief = Belief("ann", trust=1.0)
    belief.observe(state.view("ann"))
    move = PlaySet("ann", "fox", ("fox", "fox", "fox"))
    belief.remember(move)
    state.apply(move)
    state.apply(PlaySet("bo", "frog", ("frog", "frog", "frog")))
    belief.observe(state.view("ann"))
    steal = UltimateCollector("ann", "bo", "frog")
    belief.remember(steal)
    state.apply(steal)
    state.apply(state.legal_actions("bo")[-1])  # bo holds no NO!: allow
    state.apply(Down("bo", "rabbit"))
    belief.observe(state.view("ann"))
    assert [c.why for c in belief.clues] == ["allowed a steal"]
    # bo held 3 cards when it allowed; it has drawn one and put one down since: at least 2 of
    # its 3 cards are from before, and only the one it drew can be a NO!.
    clean = belief.clues[0].clean
    assert clean == 2
    for seed in range(30):
        hands, _ = belief.deal(state.view("ann"), random.Random(seed))
        assert hands["bo"].count(NO) <= len(hands["bo"]) - clean
    # Trusting nothing, the same belief deals the NO!s anywhere.
    belief.trust = 0.0
    counts = [
        belief.deal(state.view("ann"), random.Random(s))[0]["bo"].count(NO) for s in range(60)
    ]
    assert max(counts) > len(state.hand("bo")) - clean


def test_a_pass_says_the_player_held_no_critter_of_an_open_kind() -> None:
    state = _table(
        {"ann": ["fox", "owl", "frog", "otter", "rabbit"], "bo": ["frog"] * 3 + ["no"] * 2},
        ["hop_over", "no", "no", *FILLER],
    )
    belief = Belief("ann", trust=1.0)
    for ann, bo in (
        (Down("ann", "fox"), PlaySet("bo", "frog", ("frog", "frog", "frog"))),
        (Down("ann", "owl"), Pass("bo")),  # 3 cards and the one drawn: a pass is allowed now
    ):
        belief.observe(state.view("ann"))
        belief.remember(ann)
        state.apply(ann)
        state.apply(bo)
    belief.observe(state.view("ann"))
    assert [c.why for c in belief.clues] == ["passed"]
    assert belief.clues[0].excluded == frozenset(k for k in state.kinds if k != "frog")
    for seed in range(20):
        hands, _ = belief.deal(state.view("ann"), random.Random(seed))
        assert not any(card in state.kinds and card != "frog" for card in hands["bo"])


def test_the_search_stops_at_its_iteration_budget() -> None:
    state = GAME.new_game(["a", "b"], seed=4)
    for budget in (1, 7, 40):
        bot = IsmctsBot("a", random.Random(1), Budget(iterations=budget))
        move = bot.act(state.view("a"), state.legal_actions("a"))
        assert move in state.legal_actions("a")
        assert bot.last is not None
        assert bot.last.iterations == budget
        assert sum(child.visits for child in bot.last.root.children.values()) == budget


def test_the_search_stops_on_its_clock() -> None:
    state = GAME.new_game(["a", "b", "c"], seed=4)
    bot = IsmctsBot("a", random.Random(1), Budget(iterations=None, millis=20))
    move = bot.act(state.view("a"), state.legal_actions("a"))
    assert move in state.legal_actions("a")
    assert bot.last is not None and bot.last.iterations >= 1
    # Loosely: it stopped on the clock, long before a million playouts.
    assert bot.last.iterations < 1_000_000
    both = IsmctsBot("a", random.Random(1), Budget(iterations=5, millis=60_000))
    both.act(state.view("a"), state.legal_actions("a"))
    assert both.last is not None and both.last.iterations == 5
