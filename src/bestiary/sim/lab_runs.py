"""The lab page's runs (``bestiary lab``, docs/lab.md): what the page asks, played by the same
seeded runner as ``bestiary sim``, with its progress, report and downloads.

A run is a ``bestiary sim`` command: the page's choices become a ``SimRequest``, checked by the
same ``plan_experiment`` before a game is played, and every figure, sentence and download
carries the command line that makes it again, number for number.
"""

from __future__ import annotations

import io
import shlex
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bestiary.core.errors import BadOption
from bestiary.core.game import game_names, get_game
from bestiary.sim.arms import Arm, SweepKey, describe_value
from bestiary.sim.commands import SimRequest, plan_experiment
from bestiary.sim.experiment import Experiment, run_experiment
from bestiary.sim.parallel import BACKENDS, run_games
from bestiary.sim.runner import BotFault, GameResult, GameSpec
from bestiary.sim.table import FORMATS, game_rows, write_table

# The page's list fields: one ``key=value`` (or ``KEY=V1,V2``) a line.
LISTS = ("options", "compare", "sweep", "grid")
MOST_GAMES = 1_000_000  # a run the page will start: beyond it, the command line


@dataclass(frozen=True)
class LabRequest:
    """What the page asks for: a ``bestiary sim`` command's choices."""

    game: str
    players: int
    bots: str
    games: int = 200
    seed: int = 1
    jobs: int = 1
    backend: str = "local"
    options: tuple[str, ...] = ()
    compare: tuple[str, ...] = ()
    sweep: tuple[str, ...] = ()
    grid: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LabRequest:
        """The page's JSON, checked for shape (the rules check the rest), in one sentence."""
        game = data.get("game")
        if game not in game_names():
            raise ValueError(f"choose a game: {', '.join(game_names())}")
        info = get_game(str(game)).info
        numbers: dict[str, int] = {}
        defaults = {"players": max(info.min_players, min(info.max_players, 4)), "games": 200}
        for name in ("players", "games", "seed", "jobs"):
            raw = data.get(name, defaults.get(name, 1))
            if isinstance(raw, str) and raw.strip():
                raw = raw.strip()
            try:
                numbers[name] = int(raw)
            except (TypeError, ValueError):
                raise ValueError(f"{name} should be a whole number, not {raw!r}") from None
        if numbers["jobs"] < 1:
            raise ValueError("jobs must be at least 1")
        if numbers["games"] > MOST_GAMES:
            raise ValueError(f"the page plays at most {MOST_GAMES:,} games a run")
        backend = str(data.get("backend") or "local")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be local or ray, not {backend!r}")
        lists: dict[str, tuple[str, ...]] = {}
        for name in LISTS:
            raw = data.get(name) or []
            if isinstance(raw, str):
                raw = raw.splitlines()
            if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
                raise ValueError(f"{name} should be lines of key=value")
            lists[name] = tuple(line.strip() for line in raw if line.strip())
        bots = str(data.get("bots") or "").strip() or info.default_bot
        return cls(
            str(game),
            numbers["players"],
            bots,
            numbers["games"],
            numbers["seed"],
            numbers["jobs"],
            backend,
            lists["options"],
            lists["compare"],
            lists["sweep"],
            lists["grid"],
        )

    def sim_request(self) -> SimRequest:
        return SimRequest(
            game=self.game,
            players=self.players,
            bots=self.bots,
            games=self.games,
            seed=self.seed,
            jobs=self.jobs,
            backend=self.backend,
            option=self.options,
            compare=self.compare,
            sweep=self.sweep,
            grid=self.grid,
            command=self.command(),
        )

    def command(self, *extra: str) -> str:
        """The ``bestiary sim`` command line that plays this run (and writes ``extra``)."""
        words = ["bestiary", "sim", self.game, "--players", str(self.players)]
        words += ["--bots", self.bots, "--games", str(self.games), "--seed", str(self.seed)]
        words += ["--jobs", str(self.jobs)]
        if self.backend != "local":
            words += ["--backend", self.backend]
        for flag, values in (
            ("--option", self.options),
            ("--compare", self.compare),
            ("--sweep", self.sweep),
            ("--grid", self.grid),
        ):
            for value in values:
                words += [flag, value]
        return shlex.join([*words, *extra])


def planned_games(
    base: Arm,
    other: Arm | None,
    sweeps: Sequence[SweepKey],
    grid: tuple[SweepKey, SweepKey] | None,
    games: int,
    seeds: int,
    played: Mapping[str, Any] | None = None,
) -> int:
    """The games a run will play: every arm but a sweep value (or grid cell) that is the
    baseline's own, which is played once. ``played``: the options of a baseline game as the
    rules played them (an option declared "none", critters' ``hand_limit``, is then its real
    value, as the sweep sees it); before the baseline is played, its declared value."""

    def start(key: str) -> str:
        if played is not None and key in played:
            return describe_value(played[key])
        return describe_value(base.value_of(key))

    arms = 1 + (other is not None)
    for sweep in sweeps:
        arms += sum(1 for value in sweep.values if describe_value(value) != start(sweep.key))
    if grid is not None:
        first, second = grid
        start2 = (start(first.key), start(second.key))
        cells = [
            (describe_value(a), describe_value(b)) for a in first.values for b in second.values
        ]
        arms += sum(1 for cell in cells if cell != start2)
    return arms * games * seeds


@dataclass
class LabRun:
    """One run of the page: its request, progress, and (when done) its report."""

    number: int
    request: LabRequest
    total: int
    done: int = 0
    state: str = "running"  # running, done, failed
    error: str = ""
    experiment: Experiment | None = None
    text: str = ""
    figures: list[dict[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    plan: Any = field(default=None, repr=False)  # plan_experiment's answer, for the recount

    def status(self) -> dict[str, Any]:
        with self.lock:
            return {
                "run": self.number,
                "state": self.state,
                "done": self.done,
                "total": self.total,
                "error": self.error,
                "command": self.request.command(),
            }

    def advance(self, games: int) -> None:
        with self.lock:
            self.done = min(self.total, self.done + games)

    def play(self, specs: Sequence[GameSpec], label: str) -> list[GameResult]:
        request = self.request
        try:
            results = list(run_games(specs, request.jobs, request.backend, None, self.advance))
        except BotFault as err:
            raise ValueError(f"a bot broke the rules: {err}") from None
        if self.plan is not None and results:  # the baseline, played first: count again
            base, other, sweeps, seeds, grid = self.plan
            total = planned_games(
                base, other, sweeps, grid, request.games, len(seeds), results[0].options
            )
            with self.lock:
                self.total, self.plan = total, None
        return results

    def report(self) -> dict[str, Any]:
        """Every figure and sentence with its command, and the downloads with theirs."""
        request = self.request
        return {
            "command": request.command(),
            "text": self.text,
            "figures": self.figures,
            "downloads": [
                {
                    "format": suffix[1:],
                    "href": f"/api/runs/{self.number}/games{suffix}",
                    "command": request.command("--table", f"games{suffix}"),
                }
                for suffix in FORMATS
            ],
        }

    def table(self, suffix: str) -> bytes:
        """Every game of every arm, one row each (``bestiary sim --table``'s file)."""
        assert self.experiment is not None
        rows = game_rows((p.arm.label, p.results) for p in self.experiment.arms())
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"games{suffix}"
            write_table(path, rows)
            return path.read_bytes()


def plan_run(number: int, request: LabRequest) -> tuple[LabRun, Any]:
    """Check everything before a game is played (ValueError in one sentence); the run and
    what ``play_run`` needs."""
    try:
        plan = plan_experiment(request.sim_request())
    except BadOption as err:
        raise ValueError(str(err)) from None
    base, other, sweeps, seeds, grid = plan
    total = planned_games(base, other, sweeps, grid, request.games, len(seeds))
    return LabRun(number, request, total, plan=plan), plan


def play_run(run: LabRun, plan: Any) -> None:
    """Play the run and write its report (in the page's worker thread)."""
    base, other, sweeps, seeds, grid = plan
    try:
        experiment = run_experiment(
            base, run.request.games, seeds, run.play, other, sweeps, False, grid
        )
        text, figures = _report(run.request, experiment)
    except (ValueError, BadOption) as err:
        with run.lock:
            run.state, run.error = "failed", str(err)
        return
    except Exception as err:  # the page must say something, never hang on "running"
        with run.lock:
            run.state, run.error = "failed", f"the run stopped: {type(err).__name__}: {err}"
        return
    with run.lock:
        run.experiment, run.text, run.figures = experiment, text, figures
        run.done, run.state = run.total, "done"


def _report(request: LabRequest, experiment: Experiment) -> tuple[str, list[dict[str, str]]]:
    """The terminal's sentences (as ``bestiary sim`` prints them) and every report figure."""
    from rich.console import Console

    from bestiary.sim.printing import print_experiment
    from bestiary.sim.report import figure_name, png, report_figures

    console = Console(file=io.StringIO(), width=110, record=True, color_system=None)
    print_experiment(console, experiment)
    figures = []
    for heading, content in report_figures(experiment):
        name = figure_name(heading)
        entry = {"heading": heading, "command": request.command("--figures", "figures")}
        if isinstance(content, str):
            entry["sentence"] = content
            entry["command"] = request.command()
        else:
            entry["png"] = png(content)
            entry["file"] = f"figures/{name}"
        figures.append(entry)
    return console.export_text(), figures
