"""Errors a user can hit. Each carries one sentence a person can read."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse at this point of the game; the state is unchanged."""


class BotFault(RuntimeError):
    """A bot asked for an action the rules refuse, or made no move when it had to."""


class MalformedEvent(ValueError):
    """An event line that is not an action at all (unknown ``do``, missing or ill-typed keys).

    Distinct from IllegalAction: a malformed event never reached the rules.
    """


class BadOption(ValueError):
    """A game option (or player list, or deck) that cannot make a game."""


class RecordError(Exception):
    """A game record that cannot be read or replayed.

    ``line`` is the 1-based line number of the offending line (0 when the file as a whole is
    wrong, e.g. empty).
    """

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason.rstrip(".")
        super().__init__(str(self))

    def __str__(self) -> str:
        if not self.line:  # the file as a whole
            return f"{self.reason}."
        return f"line {self.line}: {self.reason}."
