"""A fixed number of vector-env steps, for instruction counts under callgrind.

    PYTHONHASHSEED=0 PYTHONPATH=build/core valgrind --tool=callgrind \\
        .venv/bin/python scripts/vector_steps.py critters 2 2100

16 games, random opponents, ``reset(seed=1)``, 50 steps, then ``STEPS`` steps of the loop in
``bench --adapters`` (a random legal id per game from the batch mask). Run it at two step
counts and divide the difference by the learner steps between (16 per step): the deals and
imports cancel out (docs/benchmarks.md). It also prints CPU µs per learner step. It runs on
any tree with ``make_vector`` (fa20153's pure one too).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from bestiary.adapters.vector import make_vector

game, players, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
venv = make_vector(game, 16, players=players)
rng = np.random.default_rng(1)
observations, _ = venv.reset(seed=1)
for _ in range(50):
    mask = observations["action_mask"]
    observations, *_ = venv.step((rng.random(mask.shape) * mask).argmax(1))
start = time.process_time()
for _ in range(steps):
    mask = observations["action_mask"]
    observations, *_ = venv.step((rng.random(mask.shape) * mask).argmax(1))
print(f"{game} {players}: {1e6 * (time.process_time() - start) / (steps * 16):.1f} CPU µs/step")
