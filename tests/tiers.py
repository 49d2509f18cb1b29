"""The suite's two tiers: ``make test`` runs every test; ``make check`` runs the rest of them
fast, for the edit loop (rules, engines, driver, lab, adapters), with nothing to start.

A test is ``system`` when it starts Chromium, tmux, PostgreSQL, nginx or a server (a ``bestiary
serve`` process, or uvicorn in a thread). Every test of a module that uses this folder's helpers
for those (tests/browser.py, tests/pg.py, tests/serverproc.py, the live server) is marked so by
conftest.py; a module that starts one by itself says ``pytestmark = pytest.mark.system``.

``make check`` sets ``BESTIARY_TIER=check`` and selects ``not system and not slow``. In that
tier the starters themselves refuse (``guard``): a test that starts one of them unmarked fails
with a sentence naming what it started, so the fast tier cannot quietly grow slow again.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

TIER = "BESTIARY_TIER"
MARKER = "system"

# The helper modules whose every name serves tests that start something.
HELPER_MODULES = frozenset({"tests.browser", "tests.pg", "tests.serverproc"})
# The live server's names that imply a running server (``free_port`` does not).
LIVE_MODULES = frozenset({"bestiary.server.live", "tests.live"})
LIVE_NAMES = frozenset({"LiveServer", "TableSocket"})

PROGRAMS = {
    "chromium": "Chromium",
    "chromium-browser": "Chromium",
    "tmux": "tmux",
    "nginx": "nginx",
    "initdb": "PostgreSQL",
    "pg_ctl": "PostgreSQL",
    "postgres": "PostgreSQL",
    "pgbench": "PostgreSQL",
    "uvicorn": "a server process (uvicorn)",
}


def in_check_tier() -> bool:
    return os.environ.get(TIER, "") == "check"


def starts_system(module: ModuleType) -> bool:
    """Whether a test module uses a helper that starts Chromium, PostgreSQL or a server."""
    for value in vars(module).values():
        if isinstance(value, ModuleType):
            name, owner = value.__name__, value.__name__
        else:
            name = getattr(value, "__qualname__", "")
            owner = getattr(value, "__module__", "")
        if not isinstance(owner, str):
            continue
        if owner in HELPER_MODULES or (owner in LIVE_MODULES and name in LIVE_NAMES):
            return True
    return False


def started(args: Any) -> str | None:
    """What a command line would start that the check tier does not, or None."""
    if isinstance(args, str | bytes | os.PathLike):
        argv = shlex.split(os.fsdecode(args))
    else:
        argv = [os.fsdecode(a) for a in args]
    for arg in argv:
        if Path(arg).name in PROGRAMS:
            return PROGRAMS[Path(arg).name]
        if "playwright" in arg and Path(arg).name in ("node", "playwright", "playwright.sh"):
            return "Chromium (Playwright's driver)"
    code = " ".join(argv)
    if "serve" in argv and any(a.endswith(("bestiary", "bestiary.cli")) for a in argv):
        return "a server process (bestiary serve)"
    if "bestiary.server.run import serve" in code:
        return "a server process (bestiary.server.run.serve)"
    return None


def refuse(what: str) -> None:
    pytest.fail(
        f"this test starts {what}, which the check tier ({TIER}=check) does not: "
        f"mark it pytest.mark.{MARKER} (tests/tiers.py)",
        pytrace=False,
    )


def _guarded(original: Callable[..., None], what: Callable[[Any], str | None]) -> Any:
    def init(self: object, args: Any = None, *rest: Any, **named: Any) -> None:
        found = what(args)
        if found is not None:
            refuse(found)
        original(self, args, *rest, **named)

    return init


def guard() -> None:
    """In the check tier, make subprocesses of the system kind and uvicorn servers refuse."""
    subprocess.Popen.__init__ = _guarded(  # type: ignore[method-assign]
        subprocess.Popen.__init__, started
    )
    import uvicorn

    uvicorn.Server.__init__ = _guarded(  # type: ignore[method-assign]
        uvicorn.Server.__init__, lambda _config: "a server (uvicorn)"
    )
    try:
        from playwright import sync_api
    except ImportError:  # no browser tests without it
        return
    playwright = sync_api.sync_playwright

    def refused() -> Any:
        # Refused here, in the test's own thread: Playwright starts its driver in an event loop
        # that would turn the refusal into an unrelated error.
        refuse("Chromium (through Playwright)")
        return playwright()

    sync_api.sync_playwright = refused
