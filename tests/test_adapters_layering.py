"""Only ``bestiary.adapters`` imports the research libraries (they are optional extras)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "bestiary"
LIBRARIES = {
    "pettingzoo",
    "gymnasium",
    "pyspiel",
    "open_spiel",
    "rlcard",
    "torch",
    "tianshou",
    "stable_baselines3",
    "sb3_contrib",
}


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_research_libraries_are_imported_only_by_the_adapters() -> None:
    offenders = {
        str(path.relative_to(SRC)): sorted(_imported_roots(path) & LIBRARIES)
        for path in SRC.rglob("*.py")
        if "adapters" not in path.relative_to(SRC).parts
    }
    assert {name: libs for name, libs in offenders.items() if libs} == {}


def test_the_adapters_package_itself_imports_none_of_them() -> None:
    assert not _imported_roots(SRC / "adapters" / "__init__.py") & LIBRARIES
