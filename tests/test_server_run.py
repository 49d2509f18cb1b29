"""`bestiary serve` on a taken port: one sentence, before anything else is printed or restored."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bestiary.server.run import addresses

pytestmark = pytest.mark.system  # `bestiary serve` in its own process


def test_a_taken_port_is_one_sentence_before_anything_else(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = subprocess.run(
            [sys.executable, "-m", "bestiary.cli", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
    assert run.returncode != 0
    assert run.stdout == ""  # no "serving at" and no "restored N tables" before the refusal
    assert f"port {port} on 127.0.0.1 is already in use" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "bestiary.sqlite").exists()  # nothing was opened or restored


def test_the_printed_addresses_say_how_friends_join() -> None:
    local = addresses("127.0.0.1", 8000)
    assert local[0] == "bestiary is serving at http://localhost:8000/ (open it in your browser)"
    assert "make run HOST=0.0.0.0 PORT=8000" in local[1]
    shared = addresses("0.0.0.0", 8080)
    assert all(":8080/" in line for line in shared)
    assert any(line.startswith("friends on your network open http://") for line in shared)
