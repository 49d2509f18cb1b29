"""Which core runs: compiled with mypyc, or pure Python (``bestiary --version`` says which).

A built copy of the package (``pip install .``, a wheel, ``make``'s ``build/core``) carries
``build.json``, written by setup.py: compiled or pure and why, the modules it compiled and a
digest of the sources it was built from. The source tree itself (an editable install) has none
and always runs pure, so an edit is never shadowed by an older compiled module. What the
manifest claims is checked against what Python would import, module by module.

``python -m bestiary.build`` prints the one line (``make`` does, after each build).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "build.json"


@dataclass(frozen=True)
class CoreBuild:
    """What the build says (``kind``: compiled, pure or source) and what is found."""

    kind: str
    why: str
    compiled: tuple[str, ...]  # modules the build says it compiled
    running_pure: tuple[str, ...]  # of those, the ones that would be imported from a .py
    source_digest: str | None  # of the sources the build was made from (None: the tree itself)

    @property
    def is_compiled(self) -> bool:
        """Compiled, and every module the build compiled is the one imported."""
        return self.kind == "compiled" and not self.running_pure

    def line(self) -> str:
        """One line for ``--version``, ``bench`` and the build."""
        if self.kind == "compiled" and self.running_pure:
            shown = ", ".join(self.running_pure[:3]) + (
                ", ..." if len(self.running_pure) > 3 else ""
            )
            return (
                f"core built compiled, but {len(self.running_pure)} of {len(self.compiled)} "
                f"compiled modules are missing and run pure ({shown})"
            )
        if self.kind == "compiled":
            return f"core compiled with mypyc ({len(self.compiled)} modules)"
        return f"core pure Python ({self.why})"


def core_build() -> CoreBuild:
    if not MANIFEST.exists():
        return CoreBuild("source", "the source tree, as edited", (), (), None)
    manifest = json.loads(MANIFEST.read_text())
    compiled = tuple(manifest["compiled"])
    return CoreBuild(
        manifest["core"],
        manifest["why"],
        compiled,
        tuple(name for name in compiled if not _is_extension(name)),
        manifest["source_digest"],
    )


def _is_extension(module: str) -> bool:
    """Whether importing ``module`` loads a C extension (found, not executed)."""
    spec = importlib.util.find_spec(module)
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def source_digest(root: Path) -> str:
    """sha256 over the package's files under ``root`` (path and content), in path order.

    Every file a build copies counts (the client's static files too), not what a build or a run
    adds (bytecode, build.json, extensions). setup.py loads this module by path to digest
    ``src/bestiary`` (it cannot import the package).
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and _is_source(p)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _is_source(path: Path) -> bool:
    return (
        "__pycache__" not in path.parts
        and path.name != MANIFEST.name
        and not path.name.endswith((".pyc", *importlib.machinery.EXTENSION_SUFFIXES))
    )


def stale_against(sources: Path) -> bool:
    """Whether this built copy was made from other sources than those under ``sources``."""
    built = core_build().source_digest
    return built is not None and built != source_digest(sources)


if __name__ == "__main__":
    print(f"bestiary: {core_build().line()}, in {PACKAGE.parent}")
