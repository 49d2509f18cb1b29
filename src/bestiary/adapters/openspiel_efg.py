"""A small game's whole tree as an EFG file that OpenSpiel loads natively (C++ speed).

OpenSpiel's C++ solvers walk a Python game through pybind11, one call per node and per
infoset string, so on the Python game ``CFRPlusSolver`` is no faster than the Python solver.
``efg_text`` enumerates a game's tree once (tens of thousands of histories at most) and writes
it in Gambit's extensive form (``.efg``), which ``pyspiel.load_efg_game`` turns into a C++ game
with the same histories, chance probabilities, infosets (one per information-state string)
and returns: every C++ algorithm then runs at C++ speed on it.

>>> import pyspiel
>>> game = tiny_efg_game()
>>> game.num_players(), game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
(2, True)
"""

from __future__ import annotations

from typing import Any

import pyspiel

from bestiary.adapters import openspiel_critters

MAX_NODES = 200_000


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def efg_text(game: Any, name: str = "bestiary") -> str:
    """The whole tree of a sequential ``game`` as EFG text (ValueError past ``MAX_NODES``).

    A player node's infoset is its player's information-state string; the actions of a node
    are its legal actions in id order, named by ``action_to_string`` (the same at every node
    of an infoset, as the game guarantees).
    """
    if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError("only a sequential game has a tree to write as EFG")
    n = game.num_players()
    players = " ".join(_quoted(f"player {p}") for p in range(n))
    lines = [f"EFG 2 R {_quoted(name)} {{ {players} }} {_quoted(str(game))}", ""]
    infosets: dict[tuple[int, str], int] = {}
    chance_sets = 0
    outcomes = 0
    stack = [game.new_initial_state()]
    while stack:
        if len(lines) > MAX_NODES:
            raise ValueError(f"the tree has more than {MAX_NODES:,} nodes: too big for EFG")
        state = stack.pop()
        if state.is_terminal():
            outcomes += 1
            payoffs = " ".join(repr(float(r)) for r in state.returns())
            lines.append(f't "" {outcomes} "" {{ {payoffs} }}')
            continue
        if state.is_chance_node():
            chance_sets += 1
            outcomes_probs = state.chance_outcomes()
            actions = [a for a, _ in outcomes_probs]
            labels = " ".join(
                f"{_quoted(state.action_to_string(a))} {p!r}" for a, p in outcomes_probs
            )
            lines.append(f'c "" {chance_sets} "" {{ {labels} }} 0')
        else:
            player = state.current_player()
            key = (player, state.information_state_string(player))
            number = infosets.get(key)
            if number is None:  # EFG numbers each player's infosets from 1
                number = infosets[key] = 1 + sum(k[0] == player for k in infosets)
            actions = state.legal_actions()
            labels = " ".join(_quoted(state.action_to_string(player, a)) for a in actions)
            lines.append(f'p "" {player + 1} {number} {_quoted(str(number))} {{ {labels} }} 0')
        # Depth first, children in action order: EFG lists a node's subtrees in that order.
        stack.extend(state.child(a) for a in reversed(actions))
    return "\n".join(lines) + "\n"


def tiny_efg_game() -> Any:
    """The tiny critters variant, the deal at once, as a C++ EFG game (docs/rl.md)."""
    game = pyspiel.load_game(
        openspiel_critters.SHORT_NAME, {"variant": "tiny", "deal_at_once": True}
    )
    return pyspiel.load_efg_game(efg_text(game, "bestiary critters, tiny variant"))
