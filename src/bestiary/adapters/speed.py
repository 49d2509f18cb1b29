"""Steps per second through each adapter, and through the peers' own environments.

Every figure is random legal play on one core for a time budget, whole episodes, as a
researcher's loop would run it (observations and masks built at every step). Used by
``bestiary bench GAME --adapters --peers`` and docs/benchmarks.md.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class StepRate:
    """``steps`` in ``seconds`` through ``name``; ``step`` says what one step is."""

    name: str
    steps: int
    seconds: float
    step: str
    cpu_seconds: float = 0.0  # the process's CPU time meanwhile (vector rows: load-proof)

    def line(self) -> str:
        rate = self.steps / self.seconds
        micros = 1e6 * self.seconds / self.steps
        return f"  {self.name:<34} {rate:>10,.0f} steps/s {micros:>9.1f} µs/step  ({self.step})"


def _timed(name: str, step: str, seconds: float, episode: Callable[[], int]) -> StepRate:
    steps = 0
    start = time.perf_counter()
    while True:
        steps += episode()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return StepRate(name, steps, elapsed, step)


def _aec_episode(env: Any, rng: np.random.Generator, seed: Iterator[int]) -> int:
    env.reset(seed=next(seed))
    steps = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps


def _seeds(seed: int) -> Iterator[int]:
    while True:
        yield seed
        seed += 1


def _spiel_episode(game: Any, rng: random.Random) -> int:
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def bench_adapters(game: str, players: int, seconds: float = 2.0, seed: int = 1) -> list[StepRate]:
    """Steps/s through PettingZoo, Gymnasium and OpenSpiel for ``game`` (those installed)."""
    rates: list[StepRate] = []
    rng = np.random.default_rng(seed)
    seeds = _seeds(seed)
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        pass
    else:
        if game == "critters":
            from bestiary.adapters import critters_v0

            aec = critters_v0.raw_env(players=players)
            rates.append(
                _timed(
                    "PettingZoo critters_v0 (AEC)",
                    "a move",
                    seconds,
                    lambda: _aec_episode(aec, rng, seeds),
                )
            )
        else:
            from bestiary.adapters import wild_v0

            par = wild_v0.parallel_env(players=players)

            def ticks() -> int:
                observations, _ = par.reset(seed=next(seeds))
                steps = 0
                while par.agents:
                    actions = {
                        a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"])))
                        for a in par.agents
                    }
                    observations, *_ = par.step(actions)
                    steps += 1
                return steps

            rates.append(
                _timed("PettingZoo wild_v0 (parallel)", f"a tick of {players}", seconds, ticks)
            )
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        pass
    else:
        from bestiary.adapters import gym_envs

        env: Any = (
            gym_envs.CrittersEnv(players=players)
            if game == "critters"
            else gym_envs.WildEnv(players=players)
        )

        def episode() -> int:
            observation, _ = env.reset(seed=next(seeds))
            steps = 0
            while True:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                observation, _, terminated, truncated, _ = env.step(action)
                steps += 1
                if terminated or truncated:
                    return steps

        what = "a move, random bots reply" if game == "critters" else "a tick, random bots"
        name = f"Gymnasium bestiary/{game.capitalize()}-v0"
        rates.append(_timed(name, what, seconds, episode))
        rates += bench_vector(game, players, seconds, seed)
    try:
        import pyspiel
    except ImportError:
        pass
    else:
        if game == "critters":
            from bestiary.adapters import openspiel_critters as module
        else:
            from bestiary.adapters import openspiel_wild as module  # type: ignore[no-redef]
        spiel = pyspiel.load_game(module.SHORT_NAME, {"players": players})
        spiel_rng = random.Random(seed)
        rates.append(
            _timed(
                f"OpenSpiel {module.SHORT_NAME}",
                "a node, chance included",
                seconds,
                lambda: _spiel_episode(spiel, spiel_rng),
            )
        )
    return rates


VECTOR_GAMES = 16


def _vector_rate(name: str, step: str, venv: Any, seconds: float, seed: int) -> StepRate:
    """Learner steps/s through a vector env: every game steps at each call, NEXT_STEP
    autoreset, a random legal id per game drawn from the batch mask in one NumPy call."""
    rng = np.random.default_rng(seed)
    observations, _ = venv.reset(seed=seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        for _ in range(20):
            mask = observations["action_mask"]
            observations, *_ = venv.step((rng.random(mask.shape) * mask).argmax(1))
        steps += 20 * venv.num_envs
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return StepRate(name, steps, elapsed, step, time.process_time() - cpu)


def bench_vector(
    game: str, players: int, seconds: float = 2.0, seed: int = 1, games: int = VECTOR_GAMES
) -> list[StepRate]:
    """``SyncVectorEnv`` over the single Gym env, then ``bestiary.adapters.vector``'s env,
    ``games`` games each, same opponents (random), same loop; a step is one learner step."""
    import gymnasium

    from bestiary.adapters import gym_envs
    from bestiary.adapters.vector import make_vector

    single = gym_envs.CrittersEnv if game == "critters" else gym_envs.WildEnv
    sync = gymnasium.vector.SyncVectorEnv([lambda: single(players=players)] * games)
    what = "a learner move" if game == "critters" else "a learner tick"
    return [
        _vector_rate(f"SyncVectorEnv x{games} (single env)", what, sync, seconds, seed),
        _vector_rate(
            f"bestiary vector env x{games}",
            what,
            make_vector(game, games, players=players),
            seconds,
            seed,
        ),
    ]


def vector_speedup(rates: list[StepRate]) -> str | None:
    """The vector env's learner steps/s over ``SyncVectorEnv``'s, when both were timed."""
    sync = [r for r in rates if r.name.startswith("SyncVectorEnv")]
    ours = [r for r in rates if r.name.startswith("bestiary vector env")]
    if not sync or not ours:
        return None
    wall = (ours[0].steps / ours[0].seconds) / (sync[0].steps / sync[0].seconds)
    cpu = (ours[0].steps / ours[0].cpu_seconds) / (sync[0].steps / sync[0].cpu_seconds)
    return (
        f"  vector env / SyncVectorEnv: {wall:.2f}x learner steps/s "
        f"({cpu:.2f}x per CPU-second, steadier on a shared machine)"
    )


def bench_peers(seconds: float = 2.0, seed: int = 1) -> list[StepRate]:
    """The peers' own environments, same loop: RLCard UNO, PettingZoo leduc, OpenSpiel hearts."""
    rates: list[StepRate] = []
    rng = np.random.default_rng(seed)
    try:
        import rlcard
    except ImportError:
        pass
    else:
        uno = rlcard.make("uno", config={"seed": seed})

        def uno_episode() -> int:
            state, _ = uno.reset()
            steps = 0
            while not uno.is_over():
                state, _ = uno.step(int(rng.choice(list(state["legal_actions"]))))
                steps += 1
            return steps

        rates.append(_timed("RLCard uno (peer)", "a move", seconds, uno_episode))
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:
        pass
    else:
        leduc = leduc_holdem_v4.env()
        seeds = _seeds(seed)
        rates.append(
            _timed(
                "PettingZoo leduc_holdem_v4 (peer)",
                "a move",
                seconds,
                lambda: _aec_episode(leduc, rng, seeds),
            )
        )
    try:
        import pyspiel
    except ImportError:
        pass
    else:
        hearts = pyspiel.load_game("hearts")
        spiel_rng = random.Random(seed)
        rates.append(
            _timed(
                "OpenSpiel hearts, C++ (peer)",
                "a node, chance included",
                seconds,
                lambda: _spiel_episode(hearts, spiel_rng),
            )
        )
    return rates
