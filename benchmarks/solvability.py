"""Solvability benchmark: run a game's solver over a range of Aisleriot seeds.

    python benchmarks/solvability.py --game yukon --seeds 1-1000 --timeout 10 \
        [--rules aisleriot|open] [--jobs N] [--threads N] [--json PATH] [--option spots=off]
        [--method dfs]

Every solution is replayed by the game's referee (outside the timed solve; a bad one stops
the run).  Reports solved / proven unsolvable / unknown, the win rate with a 95% Wilson
interval (unknown deals counted both ways), time percentiles, nodes and solution length;
prints a table and writes JSON.  The solver is ``solvers.get_solver(game)``; every deal is dealt
from its Aisleriot seed (Freecell too, numbering "aisleriot").  Compile / cache-load time (the
solver's ``warmup()``) is measured separately and not part of any deal.
"""
import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules import GAME_NAMES, get_game  # noqa: E402
from solvers import get_solver  # noqa: E402
from solvers.studies.seeds import parse_seeds  # noqa: E402
from solvers.studies.stats import win_rate  # noqa: E402
import machine  # noqa: E402  (benchmarks/machine.py)

_CTX = {}


def win_interval(won, unsolvable, unknown):
    """(rate among decided, low with unknowns lost, high with unknowns won)."""
    w = win_rate(won, unsolvable, unknown)
    return w.rate, w.low, w.high


def _init(args):
    """Per process: load the solver's kernels (timed apart from the deals)."""
    solver = get_solver(args["game"])
    _CTX.update(args, solver=solver, gameobj=solver.game, compile=solver.ready())


def _solve_one(seed):
    c = _CTX
    state = c["gameobj"].deal(seed, "aisleriot", **c["options"])
    t0 = time.perf_counter()
    r = c["solver"].solve(state, method=c["method"], rules=c["rules"], timeout=c["timeout"],
                          max_nodes=c["max_nodes"], threads=c["threads"])
    wall = time.perf_counter() - t0
    if r.verdict == "solved":
        r.verify()              # the referee replays the solution (raises if a move is illegal)
    return {"seed": seed, "verdict": r.verdict, "seconds": wall, "nodes": int(r.nodes_expanded),
            "length": len(r.moves) if r.verdict == "solved" else None, "limit": r.limit,
            "compile": c["compile"]}


def percentile(values, q):
    if not values:
        return float("nan")
    v = sorted(values)
    k = (len(v) - 1) * q / 100
    lo, hi = math.floor(k), math.ceil(k)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def summarise(rows):
    counts = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("solved", "unsolvable", "unknown")}
    rate, low, high = win_interval(counts["solved"], counts["unsolvable"], counts["unknown"])
    secs = [r["seconds"] for r in rows]
    nodes = [r["nodes"] for r in rows]
    lengths = [r["length"] for r in rows if r["length"] is not None]
    stats = lambda xs: {"median": percentile(xs, 50), "p90": percentile(xs, 90),  # noqa: E731
                        "p99": percentile(xs, 99), "max": max(xs) if xs else float("nan")}
    return {"deals": len(rows), **counts,
            "decided_fraction": (counts["solved"] + counts["unsolvable"]) / max(1, len(rows)),
            "win_rate": rate, "win_low95": low, "win_high95": high,
            "seconds": stats(secs), "nodes": stats(nodes), "solution_length": stats(lengths),
            "unknown_seeds": sorted(r["seed"] for r in rows if r["verdict"] == "unknown"),
            "unsolvable_seeds": sorted(r["seed"] for r in rows if r["verdict"] == "unsolvable")}


def print_table(meta, s, out=sys.stdout):
    pct = lambda x: "n/a" if x != x else f"{100 * x:.2f}%"  # noqa: E731
    print(f"{meta['game']} seeds {meta['seeds']} rules={meta['rules']} method={meta['method']} "
          f"timeout={meta['timeout']}s jobs={meta['jobs']} threads={meta.get('threads', 1)} "
          f"options={meta['options']}", file=out)
    print(f"compile/cache-load per process: {meta['compile_seconds']:.2f} s; wall {meta['wall_seconds']:.1f} s; "
          f"{machine.header(meta)}", file=out)
    print(f"{'deals':>8} {'solved':>8} {'unsolv.':>8} {'unknown':>8} {'decided':>8}  win rate [95% Wilson, unknowns both ways]",
          file=out)
    print(f"{s['deals']:>8} {s['solved']:>8} {s['unsolvable']:>8} {s['unknown']:>8} {pct(s['decided_fraction']):>8}  "
          f"{pct(s['win_rate'])} [{pct(s['win_low95'])}, {pct(s['win_high95'])}]", file=out)
    print(f"{'':>16} {'median':>10} {'p90':>10} {'p99':>10} {'max':>10}", file=out)
    for key, fmt in (("seconds", "{:10.3f}"), ("nodes", "{:10.0f}"), ("solution_length", "{:10.0f}")):
        row = s[key]
        vals = " ".join(fmt.format(row[k]) if row[k] == row[k] else f"{'n/a':>10}" for k in ("median", "p90", "p99", "max"))
        print(f"{key:>16} {vals}", file=out)
    if s["unknown_seeds"]:
        print(f"unknown seeds: {' '.join(map(str, s['unknown_seeds']))}", file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--game", required=True, choices=GAME_NAMES)
    ap.add_argument("--seeds", default="1-1000", help="Aisleriot seeds, e.g. 1-1000,5000")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per deal")
    ap.add_argument("--max-nodes", type=int, default=None)
    ap.add_argument("--rules", default="aisleriot", help="rule mode (the solver's RULE_MODES)")
    ap.add_argument("--method", default=None, help="search method (default: the solver's)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads per deal (Solver.solve's threads; with --jobs 1)")
    ap.add_argument("--json", default=None, help="write the summary and every deal here")
    ap.add_argument("--option", action="append", default=[], help="game option NAME=VALUE")
    args = ap.parse_args(argv)

    game = get_game(args.game)
    options = game.resolve_options(dict(o.split("=", 1) for o in args.option))
    seeds = [int(s) for s in parse_seeds(args.seeds, "aisleriot")]
    ctx = {"game": game.name, "options": options, "timeout": args.timeout,
           "method": args.method or get_solver(game).default_method,
           "max_nodes": args.max_nodes, "rules": args.rules, "threads": args.threads}
    t0 = time.perf_counter()
    rows = []
    if args.jobs <= 1:
        _init(ctx)
        for i, seed in enumerate(seeds):
            rows.append(_solve_one(seed))
            _progress(i, len(seeds), rows[-1])
    else:
        with mp.get_context("fork").Pool(args.jobs, initializer=_init, initargs=(ctx,)) as pool:
            for i, row in enumerate(pool.imap_unordered(_solve_one, seeds, chunksize=1)):
                rows.append(row)
                _progress(i, len(seeds), row)
    wall = time.perf_counter() - t0
    rows.sort(key=lambda r: r["seed"])
    summary = summarise(rows)
    meta = {**{k: v for k, v in ctx.items()}, "seeds": args.seeds, "jobs": args.jobs,
            "compile_seconds": max(r["compile"] for r in rows) if rows else 0.0, "wall_seconds": wall,
            **machine.describe()}
    print_table(meta, summary)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"meta": meta, "summary": summary, "deals": rows}, fh, indent=1)
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


def _progress(i, n, row):
    if sys.stderr.isatty() or os.environ.get("AISLE_PROGRESS"):
        print(f"[{i + 1}/{n}] seed {row['seed']}: {row['verdict']} {row['seconds']:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
