"""Both engines have one shape: the same module names, and no import cycle inside a game
package (counting imports made only for type checking, or inside a function)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import bestiary

SRC = Path(bestiary.__file__).parent
GAMES = ("wild", "critters")
# What every game package has (docs/driver.md), so that a third game starts as a copy of one.
SHAPE = ("info", "cards", "actions", "setup", "state", "view", "summary", "game")


@pytest.mark.parametrize("package", GAMES)
def test_every_game_package_has_the_same_modules(package: str) -> None:
    modules = {p.stem for p in (SRC / package).glob("*.py")}
    assert set(SHAPE) <= modules


def own_imports(package: str, path: Path) -> dict[str, set[str]]:
    """Every import of a module of ``package`` by ``path``, by where it stands."""
    tree = ast.parse(path.read_text("utf-8"))
    prefix = f"bestiary.{package}."
    found: dict[str, set[str]] = {"top": set(), "nested": set()}
    top = set(map(id, tree.body))
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        modules = {n[len(prefix) :].split(".")[0] for n in names if n.startswith(prefix)}
        modules &= {p.stem for p in path.parent.glob("*.py")}
        found["top" if id(node) in top else "nested"] |= modules
    return found


@pytest.mark.parametrize("package", GAMES)
def test_no_import_cycle_and_no_import_inside_a_function(package: str) -> None:
    graph: dict[str, set[str]] = {}
    for path in sorted((SRC / package).glob("*.py")):
        imports = own_imports(package, path)
        assert not imports["nested"], f"{path.name} imports {imports['nested']} out of line"
        graph[path.stem] = imports["top"] - {path.stem}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as err:
        raise AssertionError(f"import cycle in bestiary.{package}: {err.args[1]}") from None
    assert set(order) == set(graph)
