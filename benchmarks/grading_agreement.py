"""Grading agreement: the atlas's cheap grading player against the game's default player.

    python benchmarks/grading_agreement.py [--game yukon] [--deals 300] [--from 1]
        [--jobs 2] [--json PATH]

The atlas grades a winnable deal from the games a cheaper ``pimc`` wins on it
(``solvers.studies.atlas_build.GRADE_PLAYER``); ``aisle deals --difficulty`` computes grades
beyond the atlas with the default player (``pimc`` at its defaults).  This plays both, four games
each (player seeds 0-3, as the grading does), on the first ``--deals`` seeds from ``--from`` that
the shipped atlas proves winnable, grades each deal from each player's wins
(:mod:`solvers.players.grading`) and prints the confusion table of the two grades, the share of
deals graded the same and within one grade, Cohen's kappa, and each player's share of games won
(95% Wilson interval) and median seconds a game on one core.  Every won game is replayed by the
referee (outside the timed play), and the grading player's wins are checked against the ones the
atlas ships for each deal.  Writes JSON with the per-deal rows.
"""
import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules import get_game  # noqa: E402
from solvers.atlas import find  # noqa: E402
from solvers.players import get_player, play_game  # noqa: E402
from solvers.players.grading import GAMES, GRADES, grade_of  # noqa: E402
from solvers.studies.atlas_build import GRADE_PLAYER  # noqa: E402
from solvers.studies.stats import wilson_interval  # noqa: E402
import machine  # noqa: E402  (benchmarks/machine.py)

PLAYERS = {"grading": {k: v for k, v in GRADE_PLAYER.items() if k != "name"}, "default": {}}


def play_one(task):
    """One game: ``(game, which, player seed, deal seed) -> (which, deal seed, won, seconds)``."""
    game, which, k, seed = task
    player = get_player("pimc", seed=k, **PLAYERS[which])
    record = play_game(get_game(game).deal(seed), player)
    if record.won:
        record.verify()
    return which, seed, bool(record.won), record.seconds


def _warm(game):
    from solvers import get_solver

    get_solver(game).ready()


def winnable_seeds(game, first, count):
    """The first ``count`` seeds from ``first`` the shipped atlas proves winnable."""
    atlas = find(game)
    if atlas is None:
        raise SystemExit(f"no shipped atlas for {game}")
    seeds, seed = [], first
    while len(seeds) < count:
        entry = atlas.entry(seed)
        if entry.verdict == "not covered":
            raise SystemExit(f"the atlas ends before {count} winnable deals from {first}")
        if entry.verdict == "winnable":
            seeds.append(seed)
        seed += 1
    return seeds


def kappa(pairs):
    """Cohen's kappa of two graders over ``pairs`` of grades."""
    n = len(pairs)
    agree = sum(a == b for a, b in pairs) / n
    chance = sum((sum(a == g for a, _ in pairs) / n) * (sum(b == g for _, b in pairs) / n)
                 for g in GRADES)
    return 1.0 if chance == 1 else (agree - chance) / (1 - chance)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="yukon", choices=("yukon", "ten-across"))
    ap.add_argument("--deals", type=int, default=300, help="winnable deals to grade")
    ap.add_argument("--from", dest="first", type=int, default=1, help="first seed")
    ap.add_argument("--jobs", type=int, default=1, help="processes (each game on one core)")
    ap.add_argument("--json", metavar="PATH", help="write the results here")
    args = ap.parse_args(argv)

    print(machine.header())
    seeds = winnable_seeds(args.game, args.first, args.deals)
    tasks = [(args.game, which, k, seed) for which in PLAYERS for seed in seeds
             for k in range(GAMES)]
    t0 = time.perf_counter()
    if args.jobs <= 1:
        _warm(args.game)
        rows = [play_one(t) for t in tasks]
    else:
        with mp.get_context("spawn").Pool(args.jobs, initializer=_warm,
                                           initargs=(args.game,)) as pool:
            rows = pool.map(play_one, tasks, chunksize=4)
    wall = time.perf_counter() - t0

    wins = {(which, seed): 0 for which in PLAYERS for seed in seeds}
    seconds = {which: [] for which in PLAYERS}
    for which, seed, won, secs in rows:
        wins[which, seed] += won
        seconds[which].append(secs)
    grades = {seed: tuple(grade_of(wins[which, seed], GAMES) for which in PLAYERS)
              for seed in seeds}
    pairs = list(grades.values())
    n = len(pairs)
    print(f"{args.game}: {n} winnable deals from seed {args.first} ({seeds[0]}-{seeds[-1]}), "
          f"{GAMES} games each per player; {wall:.0f} s wall on {args.jobs} process(es)")
    corner = "grading \\ default"
    print(f"{corner:<18}" + "".join(f"{g:>8}" for g in GRADES))
    table = {a: {b: sum(p == (a, b) for p in pairs) for b in GRADES} for a in GRADES}
    for a in GRADES:
        print(f"{a:<18}" + "".join(f"{table[a][b]:>8}" for b in GRADES))
    same = sum(a == b for a, b in pairs) / n
    near = sum(abs(GRADES.index(a) - GRADES.index(b)) <= 1 for a, b in pairs) / n
    k = kappa(pairs)
    print(f"same grade {same:.1%}, within one grade {near:.1%}, Cohen's kappa {k:.2f}")
    atlas = find(args.game)
    shipped = [atlas.entry(seed).won for seed in seeds]
    reproduced = sum(w == wins["grading", seed] for w, seed in zip(shipped, seeds))
    graded = sum(w is not None for w in shipped)
    print(f"the grading games reproduce the atlas's shipped wins on {reproduced} of {graded} "
          f"graded deals")
    players = {}
    for which, params in PLAYERS.items():
        won = sum(wins[which, seed] for seed in seeds)
        lo, hi = wilson_interval(won, n * GAMES)
        med = statistics.median(seconds[which])
        players[which] = {"params": params, "games": n * GAMES, "won": won,
                          "interval": [round(lo, 4), round(hi, 4)], "median_seconds": round(med, 3)}
        print(f"{which:<8} pimc {params or '(defaults)'}: won {won}/{n * GAMES} "
              f"= {won / (n * GAMES):.1%} [{lo:.1%}, {hi:.1%}], median {med:.2f} s a game")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": {"machine": machine.describe(), "date": time.strftime("%Y-%m-%d"),
                                "game": args.game, "from": args.first, "games": GAMES},
                       "table": table, "same": same, "within_one": near, "kappa": k,
                       "atlas_reproduced": reproduced, "atlas_graded": graded,
                       "players": players,
                       "deals": [{"seed": s, "grading_won": wins["grading", s],
                                  "default_won": wins["default", s]} for s in seeds]}, f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
