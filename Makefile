# Two commands: `make run` (the main job) and `make test` (every check); `make check` is the
# edit loop's fast tier (CONTRIBUTING.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run core test check floors lint typecheck pytest pytest-pure bench clean browser terminal postgres proxy

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Everything: tests, linters and every optional extra (what `make test` needs). torch first,
# pinned to the CPU build that lies on disk, so the learn extra never pulls a CUDA build.
# The test game (tests/toygame) is a distribution of its own, found through its entry point only.
$(STAMP): $(BIN)/python pyproject.toml tests/toygame/pyproject.toml
	$(BIN)/pip install --quiet 'torch==2.13.0'
	$(BIN)/pip install --quiet -e '.[test,rl,openspiel,ray,learn]'
	$(BIN)/pip install --quiet --no-deps -e tests/toygame
	touch $(STAMP) $(WEB_STAMP)

# Only what serving needs (no test, RL, OpenSpiel or Ray extras): quick on a fresh clone.
WEB_STAMP := $(VENV)/.installed-web
$(WEB_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e .
	touch $(WEB_STAMP)

# The compiled core (docs/benchmarks.md): a non-editable build of src/ in build/core, mypyc
# compiling the hot modules (setup.py lists them; pure Python where no C compiler is found).
# Never beside the sources: an .so in src/ would shadow every later edit of its .py. It is put
# first on PYTHONPATH by `run` and `pytest`, and rebuilt whenever any file of the package
# changes; a copy built from other sources is refused by the tests (tests/conftest.py). The
# .venv stays an editable, pure install of src/: `.venv/bin/pytest tests/x.py` runs the edit.
CORE := build/core
CORE_STAMP := $(CORE)/bestiary/build.json
PACKAGE_FILES := $(shell find src/bestiary -type f -not -path '*/__pycache__/*') setup.py pyproject.toml
# BESTIARY_CORE=compiled makes a missing C compiler an error (`make test`); empty: pure fallback.
BESTIARY_CORE ?=
$(CORE_STAMP): $(PACKAGE_FILES) | $(BIN)/python
	rm -rf $(CORE) build/lib.* build/bdist.*
	BESTIARY_CORE=$(BESTIARY_CORE) $(BIN)/pip install --quiet --no-deps --target $(CORE) .
	@PYTHONPATH=$(CORE) $(BIN)/python -m bestiary.build
core: $(CORE_STAMP)

# `make run HOST=0.0.0.0 PORT=8080` lets friends on your network join (share the printed address).
# The serving dependencies and the compiled core are installed side by side (-j2).
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run WORKERS=2 DB=postgresql+psycopg://...`: that many workers behind nginx (docs/operating.md)
run:
	@$(MAKE) --no-print-directory -j2 $(WEB_STAMP) $(CORE_STAMP)
	$(if $(DB),$(BIN)/pip install --quiet -e '.[postgres]')
	PYTHONPATH=$(CORE) $(BIN)/bestiary serve --host $(HOST) --port $(PORT) $(if $(DB),--db '$(DB)') $(if $(WORKERS),--workers $(WORKERS))

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts setup.py
	$(BIN)/ruff format --check src tests scripts setup.py

typecheck: $(STAMP)
	$(BIN)/mypy

# Browser tests drive Debian's Chromium (never a downloaded browser build).
browser:
	command -v chromium >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-color-emoji)

# The terminal tests run the real program under tmux (Debian's package).
terminal:
	command -v tmux >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y tmux)

# The PostgreSQL store tests start a throwaway cluster with Debian's server binaries.
postgres:
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql)

# The reverse-proxy test runs docs/operating.md's nginx config with Debian's nginx.
proxy:
	command -v nginx >/dev/null || test -x /usr/sbin/nginx || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light openssl)

# The whole suite on the compiled core (BESTIARY_EXPECT_CORE: a test fails if a module the
# build compiled would be imported pure), then the rules tests (replays, properties, the
# differential ones, compiled against pure), the vector env's (its recorded trajectories) and the
# doctests on the pure source tree.
RULES_TESTS := tests/test_critters_*.py tests/test_wild_*.py tests/test_core_*.py \
	tests/test_redaction.py tests/test_adapters_vector.py tests/test_adapters_trajectories.py \
	src/bestiary
pytest: $(STAMP) browser terminal postgres proxy
	@$(MAKE) --no-print-directory BESTIARY_CORE=compiled $(CORE_STAMP)
	BESTIARY_EXPECT_CORE=compiled PYTHONPATH=$(CORE) $(BIN)/pytest tests
	$(MAKE) --no-print-directory pytest-pure

pytest-pure: $(STAMP)
	BESTIARY_EXPECT_CORE=source $(BIN)/pytest $(RULES_TESTS)

test: lint typecheck pytest

# The fast tier for the edit loop: every test that starts no Chromium, tmux, PostgreSQL, nginx
# or server process (marked `system`, tests/tiers.py) and is not `slow`, on the pure source
# tree; in this tier those starters refuse, so an unmarked test that needs one fails.
check: $(STAMP)
	BESTIARY_TIER=check $(BIN)/pytest -m "not system and not slow"

# The floors of pyproject.toml, proven: the lowest versions it allows of the direct
# dependencies (uv's lowest-direct resolution; what they pull in is the newest that fits), in a
# venv of their own (never .venv), running the fast tier. A floor the suite fails on is raised.
# Not part of `make test` (it downloads and installs a second environment).
FLOORS := .venv-floors
floors:
	rm -rf $(FLOORS)
	$(PY) -m venv $(FLOORS)
	$(FLOORS)/bin/pip install --quiet uv
	$(FLOORS)/bin/uv pip install --quiet --python $(FLOORS)/bin/python \
		--resolution lowest-direct -e '.[test,rl]'
	$(FLOORS)/bin/uv pip install --quiet --python $(FLOORS)/bin/python --no-deps -e tests/toygame
	$(FLOORS)/bin/uv pip freeze --python $(FLOORS)/bin/python > $(FLOORS)/versions.txt
	BESTIARY_TIER=check $(FLOORS)/bin/pytest -m "not system and not slow"

bench: $(STAMP) $(CORE_STAMP)
	PYTHONPATH=$(CORE) $(BIN)/bestiary bench wild
	PYTHONPATH=$(CORE) $(BIN)/bestiary bench critters

clean:
	rm -rf $(VENV) $(FLOORS) build src/*.egg-info .mypy_cache .pytest_cache .ruff_cache
