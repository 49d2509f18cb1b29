"""The adapters' docstring examples run (they document the ids and sizes users will see)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    ("bestiary.adapters.wild_encoding", None),
    ("bestiary.adapters.critters_encoding", None),
    ("bestiary.adapters.critters_v0", "pettingzoo"),
    ("bestiary.adapters.wild_v0", "pettingzoo"),
    ("bestiary.adapters.pettingzoo_envs", "pettingzoo"),
    ("bestiary.adapters.gym_envs", "gymnasium"),
    ("bestiary.adapters.vector", "gymnasium"),
    ("bestiary.adapters.infos", None),
    ("bestiary.adapters.policies", None),
    ("bestiary.adapters.variants", None),
    ("bestiary.adapters.openspiel_critters", "pyspiel"),
    ("bestiary.adapters.openspiel_wild", "pyspiel"),
    ("bestiary.adapters.encoding", None),
    ("bestiary.adapters.generic_gym", "gymnasium"),
    ("bestiary.adapters.generic_spiel", "pyspiel"),
    ("bestiary.adapters.openspiel_efg", "pyspiel"),
]


@pytest.mark.parametrize(("name", "needs"), MODULES)
def test_docstring_examples(name: str, needs: str | None) -> None:
    if needs is not None:
        pytest.importorskip(needs)
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
