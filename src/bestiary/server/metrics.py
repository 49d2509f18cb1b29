"""What ``GET /metrics`` tells an operator's Prometheus, in its text format (prometheus-client).

Counters and the commit histogram are the process's (one server process is one scrape target, as
Prometheus counts it): the tables count their committed events and how long each group waited for
its commit, the protocol and the HTTP answers count each refusal by its reason. Gauges (tables by
status, sockets, writes waiting for the store) are read from one app's lobby when scraped, so a
scrape costs the server nothing between scrapes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_TYPE_LATEST", "Reading", "Refusals", "app_registry", "exposition"]

_OWN = CollectorRegistry(auto_describe=True)  # the process's counters, shared by every app's page

_REFUSALS = Counter(
    "bestiary_refusals",
    "Requests, messages and connections refused, by reason (a socket error's code, http_NNN, "
    "or the connection gate's).",
    ["reason"],
    registry=_OWN,
)


class Refusals:
    """``refused(reason)``: one more refusal; each reason's child counter is made once."""

    def __init__(self) -> None:
        self._children: dict[str, Callable[[], None]] = {}

    def __call__(self, reason: str) -> None:
        count = self._children.get(reason)
        if count is None:
            count = self._children[reason] = _REFUSALS.labels(reason).inc
        count()


refused = Refusals()

COMMIT_BOUNDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Commits(Collector):
    """The events committed and how long each group waited for its commit, as plain numbers (a
    move's path pays an addition and a bisection, not a client library's locks), rendered by
    prometheus-client when scraped. Only the event loop counts."""

    def __init__(self) -> None:
        self.moves = 0
        self.groups = [0] * (len(COMMIT_BOUNDS) + 1)  # the last: over every bound
        self.waited = 0.0

    def committed(self, events: int, seconds: float) -> None:
        self.moves += events
        self.groups[bisect_left(COMMIT_BOUNDS, seconds)] += 1
        self.waited += seconds

    def collect(self) -> Iterable[Metric]:
        moves = CounterMetricFamily(
            "bestiary_moves_committed",
            "Game events committed to the store (each one a move, a bot's or chance's), then sent.",
            value=self.moves,
        )
        running, buckets = 0, []
        for bound, count in zip((*COMMIT_BOUNDS, float("inf")), self.groups, strict=True):
            running += count
            buckets.append(("+Inf" if bound == float("inf") else repr(bound), running))
        waits = HistogramMetricFamily(
            "bestiary_commit_seconds",
            "How long a table's group of new events waited for the store's commit before it was "
            "sent.",
            buckets=buckets,
            sum_value=self.waited,
        )
        return [moves, waits]


COMMITS = Commits()
_OWN.register(COMMITS)


class Reading:
    """What one app's lobby holds now, as ``tables_by_status``, ``sockets`` and ``queued``."""

    def __init__(
        self,
        tables_by_status: Callable[[], dict[str, int]],
        sockets: Callable[[], int],
        queued: Callable[[], int],
    ) -> None:
        self.tables_by_status = tables_by_status
        self.sockets = sockets
        self.queued = queued


class _Gauges(Collector):
    def __init__(self, reading: Callable[[], Reading | None]) -> None:
        self.reading = reading

    def collect(self) -> Iterable[Metric]:
        now = self.reading()
        if now is None:  # still starting
            return []
        tables = GaugeMetricFamily(
            "bestiary_tables", "Tables this process holds, by status.", labels=["status"]
        )
        counts = now.tables_by_status()
        for status in ("open", "playing", *sorted(set(counts) - {"open", "playing"})):
            tables.add_metric([status], counts.get(status, 0))
        sockets = GaugeMetricFamily("bestiary_sockets", "Table sockets open (seats and watchers).")
        sockets.add_metric([], now.sockets())
        queued = GaugeMetricFamily("bestiary_store_queued", "Writes waiting for the store.")
        queued.add_metric([], now.queued())
        return [tables, sockets, queued]


def app_registry(reading: Callable[[], Reading | None]) -> CollectorRegistry:
    """One app's page: the process's counters, this app's gauges, and the process itself
    (CPU, memory, descriptors, the collector's work) as prometheus-client reports them."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Shared())
    registry.register(_Gauges(reading))
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    return registry


class _Shared(Collector):
    """The process's own counters on an app's page (each app's registry has its own gauges)."""

    def collect(self) -> Iterator[Metric]:
        yield from _OWN.collect()


def exposition(registry: CollectorRegistry) -> bytes:
    return generate_latest(registry)


class CountRefusals:
    """ASGI middleware: every HTTP answer of status 400 or more counts as a refusal (its reason:
    ``http_`` and the status), whoever made it (a route, a limit, the Host check)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 400:
                refused(f"http_{message['status']}")
            await send(message)

        await self.app(scope, receive, counted)
