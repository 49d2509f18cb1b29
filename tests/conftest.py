"""The suite's preconditions beyond the extras: the test game is installed, and a built copy of
the package (``make test`` runs the suite on the compiled core in build/core, through PYTHONPATH)
was made from today's src/: an edit since that build would otherwise be tested as it was before
the edit, silently. And the tiers (tests/tiers.py): tests that start Chromium, PostgreSQL or a
server through this folder's helpers are marked ``system``; ``make check`` runs the others and
refuses to start any of those.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import settings

from bestiary.build import PACKAGE, stale_against
from tests import tiers

SOURCES = Path(__file__).resolve().parent.parent / "src" / "bestiary"

# Properties assert behaviour, never time: hypothesis' 200 ms deadline per example is a
# wall-clock limit, which a busy 2-core machine breaks without any fault in the code.
settings.register_profile("bestiary", deadline=None)
settings.load_profile("bestiary")


def pytest_configure(config: pytest.Config) -> None:
    if tiers.in_check_tier():
        tiers.guard()
    # Duel (tests/toygame) reaches bestiary through its entry point only, so it must be
    # installed like any game from outside the repo; `make` does it.
    if importlib.util.find_spec("bestiary_duel") is None:
        raise pytest.UsageError(
            "the test game is not installed: pip install --no-deps -e tests/toygame (make does)"
        )
    if PACKAGE != SOURCES and SOURCES.exists() and stale_against(SOURCES):
        raise pytest.UsageError(
            f"the bestiary imported from {PACKAGE.parent} was built from other sources than "
            f"src/ (edited since?): rebuild it (make core) or drop it from PYTHONPATH"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    system = pytest.mark.system
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and tiers.starts_system(module):
            item.add_marker(system)
