"""The compiled core (mypyc) and the pure one are the same program; the build says which runs.

``make`` builds the compiled core into build/core (never into src/). The differential test plays
the same seeded games through the pure source tree and through that build, each in a process of
its own, and compares the records event by event. Under ``BESTIARY_EXPECT_CORE=compiled``
(``make test``) a build that fell back to pure, or lost a compiled module, fails here.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bestiary.build import PACKAGE, CoreBuild, core_build, source_digest, stale_against
from bestiary.core.game import get_game

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src"
CORE = REPO / "build" / "core"  # the Makefile's CORE
EXPECTED = os.environ.get("BESTIARY_EXPECT_CORE")

# A few hundred seeded games: every wild bot, critters' random and greedy at 2-5 seats, and
# the search at a fixed iteration budget (a time budget would differ with the core's speed).
WILD_BOTS = ["avenger", "cautious", "honest", "hunter", "matcher", "random", "reader", "sleeper"]
WILD_BOTS += ["trickster"]
SPECS: list[dict[str, Any]] = [
    *(
        {"game": "wild", "bots": [WILD_BOTS[(i + k) % 9] for k in range(3 + i % 3)], "seed": i}
        for i in range(150)
    ),
    *(
        {"game": "critters", "bots": [("random", "greedy")[(i + k) % 2] for k in range(2 + i % 4)]}
        | {"seed": 1000 + i}
        for i in range(150)
    ),
    *({"game": "critters", "bots": ["ismcts", "greedy"], "seed": 5000 + i} for i in range(4)),
]

PLAY = """
import json, random, sys
from bestiary.build import core_build
from bestiary.bots.critters_search import IsmctsBot
from bestiary.search.ismcts import Budget
from bestiary.sim.bots import make_agent
from bestiary.sim.runner import GameSpec, play_game

def bot(game, name, player, seed):
    if name == "ismcts":
        return IsmctsBot(player, random.Random(seed), budget=Budget(iterations=30, millis=None))
    return make_agent(game, name, player, seed)

records = []
for i, spec in enumerate(json.loads(sys.stdin.read())):
    game = GameSpec(i, spec["game"], tuple(spec["bots"]), spec["seed"], keep_record=True)
    records.append(list(play_game(game, bot_maker=bot).record))
build = core_build()
print(json.dumps({"core": build.kind, "compiled": build.is_compiled, "records": records}))
"""


def _play(pythonpath: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run(
        [sys.executable, "-c", PLAY],
        input=json.dumps(SPECS),
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    played: dict[str, Any] = json.loads(done.stdout)
    return played


def _compiled_core() -> Path:
    """build/core, compiled and made from today's src/; a skip (or, under make test, a failure)
    when there is none."""
    why = None
    manifest = CORE / "bestiary" / "build.json"
    if not manifest.exists():
        why = "no compiled core in build/core (make core)"
    else:
        built = json.loads(manifest.read_text())
        if built["core"] != "compiled":
            why = f"build/core is a pure build ({built['why']})"
        elif built["source_digest"] != source_digest(SRC / "bestiary"):
            why = "build/core was built from other sources than src/ (make core)"
    if why is not None:
        if EXPECTED == "compiled":
            pytest.fail(why)
        pytest.skip(why)
    return CORE


def test_compiled_and_pure_cores_play_the_same_records() -> None:
    compiled = _play(_compiled_core())
    pure = _play(SRC)
    assert compiled["compiled"], "the build/core process did not run the compiled core"
    assert pure["core"] == "source" and not pure["compiled"]
    assert len(compiled["records"]) == len(pure["records"]) == len(SPECS)
    for spec, mine, theirs in zip(SPECS, compiled["records"], pure["records"], strict=True):
        for n, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            assert a == b, f"{spec}: line {n} of the record differs:\ncompiled {a}\npure     {b}"
        assert len(mine) == len(theirs), f"{spec}: {len(mine)} lines compiled, {len(theirs)} pure"
    events = sum(len(r) for r in pure["records"])
    assert events > 20_000  # a few hundred whole games, not a handful of moves


def test_this_process_runs_the_core_the_build_says() -> None:
    build = core_build()
    if EXPECTED is not None:
        assert build.kind == EXPECTED, f"expected a {EXPECTED} core, running: {build.line()}"
    if build.kind == "compiled":
        assert build.compiled, "a compiled build that lists no compiled module"
        assert not build.running_pure, build.line()
        for name in build.compiled:  # imported, not only found: each one's file is the .so
            module = __import__(name, fromlist=["_"])
            assert not str(module.__file__).endswith(".py"), f"{name} runs pure"
    if build.kind == "source":
        assert PACKAGE == SRC / "bestiary", "no build.json, yet not running from src/"


def test_a_compiled_module_gone_missing_is_said() -> None:
    gone = CoreBuild("compiled", "mypyc", ("a.b", "c.d"), ("c.d",), "x")
    assert not gone.is_compiled
    assert gone.line() == (
        "core built compiled, but 1 of 2 compiled modules are missing and run pure (c.d)"
    )
    whole = CoreBuild("compiled", "mypyc", ("a.b", "c.d"), (), "x")
    assert whole.is_compiled and whole.line() == "core compiled with mypyc (2 modules)"


def test_the_source_digest_follows_every_edit(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "rules.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "page.js").write_text("let x = 1;\n")
    first = source_digest(tmp_path)
    (tmp_path / "pkg" / "rules.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    (tmp_path / "pkg" / "build.json").write_text("{}")
    assert source_digest(tmp_path) == first  # what a build adds is not a source
    (tmp_path / "pkg" / "page.js").write_text("let x = 2;\n")
    assert source_digest(tmp_path) != first
    assert not stale_against(SRC / "bestiary") or core_build().kind != "source"


def test_no_compiled_module_lies_in_the_source_tree() -> None:
    # An .so beside its .py would be imported instead of it, shadowing every later edit.
    shadows = [str(p.relative_to(REPO)) for p in SRC.rglob("*") if p.suffix in (".so", ".pyd")]
    assert not shadows, f"compiled modules in src/ shadow their .py files: {shadows}"
    assert not (SRC / "bestiary" / "build.json").exists()


@pytest.mark.parametrize("game", ["wild", "critters"])
def test_states_and_actions_survive_pickle_and_deepcopy(game: str) -> None:
    rules = get_game(game)
    state = rules.new_game(["ann", "bo", "cy"], seed=4)
    for _ in range(12):  # a game under way: a log, tableaus or Dens, a pending answer maybe
        legal = [a for p in state.actors for a in state.legal_actions(p)]
        if state.chance_due:
            state.apply(state.chance_outcome(random.Random(2)))
        elif legal:
            state.apply(legal[-1])
    for made in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert made.events() == state.events()
        assert all(made.view(p) == state.view(p) for p in state.players)
        assert made.legal_actions(state.players[0]) == state.legal_actions(state.players[0])
    for action in state.history:
        assert pickle.loads(pickle.dumps(action)) == copy.deepcopy(action) == action


@pytest.mark.slow
def test_the_sdist_installs_pure_where_nothing_compiles(tmp_path: Path) -> None:
    pytest.importorskip("build")
    made = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "dist"), str(REPO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr[-2000:]
    (sdist,) = (tmp_path / "dist").glob("bestiary-*.tar.gz")
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target)]
    done = subprocess.run(
        [*pip, str(sdist)],
        env={**os.environ, "CC": "false"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    built = json.loads((target / "bestiary" / "build.json").read_text())
    assert built["core"] == "pure" and built["compiled"] == []
    assert built["why"] == "no working C compiler: false cannot build a Python extension"
    assert not list(target.rglob("*.so"))
    assert (target / "bestiary" / "server" / "static" / "app.js").exists()
    assert built["source_digest"] == source_digest(SRC / "bestiary")
