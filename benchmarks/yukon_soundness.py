"""Yukon pruning soundness at scale: the differential properties of tests/solvers/games/yukon/
with far more random examples than CI runs, and real-deal endgames against the unpruned search.

    python benchmarks/yukon_soundness.py [--examples 50000] [--seeds 1-400]
        [--back 30,45,60,75] [--rng 7] [--only NAME ...] [--json PATH]

Part 1 runs each property (dead-end rules, twin rule, safe-home and idle-move rules, rule 6,
the class search, the class cover, rule 5) on ``--examples`` fresh random positions.  Part 2
takes every seed the solver wins in open mode, plays its solution up to ``--back`` moves
before the end, walks 5-39 random legal moves, and compares the open-mode verdicts of the
solver's search, the class search and the unpruned reference (positions the reference cannot
decide in 5M nodes are counted apart).  This is how a new pruning rule is checked before it
is kept; the time it takes is not a figure of merit.  Exit 1 if anything disagrees.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from rules.errors import InvalidSeedError  # noqa: E402
from solvers import get_solver  # noqa: E402
from solvers.core.search import DFS, Limits  # noqa: E402
from solvers.studies.seeds import parse_seeds  # noqa: E402
from solvers.games.yukon.plugs import PLUGS  # noqa: E402
from solvers.games.yukon.solver import solver_root  # noqa: E402
from tests.support import yukon as Y, yukon_reference as ref  # noqa: E402

REFERENCE_NODES = 5_000_000


PROPERTIES = [
    ("dead-end rules", lambda: Y.small_positions(max_out=34), Y.check_dead_end),
    ("twin rule, planted", lambda: Y.twin_planted_positions().filter(lambda a: a is not None),
     Y.check_dead_end),
    ("pruned search", lambda: Y.small_positions(), Y.check_pruned_search_agrees),
    ("rule 6", lambda: Y.king_room_positions(), Y.check_pruned_search_agrees),
    ("class search", lambda: st.one_of(Y.small_positions(max_out=24), Y.run_positions()),
     Y.check_class_search_agrees),
    ("class cover", lambda: st.one_of(Y.small_positions(max_out=30, full_piles=False),
                                      Y.run_positions(max_out=30)), Y.check_class_covers),
    ("rule 5", lambda: Y.small_positions(), Y.check_rule5),
]


def run_property(strategy, check, examples):
    """``check`` on ``examples`` random positions: None, or the failure's text."""
    def prop(a):
        check(a)
    test = settings(max_examples=examples, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))(given(strategy)(prop))
    try:
        test()
    except Exception as exc:                # hypothesis re-raises the shrunk failure
        return f"{type(exc).__name__}: {exc}"
    return None


def _verdict(plug, a):
    return DFS(plug, Limits(REFERENCE_NODES, None, 3000), keys_only=True).run(
        solver_root(a)).verdict


def endgames(seeds, backs, rng):
    """Part 2: verdict counts, and the disagreements (seed, back, verdicts, layout)."""
    solver = get_solver("yukon")
    counts, bad = {"solved": 0, "unsolvable": 0, "reference unknown": 0}, []
    for seed in seeds:
        won = solver.solve(seed, rules="open", timeout=5)
        if won.verdict != "solved":
            continue
        for back in backs:
            state = won.start.copy()
            for move in won.moves[: max(0, len(won.moves) - back)]:
                state.apply(move)
            for _ in range(int(rng.integers(5, 40))):
                moves = state.legal_moves(distinct=True)
                if not moves:
                    break
                state.apply(moves[int(rng.integers(len(moves)))])
            a = state.array
            plain = _verdict(ref.PLAIN_PLUGS["open"], a)
            if plain == "unknown":
                counts["reference unknown"] += 1
                continue
            found = (_verdict(PLUGS["open"], a), _verdict(PLUGS["open_class"], a))
            if found != (plain, plain):
                bad.append((seed, back, plain, found, state.layout()))
            counts[plain] += 1
    return counts, bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--examples", type=int, default=50_000, help="random positions per property")
    ap.add_argument("--seeds", default="1-400", help="deals for the endgames ('' for none)")
    ap.add_argument("--back", default="30,45,60,75", help="moves before the end of a solution")
    ap.add_argument("--rng", type=int, default=7, help="seed of the endgames' random walks")
    ap.add_argument("--only", nargs="*", default=None,
                    help="only the properties whose name contains one of these")
    ap.add_argument("--json", default=None, help="write the results here")
    args = ap.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds) if args.seeds else []
        backs = [int(b) for b in args.back.split(",")]
    except (InvalidSeedError, ValueError) as exc:
        ap.error(str(exc))
    if args.examples < 1:
        ap.error(f"--examples must be positive, not {args.examples}")
    out = {"examples": args.examples, "properties": [], "endgames": None}
    failed = False
    chosen = [p for p in PROPERTIES if not args.only or any(o in p[0] for o in args.only)]
    if chosen:
        print(f"{'property':<22}{'examples':>10}{'seconds':>10}  result")
    for name, strategy, check in chosen:
        t = time.perf_counter()
        error = run_property(strategy(), check, args.examples)
        secs = time.perf_counter() - t
        failed |= error is not None
        print(f"{name:<22}{args.examples:>10}{secs:>10.0f}  {'ok' if error is None else error[:300]}",
              flush=True)
        out["properties"].append({"name": name, "seconds": secs, "error": error})
    if seeds:
        t = time.perf_counter()
        counts, bad = endgames(seeds, backs, np.random.default_rng(args.rng))
        secs = time.perf_counter() - t
        failed |= bool(bad)
        print(f"endgames of seeds {args.seeds} (back {args.back}): "
              + ", ".join(f"{v} {k}" for k, v in counts.items())
              + f", {len(bad)} disagreements, {secs:.0f} s")
        for seed, back, plain, found, layout in bad:
            print(f"  seed {seed} back {back}: reference {plain}, pruned/class {found}: {layout}")
        out["endgames"] = {"seeds": args.seeds, "back": backs, "counts": counts, "seconds": secs,
                           "disagreements": [list(map(str, b)) for b in bad]}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
