"""Token buckets: a socket's flood limit, and limits per client address (new tables, joins);
and what "one client address" is (an IPv6 client is its network, not its one address)."""

from __future__ import annotations

import ipaddress
import time
from functools import lru_cache


# asked for every connection, lobby call and table socket, of the same few addresses: parsed once
# each (ipaddress's parsing showed in the lobby's profile); bounded, as many clients may come
@lru_cache(maxsize=4096)
def client_key(host: str, ipv6_prefix: int = 64) -> str:
    """The client an address counts as for every per-address limit: an IPv4 address itself,
    an IPv6 address its network of ``ipv6_prefix`` bits (one home or host is given a whole
    /64, so counting single addresses would let it take every limit 2**64 times)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an address ("unknown"): counted as given
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{ipv6_prefix}", strict=False))
    return str(ip)


class Bucket:
    """``rate`` tokens a second, at most ``burst`` saved up; ``take`` spends one if there is one."""

    __slots__ = ("burst", "checked", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.checked = time.monotonic()

    def refill(self, now: float) -> float:
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.rate)
        self.checked = now
        return self.tokens

    def take(self) -> bool:
        if self.refill(time.monotonic()) < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def wait(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1.0 - self.tokens) / self.rate)


class PerAddress:
    """One bucket per client address; full (forgotten) buckets are dropped now and then."""

    def __init__(self, rate: float, burst: float, keep: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self._buckets: dict[str, Bucket] = {}

    def take(self, address: str) -> float | None:
        """None if ``address`` may go ahead, else the seconds it must wait."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.keep:
                self._forget_full()
            bucket = self._buckets[address] = Bucket(self.rate, self.burst)
        if bucket.take():
            return None
        return bucket.wait()

    def _forget_full(self) -> None:
        now = time.monotonic()
        for address in [a for a, b in self._buckets.items() if b.refill(now) >= b.burst]:
            del self._buckets[address]
