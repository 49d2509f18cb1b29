"""Record the digests of seeded random games (tests/differential.py) that an engine gives.

Run it against the engine to compare with, e.g. an older commit's source unpacked elsewhere:

    PYTHONPATH=/tmp/old/src:. python scripts/differential_fixtures.py 3000 \
        > tests/records/differential.json
"""

from __future__ import annotations

import argparse
import json
import sys

from tests.differential import GAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, nargs="?", default=3000, help="games of each game")
    count = parser.parse_args().count
    digests = {name: [play(seed) for seed in range(count)] for name, play in GAMES.items()}
    json.dump(digests, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
