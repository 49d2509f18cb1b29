"""``bestiary ladder``: every shipped bot against the references and the exploiters, as one table.

critters (2 players, seats alternating): each bot against ``random``, ``greedy`` and the
strongest bot, plus the trained best response to it (``scripts/train_exploiter.py`` appends its
result to docs/data/exploiters.jsonl, which the ladder reads); then the strongest bot against
OpenSpiel's own ISMCTS at the same time per move, and in 4-player games against three
``greedy``. wild (4 players): each bot in one seat against three copies of each opponent
(``random``, ``reader`` and the three exploiters); its fair share is 1/4.

Every cell is a win share with its 95% Wilson interval and sample size; the page says the
command that made it. Games run in this process (one core: ``nice`` it on a shared machine).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bestiary.core.agent import Agent, bot_entries, make_bot
from bestiary.sim.parallel import game_seed
from bestiary.sim.runner import GameSpec, play_game
from bestiary.sim.seating import seat_bots
from bestiary.sim.stats import wilson

CRITTERS_BOTS = ("random", "greedy", "ismcts")
WILD_BOTS = ("random", "honest", "hunter", "trickster", "reader", "cautious")
WILD_EXPLOITERS = ("sleeper", "avenger", "matcher")
EXPLOITERS_FILE = Path("docs/data/exploiters.jsonl")


@dataclass
class Cell:
    """One matchup: the bot's win share over ``games`` and its mean seconds per decision."""

    games: int
    wins: float
    seconds: float
    decisions: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def text(self) -> str:
        low, high = wilson(self.wins, self.games)
        return f"{self.rate:.2f} [{low:.2f}, {high:.2f}] n={self.games}"


class _Timed:
    """An agent that adds the time of each decision to a shared tally."""

    def __init__(self, agent: Agent, tally: list[float]) -> None:
        self.agent = agent
        self.player = agent.player
        self.tally = tally

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        start = time.perf_counter()
        try:
            return self.agent.act(view, legal)
        finally:
            self.tally[0] += time.perf_counter() - start
            self.tally[1] += 1


def matchup(
    game: str,
    bot: str,
    against: str,
    players: int,
    games: int,
    seed: int,
    times: dict[str, list[float]] | None = None,
) -> Cell:
    """``bot`` in one seat, ``against`` in every other, over ``games`` games (seats rotate).

    ``times`` (bot name -> [seconds, decisions]) gathers every seat's decision times.
    """
    wins = 0.0
    tally = times if times is not None else {}
    for name in (bot, against):
        tally.setdefault(name, [0.0, 0.0])
    before = list(tally[bot])
    for i in range(games):
        lineup = seat_bots([bot, *[against] * (players - 1)], players, i)
        mine = (-i) % players  # where the rotation put ``bot``

        def maker(g: str, name: str, player: str, s: int) -> Agent:
            return _Timed(make_bot(g, name, player, s), tally[name])

        result = play_game(GameSpec(i, game, lineup, game_seed(seed, i)), bot_maker=maker)
        wins += result.win_share(mine)
    spent, decisions = tally[bot][0] - before[0], tally[bot][1] - before[1]
    return Cell(games, wins, spent / max(1.0, decisions), int(decisions))


def _per_decision(times: dict[str, list[float]], name: str) -> float:
    spent, decisions = times.get(name, [0.0, 0.0])
    return spent / max(1.0, decisions)


def _exploiters(path: Path) -> dict[str, dict[str, Any]]:
    """The latest PPO best response to each critters bot (one JSON line per training run)."""
    found: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                found[entry["opponent"]] = entry
    return found


def _description(game: str, name: str) -> str:
    return next(e.description for e in bot_entries(game) if e.name == name)


def critters_section(
    games: int, search_games: int, seed: int, progress: Callable[[str], None]
) -> list[str]:
    strongest = max(CRITTERS_BOTS, key=_rank("critters"))
    cost = {"ismcts": search_games}
    lines = [
        "## critters",
        "",
        f"2 players, seats alternating. Strongest: `{strongest}`.",
        "",
        "| bot | what it does | vs random | vs greedy | vs strongest | vs PPO exploiter "
        "| time per move |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    ppo = _exploiters(EXPLOITERS_FILE)
    played: dict[tuple[str, str], Cell] = {}
    times: dict[str, list[float]] = {}
    rows: list[tuple[str, list[str]]] = []
    for bot in CRITTERS_BOTS:
        cells = []
        for against in ("random", "greedy", strongest):
            if against == bot:
                cells.append("(itself)")
                continue
            other = played.get((against, bot))
            if other is not None:  # the same games, seen from the other seat
                cells.append(Cell(other.games, other.games - other.wins, 0.0, 0).text())
                continue
            n = min(cost.get(bot, games), cost.get(against, games))
            progress(f"critters {bot} vs {against}, {n} games")
            cell = played[(bot, against)] = matchup("critters", bot, against, 2, n, seed, times)
            cells.append(cell.text())
        if bot in ppo:
            e = ppo[bot]
            low, high = e["interval"]
            cells.append(
                f"{e['bot_win_rate']:.2f} [{1 - high:.2f}, {1 - low:.2f}] n={e['games']} "
                f"({e['minutes']:g} min, {e['steps']} steps)"
            )
        else:
            cells.append("not trained")
        rows.append((bot, cells))
    for bot, cells in rows:
        seconds = _per_decision(times, bot)
        row = [f"`{bot}`", _description("critters", bot), *cells, f"{1000 * seconds:.2f} ms"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", f"`{strongest}` elsewhere:", ""]
    progress(f"critters {strongest} 4 players vs 3 greedy, {search_games} games")
    four = matchup("critters", strongest, "greedy", 4, search_games, seed)
    lines.append(f"- 4 players, against three `greedy` (fair share 0.25): {four.text()}")
    lines += _openspiel_line(strongest, search_games, seed, progress)
    for bot, e in sorted(ppo.items()):
        lines.append(f"- PPO best response to `{bot}`: `{e['command']}` ({e['date']})")
    return lines


def _openspiel_line(bot: str, games: int, seed: int, progress: Callable[[str], None]) -> list[str]:
    try:
        from bestiary.adapters.openspiel_duel import duel
    except ModuleNotFoundError:
        return ["- against OpenSpiel's ISMCTS: not measured (needs `bestiary[openspiel]`)"]
    probe = matchup("critters", bot, "greedy", 2, 4, seed + 1)
    progress(f"critters {bot} vs OpenSpiel ISMCTS, {games} games at {probe.seconds:.2f} s a move")

    def make(player: str, s: int) -> Agent:
        return make_bot("critters", bot, player, s)

    result = duel(make, probe.seconds, games, seed)
    low, high = wilson(result.wins, result.games)
    return [
        f"- 2 players, against OpenSpiel's ISMCTS (defaults, random rollouts, bestiary's "
        f"resampler) at the same time per move: {result.wins / result.games:.2f} "
        f"[{low:.2f}, {high:.2f}] n={result.games}; {1000 * result.ours_seconds:.0f} ms a move "
        f"for `{bot}`, {1000 * result.theirs_seconds:.0f} ms for OpenSpiel "
        f"({result.simulations} simulations a move at the end)"
    ]


def _by_rank(game: str) -> list[Any]:
    return sorted(bot_entries(game), key=lambda e: -e.rank)


def _rank(game: str) -> Callable[[str], int]:
    ranks = {e.name: e.rank for e in bot_entries(game)}
    return lambda name: ranks.get(name, 0)


def wild_section(games: int, seed: int, progress: Callable[[str], None]) -> list[str]:
    strongest = max(WILD_BOTS, key=_rank("wild"))
    opponents = ["random", strongest, *WILD_EXPLOITERS]
    header = " | ".join(f"vs 3 {o}" for o in opponents)
    lines = [
        "## wild",
        "",
        f"4 players: the bot in one seat, three copies of the opponent in the others (fair share "
        f"0.25). Strongest: `{strongest}`.",
        "",
        f"| bot | what it does | {header} | time per decision |",
        "| --- | --- | " + " | ".join("---" for _ in opponents) + " | --- |",
    ]
    times: dict[str, list[float]] = {}
    for bot in WILD_BOTS:
        cells = []
        for against in opponents:
            progress(f"wild {bot} vs 3 {against}, {games} games")
            cells.append(matchup("wild", bot, against, 4, games, seed, times).text())
        seconds = _per_decision(times, bot)
        row = [f"`{bot}`", _description("wild", bot), *cells, f"{1000 * seconds:.2f} ms"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "The exploiters:", ""]
    lines += [f"- `{e}`: {_description('wild', e)}" for e in WILD_EXPLOITERS]
    return lines


def ladder(
    games: int, search_games: int, wild_games: int, seed: int, progress: Callable[[str], None]
) -> str:
    """The docs/bots.md page: both tables, with the command and the date."""
    command = (
        f"bestiary ladder --games {games} --search-games {search_games} "
        f"--wild-games {wild_games} --seed {seed}"
    )
    start = time.perf_counter()
    body = critters_section(games, search_games, seed, progress)
    body += ["", *wild_section(wild_games, seed, progress)]
    minutes = (time.perf_counter() - start) / 60
    head = [
        "# Bots: how strong, and how exploitable",
        "",
        "Generated by `" + command + f"` on {time.strftime('%Y-%m-%d')} in {minutes:.0f} min "
        "(one process). Each cell: win share [95% Wilson interval] n=games. Times are the mean "
        "per decision of the row's bot, wall clock, on the machine that ran it.",
        "",
        "A table's default bot and stand-in is `default_bot(game, budget_seconds)`: the highest "
        "rank that decides within the budget. Ranks (higher is stronger): "
        + "; ".join(
            f"{game} " + ", ".join(f"`{e.name}` {e.rank}" for e in _by_rank(game))
            for game in ("critters", "wild")
        )
        + ". The exploiters are rank -1: yardsticks, never a default.",
        "",
    ]
    return "\n".join(head + body) + "\n"
