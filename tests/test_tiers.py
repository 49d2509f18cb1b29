"""The two tiers are honest (tests/tiers.py): what starts Chromium, tmux, PostgreSQL, nginx or a
server is recognised, a module using the helpers that start them is marked ``system``, and in
the check tier starting one fails the test with a sentence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests import tiers

ROOT = Path(__file__).resolve().parent.parent
PG = "/usr/lib/postgresql/15/bin"


def test_the_starters_of_the_system_tier_are_recognised() -> None:
    assert tiers.started(["tmux", "-L", "x", "new-session"]) == "tmux"
    assert tiers.started("/usr/sbin/nginx -c conf -p dir") == "nginx"
    assert tiers.started(["runuser", "-u", "postgres", "--", f"{PG}/initdb", "-D", "d"]) == (
        "PostgreSQL"
    )
    assert tiers.started(["/usr/bin/chromium", "--headless"]) == "Chromium"
    serve = [sys.executable, "-m", "bestiary.cli", "serve", "--port", "8001"]
    assert tiers.started(serve) == "a server process (bestiary serve)"
    code = "from bestiary.server.run import serve\nserve(port=1)"
    assert tiers.started([sys.executable, "-c", code]) is not None


def test_other_programs_are_left_alone() -> None:
    assert tiers.started([sys.executable, "-m", "bestiary.cli", "sim", "wild"]) is None
    assert tiers.started(["git", "status"]) is None
    assert tiers.started([sys.executable, "-m", "build", "--sdist"]) is None
    assert tiers.started("echo serve") is None


def test_a_module_using_a_starting_helper_is_system_and_free_port_alone_is_not() -> None:
    from tests.serverproc import ServerProcess

    # The live server's names as they are found (its module may move: tests/tiers.py names both)
    LiveServer = type("LiveServer", (), {"__module__": "bestiary.server.live"})

    def free_port() -> int:
        return 0

    free_port.__module__ = "bestiary.server.live"

    def module(**names: object) -> ModuleType:
        made = ModuleType("tests.test_example")
        vars(made).update(names)
        return made

    assert tiers.starts_system(module(LiveServer=LiveServer))
    assert tiers.starts_system(module(ServerProcess=ServerProcess))
    assert not tiers.starts_system(module(free_port=free_port))
    assert not tiers.starts_system(module(subprocess=subprocess, Path=Path))


def test_in_the_check_tier_starting_one_fails_with_a_sentence() -> None:
    # In a child process: the guard patches subprocess and uvicorn for the whole interpreter.
    code = (
        "import subprocess\n"
        "from tests import tiers\n"
        "tiers.guard()\n"
        "from playwright import sync_api\n"
        "for start in (lambda: subprocess.run(['tmux', '-V']),\n"
        "              lambda: __import__('uvicorn').Server(None),\n"
        "              lambda: sync_api.sync_playwright()):\n"
        "    try:\n"
        "        start()\n"
        "    except BaseException as refused:\n"
        "        print(type(refused).__name__, refused)\n"
        "print(subprocess.run(['true']).returncode)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "Failed this test starts tmux, which the check tier (BESTIARY_TIER=check) does not: "
        "mark it pytest.mark.system (tests/tiers.py)"
    )
    assert lines[1].startswith("Failed this test starts a server (uvicorn), ")
    assert lines[2].startswith("Failed this test starts Chromium (through Playwright), ")
    assert lines[3] == "0"
