"""How every 4-player line-up of the shipped wild bots ends (issue: no line-up stalls).

    python scripts/lineups.py --games 1000 --jobs 2
    python scripts/lineups.py --games 200 --jobs 2 --with matcher   # only line-ups with a matcher

Prints, for each multiset of bots, the share of games ending at Sundown, at Nightfall and with
all cards gone, worst Nightfall share first. Seeded: the same command prints the same table.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter

from bestiary.core.agent import bot_entries
from bestiary.sim.parallel import run_games
from bestiary.sim.seating import sim_specs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--with", dest="having", help="only line-ups with this bot in them")
    args = parser.parse_args()
    names = [e.name for e in bot_entries("wild")]
    rows = []
    if args.having is not None and args.having not in names:
        parser.error(f"no wild bot is called {args.having!r}; choose one of {', '.join(names)}")
    for lineup in itertools.combinations_with_replacement(names, args.players):
        if args.having is not None and args.having not in lineup:
            continue
        specs = sim_specs("wild", list(lineup), args.players, args.games, args.seed)
        endings = Counter(r.ended for r in run_games(specs, jobs=args.jobs))
        rows.append((endings["nightfall"] / args.games, lineup, endings))
    rows.sort(key=lambda row: (-row[0], row[1]))
    having = "" if args.having is None else f" with {args.having}"
    print(
        f"{len(rows)} line-ups{having} x {args.games} games, {args.players} players, "
        f"seed {args.seed}"
    )
    print(f"{'line-up':<44} {'sundown':>8} {'nightfall':>9} {'no cards':>8}")
    for _share, lineup, endings in rows:
        cells = [endings[k] / args.games for k in ("sundown", "nightfall", "out_of_cards")]
        print(f"{','.join(lineup):<44} {cells[0]:>8.3f} {cells[1]:>9.3f} {cells[2]:>8.3f}")
    worst = rows[0]
    print(f"worst Nightfall share: {worst[0]:.3f} ({','.join(worst[1])})")


if __name__ == "__main__":
    main()
