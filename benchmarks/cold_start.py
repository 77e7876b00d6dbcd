"""Cold start: what a new user waits for on the first run, with nothing compiled yet.

    python benchmarks/cold_start.py [GAME...] [--seed 5 [--seed 1 ...]] [--no-warmup] [--json PATH]

Each figure is a fresh process with a fresh, empty ``NUMBA_CACHE_DIR`` (a temporary
directory), so every kernel it needs is compiled: ``import rules, solvers``; for each game,
``python -m solvers solve GAME SEED`` (wall seconds, and the ``compile_seconds`` it reports,
which should account for nearly all of the difference from its search seconds); and
``aisle warmup`` of the games (all cores).  Prints a table and writes JSON with the machine
(``benchmarks/machine.py``).  Targets (issue 55): a first solve in at most 15 s on 2 cores.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

from rules import GAME_NAMES  # noqa: E402
import machine  # noqa: E402  (benchmarks/machine.py)


def fresh_run(argv):
    """Run ``python argv...`` from the checkout with an empty Numba cache: (wall seconds,
    the completed process)."""
    with tempfile.TemporaryDirectory(prefix="aisle-cold-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": HERE}
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, *argv], cwd=HERE, env=env, capture_output=True,
                              text=True)
        return time.perf_counter() - t0, done


def first_solve(game, seed):
    """The first ``aisle solve GAME SEED --format json``: wall, compile and search seconds."""
    wall, done = fresh_run(["-m", "solvers", "solve", game, str(seed), "--format", "json"])
    if done.returncode not in (0, 3, 4):
        raise SystemExit(f"solve {game} {seed} failed ({done.returncode}): {done.stderr[-500:]}")
    out = json.loads(done.stdout)
    return {"game": game, "seed": seed, "verdict": out["verdict"], "wall_seconds": round(wall, 2),
            "compile_seconds": out["compile_seconds"], "search_seconds": round(out["seconds"], 3),
            "announced": "compiling the" in done.stderr}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAME_NAMES), metavar="GAME",
                    help="games (default all)")
    ap.add_argument("--seed", type=int, action="append",
                    help="a deal each game solves (repeatable; default 5)")
    ap.add_argument("--no-warmup", action="store_true", help="skip timing 'aisle warmup'")
    ap.add_argument("--json", metavar="PATH", help="write the results here")
    args = ap.parse_args(argv)
    seeds = args.seed or [5]

    print(machine.header())
    imported, _ = fresh_run(["-c", "import rules, solvers"])
    print(f"import rules, solvers: {imported:.2f} s")
    rows = []
    print(f"{'game':<11} {'seed':>5} {'verdict':<10} {'wall s':>7} {'compile s':>9} {'search s':>8}"
          "  announced")
    for game, seed in [(game, seed) for game in args.games for seed in seeds]:
        row = first_solve(game, seed)
        rows.append(row)
        print(f"{game:<11} {seed:>5} {row['verdict']:<10} {row['wall_seconds']:>7.1f} "
              f"{row['compile_seconds']:>9.1f} {row['search_seconds']:>8.2f}  {row['announced']}",
              flush=True)
    warmup = None
    if not args.no_warmup:
        warmup, done = fresh_run(["-m", "solvers", "warmup", *args.games, "--no-progress"])
        if done.returncode != 0:
            raise SystemExit(f"warmup failed ({done.returncode}): {done.stderr[-500:]}")
        print(f"aisle warmup {' '.join(args.games)}: {warmup:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": {"machine": machine.describe(), "seeds": seeds,
                                "date": time.strftime("%Y-%m-%d")},
                       "import_seconds": round(imported, 2), "first_solve": rows,
                       "warmup_seconds": None if warmup is None else round(warmup, 1)},
                      f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
