"""Where friends on other machines reach this server: from the address it listens on."""

from __future__ import annotations

import socket

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    """Whether a server listening on ``host`` answers this machine only."""
    return host in LOOPBACK or host.startswith("127.")


def friend_addresses(host: str, port: int) -> list[str]:
    """The addresses to share with friends: this machine's network addresses when listening
    on every interface, ``host`` itself when it is one of them, none when loopback only."""
    if is_loopback(host):
        return []
    if host not in ("0.0.0.0", "::"):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        names = []
    return [f"http://{ip}:{port}/" for ip in names if not ip.startswith("127.")]
