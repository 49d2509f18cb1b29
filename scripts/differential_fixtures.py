"""Record the digests of seeded random games (tests/differential.py) that an engine gives.

Run it against the engine to compare with, e.g. an older commit's source unpacked elsewhere:

    PYTHONPATH=/tmp/old/src:tests python scripts/differential_fixtures.py 3000 \
        > tests/records/differential.json
"""

from __future__ import annotations

import json
import sys

from differential import GAMES  # type: ignore[import-not-found]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    digests = {name: [play(seed) for seed in range(count)] for name, play in GAMES.items()}
    json.dump(digests, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
