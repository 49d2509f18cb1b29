"""The server's log is bounded: a line that repeats is written at most a few times a minute.

A stranger can make the server log (a malformed request is one uvicorn warning each; a store
outage is one error per retry), and a log that grows with every request fills the disk. So each
kind of line (its logger and its message before the arguments go in) is written at most
``burst`` times per ``period``; the next one written after a quiet spell says how many like it
were left out. The disk the log takes is then bounded by the number of kinds of line the code
has, not by what anyone sends.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

BURST = 10  # lines of one kind written per period
PERIOD_SECONDS = 60.0
MAX_KINDS = 1000  # kinds of line remembered at once (a message built before logging is one each)


@dataclass
class _Window:
    start: float
    written: int = 0
    left_out: int = 0


class LogCap(logging.Filter):
    """A handler's filter: at most ``burst`` lines of each kind per ``period`` seconds."""

    def __init__(self, burst: int = BURST, period: float = PERIOD_SECONDS) -> None:
        super().__init__()
        self.burst = burst
        self.period = period
        self._windows: dict[tuple[str, str], _Window] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        kind = (record.name, str(record.msg))
        window = self._windows.get(kind)
        if window is None or now - window.start >= self.period:
            if window is None and len(self._windows) >= MAX_KINDS:
                self._windows.clear()
            left_out = window.left_out if window is not None else 0
            window = self._windows[kind] = _Window(now)
            if left_out:
                record.msg = f"{record.msg} [{left_out} more like this left out of the log]"
        if window.written >= self.burst:
            window.left_out += 1
            return False
        window.written += 1
        return True


def cap_handlers(cap: LogCap, *loggers: logging.Logger) -> None:
    """Put ``cap`` on every handler of these loggers (uvicorn's do not pass through the root)."""
    for logger in loggers:
        for handler in logger.handlers:
            if cap not in handler.filters:
                handler.addFilter(cap)
