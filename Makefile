# Two commands: `make run` (the main job) and `make test` (every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean browser terminal postgres proxy

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

# `make run HOST=0.0.0.0 PORT=8080` lets friends on your network join (share the printed address).
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run WORKERS=2 DB=postgresql+psycopg://...`: that many workers behind nginx (docs/server.md)
run: $(WEB_STAMP)
	$(if $(DB),$(BIN)/pip install --quiet -e '.[postgres]')
	$(BIN)/bestiary serve --host $(HOST) --port $(PORT) $(if $(DB),--db '$(DB)') $(if $(WORKERS),--workers $(WORKERS))

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

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

# The reverse-proxy test runs docs/server.md's nginx config with Debian's nginx.
proxy:
	command -v nginx >/dev/null || test -x /usr/sbin/nginx || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light openssl)

pytest: $(STAMP) browser terminal postgres proxy
	$(BIN)/pytest

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/bestiary bench wild
	$(BIN)/bestiary bench critters

clean:
	rm -rf $(VENV) build src/*.egg-info .mypy_cache .pytest_cache .ruff_cache
