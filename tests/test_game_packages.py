"""A game lives in its package: nothing else names it, and the walk-through says how.

- No module of ``bestiary`` outside the game packages (``bestiary/wild``, ``bestiary/critters``)
  names a game (``wild``, ``critters``, the test game ``duel``) by a string or imports a game
  package, except the per-game modules listed in ``STILL_OUTSIDE`` below, each with the reason
  it stays outside its package. The list is exact both ways: a module that stops
  naming a game must leave it too. The registry's defaults are the entry points of
  ``pyproject.toml``, not a module.
- Only ``bestiary.core.game.redacted`` calls a game's ``redact``: every viewer-facing event
  passes that one filter.
- docs/driver.md's "Adding a game" walks through the test game as it is (tests/toygame).
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from bestiary_duel import DuelGame, DuelState

from bestiary.core.info import Faces

# The source tree, not the imported package: under `make test` that is the compiled build.
ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "bestiary"
GAMES = ("wild", "critters", "duel")
PACKAGES = ("wild", "critters")  # the game packages inside bestiary (duel is a distribution)

# Per-game modules that live outside their game's package (so they name their game), each
# found through what the game declares (GameInfo.faces, GameInfo.bots), never by its name. They
# stay out because of the project's layers: a game package holds its rules and nothing about
# I/O (Textual, Rich, printing) and imports nothing above core; the RL libraries are imported
# only in adapters/ (test_adapters_layering.py); the bots and their search sit above the games.
# (A module that names critters' card "wild" counts as naming wild: the check cannot tell.)
STILL_OUTSIDE = {
    # The per-game research faces (docs/rl.md): each imports an RL library or is the public
    # encoding researchers import by this path. CrittersEnv, critters_v0, wild_v0 and both
    # OpenSpiel games are declarations over the generic faces (encoding, generic_aec,
    # generic_gym, generic_parallel, generic_vector, spiel_face name no game); Wild-v0 runs on
    # ticks.
    "adapters/baselines.py": "MaskablePPO and DQN settings per game",
    "adapters/critters_encoding.py": "critters' own observations and action ids",
    "adapters/commands.py": "bestiary evaluate's help names the games with a protocol",
    "adapters/critters_v0.py": "critters' PettingZoo env",
    "adapters/evaluate.py": "each game's variants and critters' untimed ismcts for protocols",
    "adapters/gym_envs.py": "Critters-v0 and Wild-v0",
    "adapters/openspiel_critters.py": "python_bestiary_critters, declared over spiel_face",
    "adapters/openspiel_wild.py": "python_bestiary_wild, declared over spiel_face",
    "adapters/speed.py": "steps/s per adapter and per game's peers",
    "adapters/league.py": "the league baselines, one per game's protocol",
    "adapters/release.py": "the released checkpoints, one per game's baseline setting",
    "adapters/ticks.py": "wild on ticks",
    "adapters/trajectories.py": "wild's steps are rewarded with score changes, as wild_v0's",
    "adapters/vector.py": "critters' vector env (over generic_vector) and wild's, on ticks",
    "adapters/wild_encoding.py": "wild's own observations and action ids",
    "adapters/wild_v0.py": "wild's PettingZoo env, declared over generic_parallel",
    # Each game's bots (above the games: they share bots/ bases and search/), found through
    # GameInfo.bots, so nothing else imports them by name.
    "bots/critters.py": "critters' bots",
    "bots/critters_belief.py": "critters' belief over hidden hands",
    "bots/critters_search.py": "critters' ISMCTS bot",
    "bots/wild.py": "wild's bots",
    "bots/wild_aims.py": "what an Objective and the Mating Bonus are worth to wild's bots",
    "bots/wild_exploiters.py": "wild's exploiters",
    "bots/wild_view.py": "reading a wild view",
    # wild's narrated demo (GameInfo.faces.demo): it prints, so it is no part of the rules.
    "demo.py": "wild's narrated demo",
    # The lab's per-game studies, whose figures docs/bots.md, docs/sim.md and
    # docs/benchmarks.md quote (the generic lab, runner and outcome name no game).
    "sim/ceiling.py": "critters' learning ceiling",
    "sim/ladder.py": "the bot ladder of docs/bots.md, per game",
    "sim/speed.py": "bench --sim's ISMCTS line (critters' ismcts bot, 200 iterations)",
    # Each game's terminal board (GameInfo.faces.terminal): its table, card marks and words,
    # drawn with Rich and Textual; the generic board and the apps' frame name no game.
    "tui/critters_table.py": "critters' terminal board",
    "tui/menu.py": "critters' move menu",
    "tui/wild_table.py": "wild's terminal board",
}


def _names(tree: ast.AST) -> set[str]:
    """Every game a module names: as a string of its own, or by importing its package."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in GAMES:
            found.add(str(node.value))
        modules: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        for module in modules:
            parts = module.split(".")
            if parts[0] == "bestiary" and len(parts) > 1 and parts[1] in PACKAGES:
                found.add(parts[1])
            if parts[0] == "bestiary_duel":
                found.add("duel")
    return found


def _modules_outside_the_games() -> dict[str, ast.Module]:
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        if relative.split("/")[0] not in PACKAGES:
            out[relative] = ast.parse(path.read_text(), relative)
    return out


def test_no_module_outside_the_game_packages_names_a_game() -> None:
    naming = {m for m, tree in _modules_outside_the_games().items() if _names(tree)}
    assert naming - STILL_OUTSIDE.keys() == set(), "these modules name a game"
    assert STILL_OUTSIDE.keys() - naming == set(), "these no longer name a game: unlist them"


def test_the_browser_client_names_no_game() -> None:
    quoted = re.compile("[\"'](" + "|".join(GAMES) + ")[\"']")
    for script in sorted((SRC / "server" / "static").glob("*.js")):
        assert not quoted.findall(script.read_text()), f"{script.name} names a game"


def test_the_registry_defaults_are_the_entry_points() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    points = project["project"]["entry-points"]["bestiary.games"]
    assert points == {"wild": "bestiary.wild:GAME", "critters": "bestiary.critters:GAME"}


def test_only_the_one_filter_calls_a_games_redact() -> None:
    calling = set()
    for module, tree in _modules_outside_the_games().items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "redact"
                and not isinstance(node.ctx, ast.Store)
            ):
                calling.add(module)
    assert calling == {"core/viewer.py"}  # core.game.redacted, compiled apart (re-exported)


def test_the_walk_through_is_the_test_games_own() -> None:
    text = (ROOT / "docs" / "driver.md").read_text()
    section = text[text.index("## Adding a game") :]
    section = section[: section.index("\n## ", 3)] if "\n## " in section[3:] else section
    toml = re.search(r"```toml\n(.*?)```", section, re.S)
    assert toml is not None
    snippet = "\n".join(line.strip() for line in toml.group(1).strip().splitlines())
    assert snippet in (ROOT / "tests" / "toygame" / "pyproject.toml").read_text()
    # The state methods the walk-through says Duel writes are exactly the ones it defines.
    prose = " ".join(section.split())
    said = re.search(r"Duel writes only (.*?)\(and, because it has them, (.*?)\)", prose)
    assert said is not None
    written = {name for part in said.groups() for name in re.findall(r"`(\w+)`", part)}
    defined = {name for name in vars(DuelState) if not name.startswith("__")}  # its own words
    assert written == defined - {"turn"}  # (turn: Duel's helper, not a State method)
    said_game = re.search(r"writes `new_game`, `from_header` and `action_from_event`", prose)
    assert said_game is not None
    assert {"new_game", "from_header", "action_from_event"} <= set(vars(DuelGame))
    for face in re.findall(r"`(web|terminal|encoding|vector|demo)`", section):
        assert face in Faces.__dataclass_fields__
