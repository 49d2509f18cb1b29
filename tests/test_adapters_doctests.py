"""The adapters' docstring examples run (they document the ids and sizes users will see)."""

from __future__ import annotations

import doctest
import importlib
import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

MODULES = [
    ("bestiary.adapters.wild_encoding", None),
    ("bestiary.adapters.critters_encoding", None),
    ("bestiary.adapters.critters_v0", "pettingzoo"),
    ("bestiary.adapters.wild_v0", "pettingzoo"),
    ("bestiary.adapters.pettingzoo_envs", "pettingzoo"),
    ("bestiary.adapters.gym_envs", "gymnasium"),
    ("bestiary.adapters.vector", "gymnasium"),
    ("bestiary.adapters.generic_vector", "gymnasium"),
    ("bestiary.adapters.sb3_vector", "stable_baselines3"),
    ("bestiary.adapters.evaluate", None),
    ("bestiary.adapters.tianshou_vector", "tianshou"),
    ("bestiary.adapters.infos", None),
    ("bestiary.adapters.policies", None),
    ("bestiary.adapters.variants", None),
    ("bestiary.adapters.openspiel_critters", "pyspiel"),
    ("bestiary.adapters.openspiel_wild", "pyspiel"),
    ("bestiary.adapters.encoding", None),
    ("bestiary.adapters.spiel_chance", None),
    ("bestiary.adapters.generic_gym", "gymnasium"),
    ("bestiary.adapters.generic_spiel", "pyspiel"),
    ("bestiary.adapters.openspiel_efg", "pyspiel"),
]


@pytest.mark.parametrize(("name", "needs"), MODULES)
def test_docstring_examples(name: str, needs: str | None) -> None:
    if needs is not None:
        pytest.importorskip(needs)
    module = importlib.import_module(name)
    loader = getattr(module.__spec__, "loader", None)
    if isinstance(loader, importlib.machinery.ExtensionFileLoader):
        result = _compiled_examples(module)
    else:
        result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def _compiled_examples(module: ModuleType) -> doctest.TestResults:
    """A compiled (mypyc) module's examples, read from the .py shipped beside it, run against
    the compiled module's own names (a compiled function keeps no docstring doctest can find)."""
    source = Path(str(module.__file__)).with_name(module.__name__.rpartition(".")[2] + ".py")
    spec = importlib.util.spec_from_file_location(f"{module.__name__}_source", source)
    assert spec is not None and spec.loader is not None
    text = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(text)
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(text, module.__name__, globs=vars(module)):
        runner.run(test)
    return runner.summarize(verbose=False)
