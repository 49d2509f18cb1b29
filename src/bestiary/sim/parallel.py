"""Run many games in parallel: local processes (``--jobs``) or a Ray cluster (``--backend ray``).

Each game's seed comes from (run seed, game index) alone, and results are yielded in game
order, so a run's summary and records are the same whatever the number of jobs or backend.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bestiary.sim.runner import GameResult, GameSpec, play_game

BACKENDS = ("local", "ray")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (63 bits, stable everywhere).

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    digest = hashlib.blake2b(f"bestiary-sim:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def default_jobs() -> int:
    return os.cpu_count() or 1


def play_chunk(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Play a batch of games in one worker (batches keep the messaging overhead small)."""
    return [play_game(spec) for spec in specs]


def _chunks(specs: Sequence[GameSpec], jobs: int) -> list[Sequence[GameSpec]]:
    size = max(1, min(64, len(specs) // max(1, jobs * 8)))
    return [specs[i : i + size] for i in range(0, len(specs), size)]


def run_games(
    specs: Sequence[GameSpec],
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[GameResult]:
    """Play every spec; yield results in spec order; call ``progress(n)`` as n games finish."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose local or ray")
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError("--jobs must be at least 1")
    chunks = _chunks(specs, jobs)
    if backend == "ray":
        batches = _ray_batches(chunks, address)
    elif jobs == 1 or len(chunks) == 1:
        batches = (play_chunk(chunk) for chunk in chunks)
    else:
        batches = _pool_batches(chunks, jobs)
    for batch in batches:
        yield from batch
        if progress is not None:
            progress(len(batch))


def _pool_batches(chunks: list[Sequence[GameSpec]], jobs: int) -> Iterator[list[GameResult]]:
    # spawn: the same behaviour on every platform, and no fork of a process holding threads.
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes=min(jobs, len(chunks))) as pool:
        yield from pool.imap(play_chunk, chunks)


def _ray_batches(
    chunks: list[Sequence[GameSpec]], address: str | None
) -> Iterator[list[GameResult]]:
    try:
        import ray
    except ModuleNotFoundError:
        raise ValueError("the ray backend needs Ray: pip install 'bestiary[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        kwargs: dict[str, Any] = {"address": address} if address else {}
        ray.init(
            **kwargs, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False
        )
    try:
        remote = ray.remote(play_chunk)
        refs = [remote.remote(chunk) for chunk in chunks]
        for ref in refs:
            batch: list[GameResult] = ray.get(ref)
            yield batch
    finally:
        if started_here:
            ray.shutdown()
