"""A table's seats: who sits where, their tokens, their sockets and the bot playing them."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from bestiary.core.agent import Agent
from bestiary.server.connection import Connection
from bestiary.server.table_settings import Handle


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    index: int
    name: str | None = None
    bot: str | None = None  # a bot seat; None for a human or an open seat
    token_hash: str | None = None
    connections: set[Connection] = field(default_factory=set)
    agent: Agent | None = None  # the bot playing this seat (a bot seat or a stand-in)
    agent_name: str | None = None  # that bot's registered name
    grace: Handle | None = None
    grace_due: float = 0.0  # table-clock time the grace period ends (while `grace` runs)
    address: str | None = None  # the client (``client_key``) that took it: seats per address

    @property
    def is_open(self) -> bool:
        return self.name is None

    def as_json(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": bool(self.connections) or self.bot is not None,
            "stand_in": self.agent is not None and self.bot is None,
        }

    def stored(self) -> dict[str, Any]:
        # the address too: seats per address still count after a restart or a takeover
        return {
            "name": self.name,
            "bot": self.bot,
            "token_hash": self.token_hash,
            "address": self.address,
        }
