"""``bestiary ladder``: every shipped bot against the references and the exploiters, as one table.

critters (2 players, seats alternating): each bot against ``random``, ``greedy`` and the
strongest bot, plus the trained best response to it (``scripts/train_exploiter.py`` appends its
result to docs/data/exploiters.jsonl, which the ladder reads); then the strongest bot against
OpenSpiel's own ISMCTS at the same time per move, and in 4-player games against three
``greedy``. wild (4 players): each bot in one seat against three copies of each opponent
(``random``, ``reader`` and the three exploiters); its fair share is 1/4.

Every cell is a win share with its 95% Wilson interval and sample size; the page says the
command that made it. Games run in ``--jobs`` processes (``nice`` the run on a shared machine);
game i of a matchup is seeded from (seed, i) alone, so the page is the same for any ``--jobs``.
"""

from __future__ import annotations

import functools
import json
import math
import multiprocessing
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bestiary.bots.critters_search import ISMCTS_ITERATIONS
from bestiary.core.agent import Agent, bot_entries, make_bot
from bestiary.sim.parallel import game_seed
from bestiary.sim.runner import GameSpec, play_game
from bestiary.sim.seating import seat_bots
from bestiary.sim.stats import WinShare, cannot_tell, detectable_share, wilson

CRITTERS_BOTS = ("random", "greedy", "ismcts")
WILD_BOTS = ("random", "honest", "hunter", "trickster", "reader", "cautious")
WILD_EXPLOITERS = ("sleeper", "avenger", "matcher")
EXPLOITERS_FILE = Path("docs/data/exploiters.jsonl")


@dataclass
class Cell(WinShare):
    """One matchup: the bot's win share over ``games`` and its mean seconds per decision."""

    games: int
    wins: float
    seconds: float
    decisions: int
    nightfalls: int = 0  # games that ended in a stall (wild's Nightfall), not by play

    def text(self) -> str:
        low, high = self.interval
        stalled = self.nightfalls / self.games if self.games else 0.0
        warn = f" ⚠ {stalled:.0%} Nightfall" if stalled > STALL_WARNING else ""
        return f"{self.rate:.2f} [{low:.2f}, {high:.2f}] n={self.games}{warn}"


# A cell whose games ended at Nightfall more often than this says who was ahead when the table
# stopped, not who played better (the same bar as ``bestiary sim``'s warning).
STALL_WARNING = 0.10


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


@dataclass(frozen=True)
class _Games:
    """Games ``start`` to ``stop`` of a matchup (picklable: one worker's share)."""

    game: str
    bot: str
    against: str
    players: int
    seed: int
    start: int
    stop: int


def _play(part: _Games) -> tuple[float, int, dict[str, list[float]]]:
    """The bot's wins, the Nightfalls and every bot's [seconds, decisions] over ``part``."""
    tally: dict[str, list[float]] = {part.bot: [0.0, 0.0], part.against: [0.0, 0.0]}
    wins = 0.0
    stalls = 0

    def maker(g: str, name: str, player: str, s: int) -> Agent:
        return _Timed(make_bot(g, name, player, s), tally[name])

    for i in range(part.start, part.stop):
        lineup = seat_bots([part.bot, *[part.against] * (part.players - 1)], part.players, i)
        mine = (-i) % part.players  # where the rotation put ``bot``
        spec = GameSpec(i, part.game, lineup, game_seed(part.seed, i))
        result = play_game(spec, bot_maker=maker)
        wins += result.win_share(mine)
        stalls += result.ended == "nightfall"
    return wins, stalls, tally


def pieces(games: int, jobs: int) -> list[tuple[int, int]]:
    """``range(games)`` in contiguous pieces: a few per job, so a slow piece does not idle one."""
    size = max(1, math.ceil(games / (4 * jobs))) if jobs > 1 else games
    return [(a, min(games, a + size)) for a in range(0, games, size)]


def in_parallel(work: Callable[[Any], Any], parts: Sequence[Any], jobs: int) -> list[Any]:
    """``work`` over ``parts`` in ``jobs`` processes (results in order); in this one if 1."""
    if jobs <= 1 or len(parts) <= 1:
        return [work(p) for p in parts]
    # spawn: the same behaviour on every platform, and no fork of a process holding threads.
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(parts))) as pool:
        return pool.map(work, parts, chunksize=1)


def matchup(
    game: str,
    bot: str,
    against: str,
    players: int,
    games: int,
    seed: int,
    times: dict[str, list[float]] | None = None,
    jobs: int = 1,
) -> Cell:
    """``bot`` in one seat, ``against`` in every other, over ``games`` games (seats rotate).

    ``times`` (bot name -> [seconds, decisions]) gathers every seat's decision times. Game
    ``i`` is seeded from (``seed``, ``i``) alone: the cell is the same for any ``jobs``.
    """
    tally = times if times is not None else {}
    parts = [_Games(game, bot, against, players, seed, a, b) for a, b in pieces(games, jobs)]
    wins = 0.0
    stalls = 0
    spent = decisions = 0.0
    for won, stalled, part_tally in in_parallel(_play, parts, jobs):
        wins += won
        stalls += stalled
        for name, (sec, n) in part_tally.items():
            entry = tally.setdefault(name, [0.0, 0.0])
            entry[0] += sec
            entry[1] += n
        spent += part_tally[bot][0]
        decisions += part_tally[bot][1]
    return Cell(games, wins, spent / max(1.0, decisions), int(decisions), stalls)


def separation(strongest: str, other: str, cell: Cell, fair: float) -> str:
    """Whether the measured games separate the strongest bot (by rank) from the next one:
    ``cell`` is ``other``'s share against ``strongest``, ``fair`` its even share."""
    low, high = cell.interval
    if low <= fair <= high:
        smallest = detectable_share(fair, cell.games)
        unclear = cannot_tell(cell.games, [smallest], "from it", f"--known --rate {fair}")
        return (
            f"Strongest by rank: `{strongest}`, but these games do not separate it from "
            f"`{other}` ({other}'s share against it {cell.text()} includes the even share "
            f"{fair:.2f}; {unclear})."
        )
    verdict = "ahead of" if cell.rate < fair else "BEHIND"
    return (
        f"Strongest by rank: `{strongest}`, measured {verdict} `{other}` ({other}'s share "
        f"against it {cell.text()}, even share {fair:.2f})."
    )


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
    games: int,
    search_games: int,
    seed: int,
    progress: Callable[[str], None],
    jobs: int = 1,
    elsewhere_games: int | None = None,
) -> list[str]:
    """The critters table, then the strongest bot in 4-player games and against OpenSpiel
    (``elsewhere_games`` each, by default ``search_games``)."""
    elsewhere = search_games if elsewhere_games is None else elsewhere_games
    strongest = max(CRITTERS_BOTS, key=_rank("critters"))
    cost = {"ismcts": search_games}
    lines = [
        "## critters",
        "",
        "",  # the strongest bot, and whether the games separate it (filled in below)
        "",
        "| bot | what it does | vs random | vs greedy | vs strongest | vs PPO exploiter "
        "| time per move |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
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
            cell = matchup("critters", bot, against, 2, n, seed, times, jobs)
            played[(bot, against)] = cell
            progress(f"  {cell.text()}, {1000 * cell.seconds:.1f} ms a decision")
            cells.append(cell.text())
        rows.append((bot, cells))
    runner_up = max((b for b in CRITTERS_BOTS if b != strongest), key=_rank("critters"))
    if (runner_up, strongest) in played:
        cell = played[(runner_up, strongest)]
    else:
        mine = played[(strongest, runner_up)]
        cell = Cell(mine.games, mine.games - mine.wins, 0.0, 0)
    lines[2] = "2 players, seats alternating. " + separation(strongest, runner_up, cell, 0.5)
    # Read after the games (they take long): a training run that ended meanwhile is included.
    ppo = _exploiters(EXPLOITERS_FILE)
    for bot, cells in rows:
        cells.append(_ppo_cell(ppo.get(bot)))
        seconds = _per_decision(times, bot)
        row = [f"`{bot}`", _description("critters", bot), *cells, f"{1000 * seconds:.2f} ms"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", f"`{strongest}` elsewhere:", ""]
    progress(f"critters {strongest} 4 players vs 3 greedy, {elsewhere} games")
    four = matchup("critters", strongest, "greedy", 4, elsewhere, seed, jobs=jobs)
    progress(f"  {four.text()}, {1000 * four.seconds:.1f} ms a decision")
    lines.append(
        f"- 4 players, against three `greedy` (fair share 0.25): {four.text()}; "
        f"{1000 * four.seconds:.0f} ms a decision"
    )
    lines += _openspiel_line(strongest, elsewhere, seed, progress, jobs)
    lines += _ceiling_lines(elsewhere, seed, progress, jobs)
    for bot, e in sorted(ppo.items()):
        against = e.get("trained_against", bot)
        lines.append(
            f"- PPO best response to `{bot}` (trained against {against}, evaluated against "
            f"`{bot}` itself): `{e['command']}` ({e['date']})"
        )
    return lines


def _ppo_cell(e: Mapping[str, Any] | None) -> str:
    if e is None:
        return "not trained"
    low, high = e["interval"]
    return (
        f"{e['bot_win_rate']:.2f} [{1 - high:.2f}, {1 - low:.2f}] n={e['games']} "
        f"({e['minutes']:g} min, {e['steps']} steps)"
    )


def _duel(part: tuple[str, float, int, int, int]) -> Any:
    """One worker's share of the duel with OpenSpiel: games ``start`` to ``stop``."""
    from bestiary.adapters.openspiel_duel import duel

    bot, seconds, seed, start, stop = part
    return duel(functools.partial(make_bot, "critters", bot), seconds, stop - start, seed, start)


def _mean_time(timed: list[tuple[float, int]]) -> float:
    """The mean of per-piece means (seconds, moves), weighted by the moves."""
    return sum(sec * n for sec, n in timed) / max(1, sum(n for _, n in timed))


def _openspiel_line(
    bot: str, games: int, seed: int, progress: Callable[[str], None], jobs: int = 1
) -> list[str]:
    try:
        import bestiary.adapters.openspiel_duel  # noqa: F401
    except ModuleNotFoundError:
        return ["- against OpenSpiel's ISMCTS: not measured (needs `bestiary[openspiel]`)"]
    probe = matchup("critters", bot, "greedy", 2, 4, seed + 1)
    progress(f"critters {bot} vs OpenSpiel ISMCTS, {games} games at {probe.seconds:.2f} s a move")
    parts = [(bot, probe.seconds, seed, a, b) for a, b in pieces(games, jobs)]
    duels = in_parallel(_duel, parts, jobs)
    wins = sum(d.wins for d in duels)
    ours = _mean_time([(d.ours_seconds, d.ours_moves) for d in duels])
    theirs = _mean_time([(d.theirs_seconds, d.theirs_moves) for d in duels])
    low, high = wilson(wins, games)
    simulations = sorted(d.simulations for d in duels)
    progress(f"  {wins / games:.2f} [{low:.2f}, {high:.2f}] n={games}, {1000 * ours:.0f} ms")
    return [
        f"- 2 players, against OpenSpiel's ISMCTS (defaults, random rollouts, bestiary's "
        f"resampler) at the same time per move: {wins / games:.2f} "
        f"[{low:.2f}, {high:.2f}] n={games}; {1000 * ours:.0f} ms a move "
        f"for `{bot}`, {1000 * theirs:.0f} ms for OpenSpiel ({simulations[0]} to "
        f"{simulations[-1]} simulations a move at the end of each of {len(duels)} pieces, "
        "each levelled on its own)"
    ]


def _ceiling_lines(
    games: int, seed: int, progress: Callable[[str], None], jobs: int = 1
) -> list[str]:
    """The cheating seers of ``bestiary.sim.ceiling`` against ``greedy``: what the search could
    reach if the hidden cards were no obstacle."""
    from bestiary.sim.ceiling import Games, play

    lines = []
    for sees, what in (
        ("hands", "sees every hand (only the Draw Pile's order is unknown to it)"),
        ("future", "also sees the Draw Pile's order"),
    ):
        progress(f"critters: the search that sees {sees} vs greedy, {games} games")
        parts = [Games(sees, 2, seed, a, b) for a, b in pieces(games, jobs)]
        share = Cell(games, sum(in_parallel(play, parts, jobs)), 0.0, 0)
        progress(f"  {share.text()}")
        lines.append(
            f"- the same search (its {ISMCTS_ITERATIONS} playouts a move) in a seat that cheats: "
            f"{what}, against `greedy`, the same deals: {share.text()}"
        )
    return lines


def _by_rank(game: str) -> list[Any]:
    return sorted(bot_entries(game), key=lambda e: -e.rank)


def _rank(game: str) -> Callable[[str], int]:
    ranks = {e.name: e.rank for e in bot_entries(game)}
    return lambda name: ranks.get(name, 0)


def wild_section(
    games: int, seed: int, progress: Callable[[str], None], jobs: int = 1
) -> list[str]:
    strongest = max(WILD_BOTS, key=_rank("wild"))
    opponents = ["random", strongest, *WILD_EXPLOITERS]
    header = " | ".join(f"vs 3 {o}" for o in opponents)
    lines = [
        "## wild",
        "",
        "",  # the set-up and the strongest bot (filled in below)
        "",
        f"| bot | what it does | {header} | time per decision |",
        "| --- | --- | " + " | ".join("---" for _ in opponents) + " | --- |",
    ]
    times: dict[str, list[float]] = {}
    worst: list[tuple[float, str, str]] = []  # the strongest bot against each exploiter
    runner_up = max((b for b in WILD_BOTS if b != strongest), key=_rank("wild"))
    for bot in WILD_BOTS:
        cells = []
        for against in opponents:
            progress(f"wild {bot} vs 3 {against}, {games} games")
            cell = matchup("wild", bot, against, 4, games, seed, times, jobs)
            cells.append(cell.text())
            if bot == runner_up and against == strongest:
                lines[2] = (
                    "4 players: the bot in one seat, three copies of the opponent in the others "
                    "(fair share 0.25). " + separation(strongest, bot, cell, 0.25)
                )
            if bot == strongest and against in WILD_EXPLOITERS:
                worst.append((cell.rate, against, cell.text()))
        seconds = _per_decision(times, bot)
        row = [f"`{bot}`", _description("wild", bot), *cells, f"{1000 * seconds:.2f} ms"]
        lines.append("| " + " | ".join(row) + " |")
    rate, exploiter, text = min(worst)
    holds = "holds" if rate >= 0.25 else "does NOT hold"
    lines += [
        "",
        f"The rule that the strongest bot never falls below its fair share (0.25) against an "
        f"exploiter {holds}: `{strongest}`'s lowest share is {text} against three "
        f"`{exploiter}`.",
        "",
        "The exploiters:",
        "",
    ]
    lines += [f"- `{e}`: {_description('wild', e)}" for e in WILD_EXPLOITERS]
    return lines


def ladder(
    games: int,
    search_games: int,
    wild_games: int,
    seed: int,
    progress: Callable[[str], None],
    jobs: int = 1,
    elsewhere_games: int | None = None,
) -> str:
    """The docs/bots.md page: both tables, with the command and the date."""
    extra = "" if elsewhere_games is None else f" --elsewhere-games {elsewhere_games}"
    command = (
        f"bestiary ladder --games {games} --search-games {search_games}{extra} "
        f"--wild-games {wild_games} --seed {seed} --jobs {jobs}"
    )
    start = time.perf_counter()
    body = critters_section(games, search_games, seed, progress, jobs, elsewhere_games)
    body += ["", *wild_section(wild_games, seed, progress, jobs)]
    minutes = (time.perf_counter() - start) / 60
    head = [
        "# Bots: how strong, and how exploitable",
        "",
        "Generated by `" + command + f"` on {time.strftime('%Y-%m-%d')} in {minutes:.0f} min "
        f"({jobs} process{'es' if jobs > 1 else ''}). Each cell: win share [95% Wilson "
        "interval] n=games. Times are the mean per decision of the row's bot (forced moves "
        "included), wall clock, on the machine that ran it, while other work shared it.",
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
