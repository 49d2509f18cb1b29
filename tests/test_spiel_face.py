"""A game's own OpenSpiel face is a declaration over ``spiel_face``: Duel with exact chance.

The generic face deals Duel by seeds; this face, written here as a new contributor would,
declares only what is Duel's own (its parameters, encoding, a deck dealt card by card through
``spiel_chance.Shoe``, an observer) and gets the rest from ``spiel_face``: OpenSpiel's own
conformance test passes, and the chance nodes are the deck's real odds.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from bestiary_duel import CARDS, GAME  # noqa: E402

from bestiary.adapters.encoding import encoding_for  # noqa: E402
from bestiary.adapters.spiel_cells import Tables  # noqa: E402
from bestiary.adapters.spiel_chance import Shoe  # noqa: E402
from bestiary.adapters.spiel_face import SpielGame, SpielState, SpielTable  # noqa: E402
from bestiary.adapters.spiel_pieces import PiecesObserver, game_type  # noqa: E402

SHORT_NAME = "python_test_duel_cards"
DEFAULTS: dict[str, Any] = {"players": 2, "rounds": 2}
DECK = Shoe(CARDS)


class DuelTable(SpielTable):
    defaults = DEFAULTS
    kind = game_type(
        SHORT_NAME,
        "Duel, its deck dealt card by card",
        pyspiel.GameType.Dynamics.SEQUENTIAL,
        pyspiel.GameType.Utility.GENERAL_SUM,
        pyspiel.GameType.RewardModel.TERMINAL,
        3,
        DEFAULTS,
        information_state_tensor=False,
    )
    positional = True  # the generic encoding: an id is a position in the legal list

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.options = {"rounds": int(self.params["rounds"])}
        probe = GAME.new_game(self.players, self.options, seed=0)
        self.encoding = encoding_for("duel", probe.view(self.players[0]))
        self.length = 100
        self.chance_size = len(CARDS)

    def observer(self, iig_obs_type: Any) -> DuelObserver:
        return DuelObserver(self, iig_obs_type)


table_for = Tables(DEFAULTS, DuelTable)


class DuelSpielState(SpielState):
    tables = table_for

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._dealt: list[str] = []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = Counter(CARDS)
        left.subtract(self._dealt)
        return DECK.outcomes(left)

    def _apply_chance(self, outcome: int) -> None:
        card = DECK.cards[outcome]
        self._dealt.append(card)
        n = self._game.n
        if len(self._dealt) <= n:  # the first n cards are the hidden ones, one to each seat
            self._log.append((len(self._dealt) - 1, f"dealt {card}", "dealt a card"))
        if len(self._dealt) == len(CARDS):
            header = {
                "game": "duel",
                "version": 1,
                "players": list(self._game.players),
                "options": self._game.options,
                "deck": self._dealt,
            }
            self.engine = GAME.from_header(header)

    def _chance_string(self, outcome: int) -> str:
        return f"deal {DECK.cards[outcome]}"

    def _move(self, player: int, action: int) -> None:
        self._log.append((-1, f"p{player} {self._action_to_string(player, action)}", None))
        super()._move(player, action)


class DuelSpielGame(SpielGame):
    tables = table_for
    state = DuelSpielState


class DuelObserver(PiecesObserver):
    game: DuelTable

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("player", (self.game.n,)), ("view", (self.game.encoding.obs_size,))]

    def set_from(self, state: DuelSpielState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["player"][player] = 1
        if state.engine is not None:
            view = state.engine.view(self.game.players[player])
            self.dict["view"][:] = self.game.encoding.observe(view)

    def string_from(self, state: DuelSpielState, player: int) -> str:
        if self.perfect_recall:
            return "\n".join([f"p{player}", *state.seat_log(player)])
        if state.engine is None:
            return f"p{player} dealing {len(state.history())}"
        view = state.engine.view(self.game.players[player])
        return f"p{player} {json.dumps(view, sort_keys=True)}"


pyspiel.register_game(DuelTable.kind, DuelSpielGame)


@pytest.mark.parametrize("serialize", [False, True])
def test_a_declared_face_passes_openspiels_conformance_test(serialize: bool) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    pyspiel.random_sim_test(game, num_sims=5, serialize=serialize, verbose=False)


def test_its_chance_nodes_are_the_decks_odds_and_its_moves_the_engines() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(i, 1 / len(CARDS)) for i in range(len(CARDS))]
    order = list(reversed(range(len(CARDS))))
    for i in order:  # every card once: each outcome dealt leaves the chance node's list
        assert i in [a for a, _ in state.chance_outcomes()]
        state.apply_action(i)
    engine = state.engine
    assert engine is not None and engine.header()["deck"] == [CARDS[i] for i in order]
    assert state.current_player() == 0
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        json.dumps({"by": "player_0", "do": d}, sort_keys=True) for d in ("stand", "swap")
    ]
    # A seat's information state holds its own card, and only that the other was dealt one.
    assert state.information_state_string(1).splitlines()[1:] == [
        "dealt a card",
        f"dealt {CARDS[order[1]]}",
    ]


def test_the_face_gives_returns_and_refuses_what_it_was_not_given() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.engine is not None
    winners = state.engine.winners()
    assert state.returns() == [1.0 if p in winners else -1.0 for p in ("player_0", "player_1")]
    with pytest.raises(NotImplementedError, match="cannot resample"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(ValueError, match="observation parameters"):
        game.make_py_observer(None, {"x": 1})
