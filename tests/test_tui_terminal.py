"""The terminal programs tried for real: run under tmux, send keys, read the screen.

Each wait polls the screen for the text it expects, with a bounded timeout (never a fixed
sleep). tmux runs on a private socket, so nothing else on the machine is touched; ``make test``
installs tmux when it is missing.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
BESTIARY = str(Path(sys.executable).parent / "bestiary")
_TERMINALS = itertools.count()
WAIT = 30.0  # the most any screen may take to show what we wait for, in seconds

# Outside CI a machine without tmux skips these; in CI (where make test installs it) they run.
pytestmark = [
    pytest.mark.skipif(
        TMUX is None and not os.environ.get("CI"),
        reason="tmux is not installed (make test installs it)",
    ),
    pytest.mark.system,
]


class Terminal:
    """One tmux session on a private server: start a command, type, read the screen.

    Each ``start`` gets a server of its own (a fresh socket name): a server just killed may
    still hold its socket for a moment, and a new session on it would fail.
    """

    def __init__(self, base: str) -> None:
        self.base = base
        self.sockets: list[str] = []
        self.socket = base

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def start(self, command: list[str], cwd: Path) -> None:
        self.socket = f"{self.base}-{len(self.sockets)}"
        self.sockets.append(self.socket)
        env = ["-e", "TERM=xterm-256color", "-e", "NO_COLOR=1"]
        self.tmux("new-session", "-d", "-s", "t", "-x", "140", "-y", "45", "-c", str(cwd), *env)
        self.tmux("set-option", "-t", "t", "remain-on-exit", "on")
        self.tmux("respawn-pane", "-k", "-t", "t", " ".join(command))

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, *texts: str) -> str:
        """Poll until the screen shows one of ``texts``; fail showing the screen if not."""
        deadline = time.monotonic() + WAIT
        while True:
            screen = self.screen()
            if any(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {texts!r}; the screen was:\n{screen}")
            time.sleep(0.1)

    def wait_exit(self) -> None:
        deadline = time.monotonic() + WAIT
        while self.tmux("display-message", "-p", "-t", "t", "#{pane_dead}").strip() != "1":
            if time.monotonic() > deadline:
                raise AssertionError(f"the program never ended; the screen was:\n{self.screen()}")
            time.sleep(0.1)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"bestiary-test-{os.getpid()}-{next(_TERMINALS)}")
    yield term
    for socket in term.sockets:
        subprocess.run([TMUX or "tmux", "-L", socket, "kill-server"], capture_output=True)


def test_play_critters_in_a_real_terminal_then_replay_it(
    terminal: Terminal, tmp_path: Path
) -> None:
    record = tmp_path / "game.jsonl"
    command = [BESTIARY, "play", "critters", "--players", "2", "--bots", "greedy"]
    terminal.start([*command, "--seed", "3", "--name", "ann", "--save", str(record)], tmp_path)
    terminal.wait_for("Your move — choose what to do")
    assert "A:ann (you)" in terminal.screen()
    terminal.keys("Enter")  # open the first group of moves...
    terminal.wait_for("which one?")
    terminal.keys("Enter")  # ...and play its first move
    screen = terminal.wait_for("ann puts down", "ann plays", "ann completes")
    assert "greedy" in screen
    terminal.keys("?")
    terminal.wait_for("how to play")
    terminal.keys("Escape")
    terminal.wait_for("Goal: full sets")  # the table again
    terminal.keys("q")
    terminal.wait_exit()
    assert record.exists()

    done = subprocess.run(
        [BESTIARY, "replay", str(record), "--json"], capture_output=True, text=True, check=True
    )
    final = json.loads(done.stdout)
    events = len(record.read_text().splitlines()) - 1

    terminal.tmux("kill-server")
    terminal.start([BESTIARY, "replay", str(record)], tmp_path)
    terminal.wait_for(f"Step 0 of {events}")
    terminal.keys("Right")
    terminal.wait_for(f"Step 1 of {events}")
    terminal.keys("End")
    screen = terminal.wait_for(f"Step {events} of {events} — showing everything")
    for player in final["hands"]:
        assert f"{player}" in screen
    assert f"Draw Pile: {final['draw_pile']} cards" in screen
    terminal.keys("v")
    terminal.wait_for(f"Step {events} of {events} — showing ann's view")
    terminal.keys("q")
    terminal.wait_exit()


def test_play_wild_in_a_real_terminal(terminal: Terminal, tmp_path: Path) -> None:
    record = tmp_path / "wild.jsonl"
    command = [BESTIARY, "play", "wild", "--players", "3", "--bots", "honest", "--seed", "8"]
    terminal.start([*command, "--name", "ann", "--tick", "0.2", "--save", str(record)], tmp_path)
    terminal.wait_for("Picked card 1:")
    terminal.keys("2")
    terminal.wait_for("Picked card 2:")
    terminal.keys("Enter")  # card 2 with its own Call
    screen = terminal.wait_for("ann calls '")
    assert "with a face-down card" in screen
    terminal.wait_for("honest calls '", "honest-2 calls '")  # the bots play on their own
    terminal.keys("q")
    terminal.wait_exit()
    lines = record.read_text().splitlines()
    assert json.loads(lines[0])["players"] == ["ann", "honest", "honest-2"]
    assert any('"by":"ann","do":"call"' in line for line in lines[1:])


def test_play_a_game_with_no_board_of_its_own_on_the_generic_board(
    terminal: Terminal, tmp_path: Path
) -> None:
    # duel (tests/toygame) ships no terminal board: its view one field a row, its moves a menu.
    record = tmp_path / "duel.jsonl"
    command = [BESTIARY, "play", "duel", "--players", "2", "--bots", "duel-keeper", "--seed", "4"]
    terminal.start([*command, "--name", "ann", "--tick", "0.05", "--save", str(record)], tmp_path)
    screen = terminal.wait_for("Your move — choose one")
    assert "What you see" in screen and "stand" in screen and "swap" in screen
    terminal.keys("Enter")  # stand, the first legal move
    terminal.wait_for("ann: stand")
    terminal.wait_for("duel-keeper: s")  # the bot plays on its own, after its pause
    terminal.wait_for("Your move — choose one")
    terminal.keys("Down", "Enter")  # swap
    terminal.wait_for("ann: swap")
    screen = terminal.wait_for("Everything:")  # the end: every card turned up
    assert "winners" in screen
    terminal.keys("q")
    terminal.wait_exit()
    lines = record.read_text().splitlines()
    assert [json.loads(line)["do"] for line in lines[1:] if '"ann"' in line] == ["stand", "swap"]
    done = subprocess.run(
        [BESTIARY, "replay", str(record), "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout)["over"] is True
