# Two commands: `make run` (the main job) and `make test` (every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean browser terminal postgres proxy

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e '.[test,rl,openspiel,ray]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/bestiary serve

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
