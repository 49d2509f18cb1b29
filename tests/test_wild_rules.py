"""Scenario tests for Call of the Wild, each built from explicit Pack orders."""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.core.errors import IllegalAction
from bestiary.core.game import replay
from bestiary.wild import (
    CREATURES,
    GAME,
    Call,
    Discard,
    Draw,
    Meet,
    Nightfall,
    RevealOwn,
    WildState,
    Withdraw,
    describe_meeting,
)
from bestiary.wild.info import MAX_EVENTS

M, S, F, W, K = CREATURES  # megalotaur, snerlep, fizzalisk, wiffaloon, skeevil


def pack(*top: str) -> list[str]:
    """A legal Pack whose top cards are ``top``; the rest follow in food-chain order."""
    rest = [c for c in CREATURES for _ in range(2)]
    for card in top:
        rest.remove(card)
    return [*top, *rest]


def table(options: dict[str, Any] | None = None, **packs: list[str]) -> WildState:
    header = {"game": "wild", "version": 1, "players": list(packs), "packs": packs}
    if options is not None:
        header["options"] = options
    return GAME.from_header(header)


def meet(state: WildState, first: str, second: str) -> None:
    state.apply(Meet(first, second))
    state.apply(Meet(second, first))


def den(state: WildState, player: str) -> list[tuple[str, str]]:
    return state.den(player)


# --------------------------------------------------------------------- setup and limits


def test_setup_draws_up_to_two_from_the_top() -> None:
    state = table(ann=pack(K, M), bob=pack(F, W))
    assert state.hand("ann") == [K, M]  # in the order drawn
    assert state.hand("bob") == [F, W]
    assert state.pack_size("ann") == 8
    assert state.events() == []


def test_three_players_hold_three() -> None:
    state = table(ann=pack(K, M, S), bob=pack(), carl=pack())
    assert state.hand("ann") == [K, M, S]
    assert Draw("ann") not in state.legal_actions("ann")
    with pytest.raises(IllegalAction, match="hand limit is 3"):
        state.apply(Draw("ann"))
    state.apply(Discard("ann", K))
    state.apply(Draw("ann"))
    assert state.hand_size("ann") == 3


def test_hand_limit_two_and_the_offer_counts() -> None:
    state = table(ann=pack(M, S, F), bob=pack())
    with pytest.raises(IllegalAction, match="hand limit is 2"):
        state.apply(Draw("ann"))
    state.apply(Call("ann", M, M))
    with pytest.raises(IllegalAction, match="counting the offer"):
        state.apply(Draw("ann"))
    state.apply(Discard("ann", S))
    assert Draw("ann") in state.legal_actions("ann")
    state.apply(Draw("ann"))  # the top card: fizzalisk
    assert state.hand("ann") == [F]
    assert state.offer("ann") == (M, M)


def test_draw_refused_on_empty_pack() -> None:
    state = table(ann=pack(), bob=pack())
    for _ in range(8):
        state.apply(Discard("ann", state.hand("ann")[0]))
        state.apply(Draw("ann"))
    state.apply(Discard("ann", state.hand("ann")[0]))
    with pytest.raises(IllegalAction, match="Pack is empty"):
        state.apply(Draw("ann"))


# ------------------------------------------------------------------------- calling


def test_recall_same_card_and_another_card() -> None:
    state = table(ann=pack(M, S), bob=pack())
    state.apply(Call("ann", M, M))
    assert state.hand("ann") == [S]
    state.apply(Call("ann", M, F))  # the same card again, another Call
    assert state.offer("ann") == (M, F)
    state.apply(Call("ann", S, S))  # another card: the megalotaur returns to the hand
    assert state.hand("ann") == [M]
    assert state.offer("ann") == (S, S)
    assert state.hand_size("ann") == 1


def test_call_needs_the_card_in_hand() -> None:
    state = table(ann=pack(M, S), bob=pack())
    with pytest.raises(IllegalAction, match="no skeevil in hand"):
        state.apply(Call("ann", K, K))


def test_withdraw_returns_the_offer() -> None:
    state = table(ann=pack(M, S), bob=pack())
    state.apply(Call("ann", M, K))
    state.apply(Withdraw("ann"))
    assert state.hand("ann") == [S, M]  # the offer comes back at the end of the hand
    assert state.offer("ann") is None
    with pytest.raises(IllegalAction, match="no offer to withdraw"):
        state.apply(Withdraw("ann"))


def test_discard_goes_face_down_and_not_the_offer() -> None:
    state = table(ann=pack(M, S), bob=pack())
    state.apply(Call("ann", M, M))
    with pytest.raises(IllegalAction, match="offered card cannot be discarded"):
        state.apply(Discard("ann", M))
    state.apply(Discard("ann", S))
    assert state.watering_hole() == [(S, "ann", False)]
    assert state.view(None)["watering_hole"] == {"face_up": [], "face_down": {"ann": 1, "bob": 0}}


def test_reveal_own_sends_the_offer_face_down() -> None:
    state = table(ann=pack(M, S), bob=pack())
    state.apply(Call("ann", M, M))
    state.apply(RevealOwn("ann"))
    assert state.watering_hole() == [(M, "ann", False)]
    assert state.offer("ann") is None
    with pytest.raises(IllegalAction, match="no offer to reveal"):
        state.apply(RevealOwn("ann"))


# ------------------------------------------------------------------ meetings, outcomes


def test_honest_mate() -> None:
    state = table(ann=pack(M, S), bob=pack(M, F))
    state.apply(Call("ann", M, M))
    state.apply(Call("bob", M, M))
    state.apply(Meet("bob", "ann"))
    assert state.asks() == [("bob", "ann")]
    state.apply(Meet("ann", "bob"))
    assert den(state, "ann") == [(M, "bob")]
    assert den(state, "bob") == [(M, "ann")]
    assert state.watering_hole() == []
    assert state.scores() == {"ann": 1, "bob": 1}
    assert state.meetings[0].to_dict() == {
        "players": ["bob", "ann"],
        "call": M,
        "cards": {"bob": M, "ann": M},
        "outcome": "mate",
        "eater": None,
    }
    assert "mate" in describe_meeting(state.meetings[0])


def test_hunt_skeevil_infests_an_honest_megalotaur() -> None:
    state = table(ann=pack(M, S), bob=pack(K, F))
    state.apply(Call("ann", M, M))  # honest
    state.apply(Call("bob", K, M))  # hunting: the Call one step clockwise from skeevil
    meet(state, "ann", "bob")
    assert den(state, "bob") == [(M, "ann"), (K, "bob")]  # asker's card first
    assert den(state, "ann") == []
    assert state.scores() == {"ann": 0, "bob": 2}
    assert describe_meeting(state.meetings[0]) == "skeevil infests megalotaur: bob eats ann's card"


def test_double_cross_eats_the_hunter() -> None:
    # bob hunts with a snerlep calling fizzalisk; ann double-crosses: megalotaur calling fizzalisk.
    state = table(ann=pack(M, W), bob=pack(S, W))
    state.apply(Call("bob", S, F))
    state.apply(Call("ann", M, F))
    meet(state, "bob", "ann")
    assert state.meetings[0].outcome == "eat"
    assert state.meetings[0].eater == "ann"
    assert den(state, "ann") == [(S, "bob"), (M, "ann")]
    assert state.scores() == {"ann": 2, "bob": 0}


def test_both_hunting_the_same_creature_avoid() -> None:
    state = table(ann=pack(F, M), bob=pack(F, M))
    state.apply(Call("ann", F, W))
    state.apply(Call("bob", F, W))
    meet(state, "ann", "bob")
    assert state.meetings[0].outcome == "avoid"
    assert state.watering_hole() == [(F, "ann", True), (F, "bob", True)]
    assert den(state, "ann") == den(state, "bob") == []
    assert "both hunting" in describe_meeting(state.meetings[0])


def test_two_steps_apart_avoid() -> None:
    state = table(ann=pack(M, W), bob=pack(F, W))
    state.apply(Call("ann", M, S))
    state.apply(Call("bob", F, S))
    meet(state, "bob", "ann")
    assert state.meetings[0].outcome == "avoid"
    assert state.watering_hole() == [(F, "bob", True), (M, "ann", True)]
    assert state.scores() == {"ann": 0, "bob": 0}
    assert state.view(None)["watering_hole"]["face_up"] == [
        {"creature": F, "owner": "bob"},
        {"creature": M, "owner": "ann"},
    ]


def test_eat_whatever_the_calls() -> None:
    # Both call wiffaloon; snerlep eats fizzalisk even though nobody called either.
    state = table(ann=pack(F, M), bob=pack(S, M))
    state.apply(Call("ann", F, W))
    state.apply(Call("bob", S, W))
    meet(state, "ann", "bob")
    assert state.meetings[0].eater == "bob"
    assert den(state, "bob") == [(F, "ann"), (S, "bob")]


# --------------------------------------------------------------------------- asking


def three() -> WildState:
    state = table(ann=pack(M, S, F), bob=pack(M, S, F), carl=pack(M, S, F))
    for p in ("ann", "bob", "carl"):
        state.apply(Call(p, M, M))
    return state


def test_asking_the_same_player_twice_is_refused() -> None:
    state = three()
    state.apply(Meet("ann", "bob"))
    assert Meet("ann", "bob") not in state.legal_actions("ann")
    with pytest.raises(IllegalAction, match="already asked bob"):
        state.apply(Meet("ann", "bob"))


@pytest.mark.parametrize(
    "lapse",
    [
        Call("ann", M, M),
        Call("bob", S, M),
        Withdraw("ann"),
        Withdraw("bob"),
        RevealOwn("ann"),
        RevealOwn("bob"),
    ],
)
def test_a_pending_ask_lapses(lapse: Any) -> None:
    state = three()
    state.apply(Meet("ann", "bob"))
    state.apply(lapse)
    assert state.asks() == []
    for p in ("ann", "bob"):
        if state.offer(p) is None:
            state.apply(Call(p, state.hand(p)[0], M))
    state.apply(Meet("bob", "ann"))  # only an ask now, not an agreement
    assert state.meetings == []
    assert state.asks() == [("bob", "ann")]


def test_an_ask_lapses_when_either_meets_someone_else() -> None:
    state = three()
    state.apply(Meet("ann", "bob"))
    state.apply(Meet("carl", "ann"))
    assert state.asks() == [("ann", "bob"), ("carl", "ann")]
    state.apply(Meet("ann", "carl"))  # ann agrees with carl: they meet
    assert state.meetings[0].players == ("carl", "ann")
    assert state.asks() == []


def test_discarding_does_not_lapse_an_ask() -> None:
    state = three()
    state.apply(Meet("ann", "bob"))
    state.apply(Discard("ann", S))
    state.apply(Discard("bob", F))
    assert state.asks() == [("ann", "bob")]
    state.apply(Meet("bob", "ann"))
    assert state.meetings[0].outcome == "mate"


def test_meeting_needs_the_same_call() -> None:
    state = table(ann=pack(M, S), bob=pack(M, S))
    state.apply(Call("ann", M, M))
    with pytest.raises(IllegalAction, match="bob has made no Call"):
        state.apply(Meet("ann", "bob"))
    state.apply(Call("bob", M, S))
    assert [a for a in state.legal_actions("ann") if isinstance(a, Meet)] == []
    with pytest.raises(IllegalAction, match="only the same Calls meet"):
        state.apply(Meet("ann", "bob"))
    with pytest.raises(IllegalAction, match="cannot meet themselves"):
        state.apply(Meet("ann", "ann"))
    with pytest.raises(IllegalAction, match="not playing"):
        state.apply(Meet("ann", "zed"))


# ------------------------------------------------------------------------- the end


def run_down(state: WildState, player: str, keep: str) -> None:
    """Discard and draw until ``player`` holds only one ``keep`` and an empty Pack."""
    while state.pack_size(player) or state.hand_size(player) > 1:
        hand = state.hand(player)
        spare = [c for c in hand if c != keep] or hand[1:]
        if state.pack_size(player) and state.hand_size(player) < state.limit:
            state.apply(Draw(player))
        elif spare:
            state.apply(Discard(player, spare[0]))
    assert state.hand(player) == [keep]


@pytest.mark.parametrize(
    ("ann_card", "bob_card", "call", "outcome"),
    [(M, M, M, "mate"), (K, M, M, "eat"), (M, F, S, "avoid")],
)
def test_sundown_when_a_last_card_meets(
    ann_card: str, bob_card: str, call: str, outcome: str
) -> None:
    state = table(ann=pack(ann_card, W), bob=pack(bob_card, W))
    run_down(state, "ann", ann_card)
    state.apply(Call("ann", ann_card, call))
    state.apply(Call("bob", bob_card, call))
    meet(state, "bob", "ann")
    assert state.meetings[-1].outcome == outcome
    assert state.is_over
    assert state.ended_by == ["ann"]
    assert state.legal_actions("bob") == []
    assert state.hand("bob") == []
    assert state.offer("bob") is None
    assert state.pack_size("bob") == 9  # one card met; hand returned to the Pack
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(Draw("bob"))
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(Nightfall())


def test_both_players_end_it_in_seat_order() -> None:
    state = table(ann=pack(M, W), bob=pack(M, W))
    run_down(state, "bob", M)
    run_down(state, "ann", M)
    state.apply(Call("ann", M, M))
    state.apply(Call("bob", M, M))
    meet(state, "bob", "ann")
    assert state.ended_by == ["ann", "bob"]
    assert state.summary()["ended_by"] == ["ann", "bob"]


def test_no_sundown_after_discarding_or_revealing_the_last_card() -> None:
    state = table(ann=pack(M, W), bob=pack(M, W), carl=pack(M, W))
    run_down(state, "ann", M)
    state.apply(Discard("ann", M))
    run_down(state, "bob", M)
    state.apply(Call("bob", M, M))
    state.apply(RevealOwn("bob"))
    assert not state.is_over
    assert state.legal_actions("ann") == []
    assert state.legal_actions("bob") == []
    state.apply(Call("carl", M, M))  # carl plays on
    assert not state.is_over


def test_all_cards_gone_ends_without_sundown() -> None:
    state = table(ann=pack(), bob=pack())
    for p in ("ann", "bob"):
        run_down(state, p, M)
    state.apply(Discard("ann", M))
    assert not state.is_over
    state.apply(Call("bob", M, K))
    state.apply(RevealOwn("bob"))
    assert state.is_over
    assert state.ended_by == []
    assert state.winners() == ["ann", "bob"]


def test_nightfall_ends_as_at_sundown_with_nobody_ending_it() -> None:
    state = table(ann=pack(M, S), bob=pack(M, S))
    state.apply(Call("ann", M, M))
    state.apply(Nightfall())
    assert state.is_over
    assert state.ended_by == []
    assert state.pack_size("ann") == 10
    assert state.summary()["offers"] == {"ann": None, "bob": None}
    assert state.events()[-1] == {"do": "nightfall"}


def test_however_long_a_game_goes_on_its_record_s_bound_ends_it_as_at_nightfall() -> None:
    """A Call taken back and made again, for ever, and nobody meets: unbounded, a real-time
    game's record grew as long as the Nightfall clock let it (docs/rulings.md)."""
    state = table(ann=pack(M, S), bob=pack(M, S))
    for n in range(MAX_EVENTS + 10):
        if state.is_over:
            break
        state.apply(Withdraw("ann") if n % 2 else Call("ann", M, M))
    assert state.is_over and len(state.events()) == MAX_EVENTS
    assert state.ending() == "nightfall" and state.ended_by == []
    events = state.events()
    # scored as at Nightfall: as if Nightfall had fallen right after its last event
    nightfall = table(ann=pack(M, S), bob=pack(M, S))
    for event in events[:-1]:
        nightfall.apply(GAME.action_from_event(event))
    nightfall.apply(Nightfall())
    assert state.summary()["offers"] == {"ann": None, "bob": None}
    assert state.scores() == nightfall.scores() and state.winners() == nightfall.winners()
    assert state.pack_size("ann") == nightfall.pack_size("ann") == 10
    # the record alone reaches the same end
    again = replay(state.header(), list(enumerate(events, 2)))
    assert again.is_over and again.ending() == "nightfall"
    with pytest.raises(IllegalAction):
        state.apply(Call("ann", M, M))


def test_the_bound_is_said_where_the_options_are() -> None:
    info = GAME.info.as_json()
    assert f"{MAX_EVENTS:,} events" in info["endings"]["nightfall"]
    quiet = next(o for o in info["options"] if o["name"] == "nightfall_seconds")
    assert f"{MAX_EVENTS:,} events" in quiet["description"]


# ------------------------------------------------------------------- scores, winners


def test_mating_bonus() -> None:
    state = table({"mating_bonus": True}, ann=pack(M, K), bob=pack(M, W), carl=pack(S, W, S))
    state.apply(Call("ann", M, M))
    state.apply(Call("bob", M, M))
    meet(state, "ann", "bob")
    assert state.scores() == {"ann": 2, "bob": 2, "carl": 0}
    state.apply(Call("ann", K, M))  # skeevil hunts a megalotaur call... carl's snerlep is not one
    state.apply(Call("carl", S, M))
    meet(state, "carl", "ann")  # skeevil and snerlep are two apart: avoid
    state.apply(Call("bob", W, W))
    state.apply(Call("carl", W, W))
    meet(state, "bob", "carl")
    assert state.scores() == {"ann": 2, "bob": 4, "carl": 2}
    state.apply(Call("ann", M, S))  # ann's second megalotaur hunts carl's snerlep
    state.apply(Call("carl", S, S))
    meet(state, "ann", "carl")
    assert state.scores() == {"ann": 5, "bob": 4, "carl": 2}


def test_tie_broken_by_cards_from_other_packs_then_shared() -> None:
    state = table(ann=pack(M, M, S), bob=pack(M, M, S), carl=pack(K, S, W))
    state.apply(Call("ann", M, M))
    state.apply(Call("bob", M, M))
    meet(state, "ann", "bob")
    state.apply(Call("carl", K, M))  # carl hunts bob's second megalotaur
    state.apply(Call("bob", M, M))
    meet(state, "bob", "carl")
    assert state.scores() == {"ann": 1, "bob": 1, "carl": 2}
    state.apply(Call("ann", S, S))
    state.apply(Call("bob", S, S))
    meet(state, "ann", "bob")
    state.apply(Nightfall())
    # Everyone has 2 points; ann and bob hold two foreign cards each, carl one.
    assert state.scores() == {"ann": 2, "bob": 2, "carl": 2}
    assert state.winners() == ["ann", "bob"]


def test_nobody_scored_everyone_shares_the_win() -> None:
    state = table(ann=pack(), bob=pack(), carl=pack())
    assert state.winners() == []
    state.apply(Nightfall())
    assert state.winners() == ["ann", "bob", "carl"]


# --------------------------------------------------------------------------- views


def test_a_seat_sees_its_own_cards_and_only_the_calls_of_others() -> None:
    state = GAME.from_header(
        {
            "game": "wild",
            "players": ["ann", "bob"],
            "options": {"objectives": True},
            "packs": {"ann": pack(K, M), "bob": pack(F, W)},
            "objectives": {"ann": "eat_skeevil", "bob": "mate_twice"},
        }
    )
    state.apply(Call("ann", K, M))
    state.apply(Discard("bob", W))
    state.apply(Call("bob", F, M))
    state.apply(Meet("bob", "ann"))
    bob = state.view("bob")
    assert bob["hand"] == []
    assert bob["offer"] == {"card": F, "call": M}
    assert bob["calls"] == {"ann": M, "bob": M}
    assert bob["hand_sizes"] == {"ann": 1, "bob": 0}
    assert bob["packs"] == {"ann": 8, "bob": 8}
    assert bob["asks"] == [["bob", "ann"]]
    assert bob["watering_hole"] == {"face_up": [], "face_down": {"ann": 0, "bob": 1}}
    assert bob["objective"]["id"] == "mate_twice"
    assert K not in str(bob)  # neither ann's offer nor her Objective
    spectator = state.view(None)
    assert spectator["you"] is None
    assert "hand" not in spectator and "offer" not in spectator and "objective" not in spectator
    with pytest.raises(KeyError):
        state.view("zed")
