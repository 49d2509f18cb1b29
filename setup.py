"""The build: mypyc compiles the hot modules to C extensions where a C compiler is found.

The same ``.py`` files are the pure-Python build everywhere else (no compiler, an editable
install, or ``BESTIARY_CORE=pure``). Each build writes ``bestiary/build.json`` beside the package
(never into ``src/``): which build it is, the modules it compiled, and a digest of the sources it
was made from, so ``bestiary --version`` says which core runs and the tests refuse a stale one.
``BESTIARY_CORE=compiled`` makes a missing compiler an error instead of a pure build.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"

# The hot modules (docs/benchmarks.md measures them): both games' rules, views, actions and
# moves, the driver, the search, the bots the lab and the server run, the adapters' encoders and
# vector env, and what the server puts on the wire each move. Everything else (CLI, the rest of
# the server, TUI, lab) stays interpreted: it waits on I/O.
COMPILED = sorted(
    [
        *(f"bestiary/critters/{m}.py" for m in ("actions", "cards", "decks", "effects", "game")),
        "bestiary/critters/info.py",
        "bestiary/critters/kept.py",
        "bestiary/critters/moves.py",
        *(f"bestiary/critters/{m}.py" for m in ("refusals", "setup", "state", "tableau", "view")),
        *(f"bestiary/wild/{m}.py" for m in ("actions", "cards", "info", "meetings")),
        *(f"bestiary/wild/{m}.py" for m in ("objectives", "setup", "state", "view")),
        "bestiary/core/chance.py",
        "bestiary/core/driver.py",
        "bestiary/core/records.py",
        "bestiary/core/viewer.py",
        "bestiary/search/ismcts.py",
        *(f"bestiary/bots/{m}.py" for m in ("critters", "critters_search", "wild", "wild_view")),
        "bestiary/bots/wild_exploiters.py",
        "bestiary/adapters/batch.py",
        "bestiary/adapters/critters_encoding.py",
        "bestiary/adapters/generic_vector.py",
        "bestiary/adapters/wild_encoding.py",
        "bestiary/adapters/ticks.py",
        "bestiary/adapters/vector.py",
        "bestiary/server/wire.py",  # each seat's state message, on every move
    ]
)


def _source_digest() -> str:
    """The digest ``bestiary.build`` checks (its module, loaded by path: only the stdlib)."""
    spec = importlib.util.spec_from_file_location("_bestiary_build", SRC / "bestiary" / "build.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # for its dataclass
    spec.loader.exec_module(module)
    digest: str = module.source_digest(SRC / "bestiary")
    return digest


def _has_c_compiler() -> str | None:
    """None if a C extension can be built here, else why not (one phrase)."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        return f"no Python.h in {include}"
    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=tmp, include_dirs=[include])
        except (CCompilerError, DistutilsError, OSError):
            cc = " ".join(getattr(compiler, "compiler_so", ["cc"])[:1])
            return f"no working C compiler: {cc} cannot build a Python extension"
    return None


def _choose() -> tuple[str, str]:
    """("compiled" or "pure", why)."""
    wanted = os.environ.get("BESTIARY_CORE", "")
    if wanted not in ("", "pure", "compiled"):
        sys.exit(f"BESTIARY_CORE must be pure or compiled, not {wanted!r}")
    if wanted == "pure":
        return "pure", "BESTIARY_CORE=pure"
    if any(arg in ("editable_wheel", "develop") for arg in sys.argv):
        # Compiling in place would leave .so files in src/ that shadow every later edit.
        if wanted == "compiled":
            sys.exit("an editable install is never compiled (its .so files would shadow src/)")
        return "pure", "editable install (runs src/ as it is edited)"
    if not any(arg.startswith(("bdist", "build", "install")) for arg in sys.argv):
        return "pure", "no build"  # egg_info, sdist, dist_info: nothing is compiled
    why_not = _has_c_compiler()
    if why_not is None:
        try:
            import mypyc.build  # noqa: F401
        except ImportError:
            why_not = "mypyc is not installed"
    if why_not is not None:
        if wanted == "compiled":
            sys.exit(f"BESTIARY_CORE=compiled, but {why_not}")
        return "pure", why_not
    return "compiled", f"mypyc, {len(COMPILED)} modules"


CORE, WHY = _choose()


class build_py_with_manifest(build_py):
    """Copies the package as usual and writes bestiary/build.json, the build's own account."""

    def run(self) -> None:
        super().run()
        manifest = {
            "core": CORE,
            "why": WHY,
            "compiled": [m[: -len(".py")].replace("/", ".") for m in COMPILED]
            if CORE == "compiled"
            else [],
            "source_digest": _source_digest(),
        }
        out = Path(self.build_lib) / "bestiary" / "build.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(manifest, indent=1) + "\n")


# C compilers run at once: every core (the compile is most of `make run`'s wait on a fresh clone).
JOBS = os.cpu_count() or 1


class build_ext_side_by_side(build_ext):
    """Compiles the C files of one extension side by side, not only the extensions.

    mypyc puts every module in one extension (its 47 C files, nine tenths of the compile), and
    setuptools' own ``parallel`` only builds whole extensions side by side: alone it leaves one
    core compiling that extension while the other finishes the small shims and waits. One gate
    holds the compilers running at once to ``JOBS`` across both levels.
    """

    def build_extensions(self) -> None:
        gate = threading.Semaphore(JOBS)
        compile_files: Callable[..., list[str]] = self.compiler.compile

        def compile_one(source: str, *args: object, **kwargs: object) -> list[str]:
            with gate:
                return compile_files([source], *args, **kwargs)

        def compile_side_by_side(sources: list[str], *args: object, **kwargs: object) -> list[str]:
            with ThreadPoolExecutor(JOBS) as pool:
                done = pool.map(lambda source: compile_one(source, *args, **kwargs), sources)
                return [obj for objects in done for obj in objects]

        self.compiler.compile = compile_side_by_side
        super().build_extensions()


def _extensions() -> list[object]:
    if CORE != "compiled":
        return []
    from mypyc.build import mypycify

    # Not the project's strict config, and no site-packages: the build environment need not hold
    # the runtime dependencies, so they are typed as Any wherever it runs (the same C from every
    # environment; `make typecheck` sees all of them).
    config = Path(tempfile.mkdtemp()) / "mypy.ini"
    config.write_text(
        "[mypy]\npython_version = 3.11\nignore_missing_imports = True\nno_site_packages = True\n"
    )
    os.environ.setdefault("MYPYPATH", str(SRC))
    return list(
        mypycify(
            ["--config-file", str(config), *(str(SRC / m) for m in COMPILED)],
            opt_level=os.environ.get("BESTIARY_OPT", "3"),
            debug_level="0",
            multi_file=True,  # one C file a module: build_ext_side_by_side compiles them at once
            group_name="bestiary",
        )
    )


if WHY != "no build":
    print(f"bestiary: {CORE} core ({WHY})", file=sys.stderr)
setup(
    ext_modules=_extensions(),
    cmdclass={"build_py": build_py_with_manifest, "build_ext": build_ext_side_by_side},
    options={"build_ext": {"parallel": JOBS}},
)
