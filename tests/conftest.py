"""The suite's one precondition beyond the extras: the test game is installed."""

from __future__ import annotations

import importlib.util

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Duel (tests/toygame) reaches bestiary through its entry point only, so it must be
    # installed like any game from outside the repo; `make` does it.
    if importlib.util.find_spec("bestiary_duel") is None:
        raise pytest.UsageError(
            "the test game is not installed: pip install --no-deps -e tests/toygame (make does)"
        )
