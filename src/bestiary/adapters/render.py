"""Render modes shared by every env: ``ansi`` returns the public table text, ``human`` prints it.

Only public information is ever rendered (the tableaus, sizes, whose turn), never a hand.
"""

from __future__ import annotations

from collections.abc import Callable

RENDER_MODES = ["ansi", "human"]


def check_render_mode(mode: str | None) -> str | None:
    """``mode`` if an env can render it (or None); BadOption in one sentence otherwise."""
    from bestiary.core.errors import BadOption

    if mode is not None and mode not in RENDER_MODES:
        raise BadOption(f"render_mode {mode!r} is not supported (use 'ansi', 'human' or None)")
    return mode


def show(describe: Callable[[], str], mode: str | None) -> str | None:
    """What ``render()`` returns for ``mode``: the text (ansi), None after printing it (human)."""
    if mode is None:
        return None
    text = describe()
    if mode == "human":
        print(text, flush=True)
        return None
    return text
