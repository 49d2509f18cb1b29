"""A keep-alive HTTP/1.1 JSON client for the load generator's lobby calls.

httpx was half of the load generator's CPU at 200 tables: every request scans its whole
connection pool, polling each idle socket and asking sniffio which async library runs. The
generator has one core for 800 WebSocket clients and the lobby calls that replace finished
games, so it would measure itself. Here a request takes an idle connection (or opens one),
writes the request and reads one response with a ``Content-Length`` (what the server sends).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson


class LobbyError(ConnectionError):
    """A lobby call that got no answer (the connection failed, or the answer was not HTTP)."""


class LeanHTTP:
    """``await post(path, body)`` and ``await get(path)``: (status, decoded JSON or None)."""

    def __init__(self, host: str, port: int, keepalive: float = 1.0, timeout: float = 60.0):
        self.host, self.port = host, port
        self.keepalive = keepalive  # an idle connection older than this is not reused
        self.timeout = timeout
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []

    async def post(self, path: str, body: Any) -> tuple[int, Any]:
        return await self.request("POST", path, orjson.dumps(body))

    async def get(self, path: str) -> tuple[int, Any]:
        return await self.request("GET", path, b"")

    async def request(self, method: str, path: str, payload: bytes) -> tuple[int, Any]:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        ).encode()
        async with asyncio.timeout(self.timeout):
            while True:
                reader, writer, reused = await self._connection()
                try:
                    writer.write(head + payload)
                    status, keep, body = await _response(reader)
                except (OSError, asyncio.IncompleteReadError, LobbyError) as err:
                    writer.close()
                    if reused:
                        continue  # the server closed it while idle: once more on a new one
                    raise LobbyError(f"{method} {path}: {err or type(err).__name__}") from err
                if keep:
                    self._idle.append((reader, writer, time.monotonic()))
                else:
                    writer.close()
                return status, _json(body)

    async def _connection(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bool]:
        while self._idle:
            reader, writer, since = self._idle.pop()
            if time.monotonic() - since < self.keepalive and not reader.at_eof():
                return reader, writer, True
            writer.close()
        reader, writer = await asyncio.open_connection(self.host, self.port)
        return reader, writer, False

    async def close(self) -> None:
        for _, writer, _ in self._idle:
            writer.close()
        self._idle.clear()

    async def __aenter__(self) -> LeanHTTP:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()


def _json(body: bytes) -> Any:
    try:
        return orjson.loads(body) if body else None
    except orjson.JSONDecodeError as err:
        raise LobbyError(f"the answer is not JSON: {body[:80]!r}") from err


async def _response(reader: asyncio.StreamReader) -> tuple[int, bool, bytes]:
    """One response: its status, whether the connection stays open, and its body."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise LobbyError(f"not an HTTP response: {lines[0][:80]!r}")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip().lower()
    if "content-length" not in headers:
        raise LobbyError("the response has no Content-Length")
    body = await reader.readexactly(int(headers["content-length"]))
    return int(parts[1]), headers.get("connection") != "close", body
