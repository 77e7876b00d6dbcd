"""Yukon proof speed: the open-mode class search alone on fixed deals, medians over runs.

    python benchmarks/yukon_proofs.py [--seeds 473,2852,2207,1829] [--runs 3]
        [--max-nodes N] [--against PATH | --threads N] [--json PATH]

The class search (``PLUGS["open_class"]``, as the solver runs it after its probes) decides
most hard Yukon deals, so its classes and time per class are what a pruning rule or a faster
kernel changes.  Each (checkout, seed, run) is a fresh process, and with ``--against`` (another
checkout of this project) the two checkouts' runs alternate, so that a shared machine's noise
falls on both alike; the table gives medians of CPU seconds, microseconds per class, and the
ratio of the medians (other / this).  With ``--threads N`` the other side is this checkout
on N threads (:mod:`solvers.core.split_dfs`, after a one-thread lead of 20,000 classes, as the solver
runs it), and the times compared are wall seconds, since the threads' CPU seconds add up.
Compile / cache-load time is measured apart.  The default seeds are proofs of 0.8-3.4M
classes, none of them from the held-out range.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

from rules.errors import InvalidSeedError  # noqa: E402
from solvers.studies.seeds import parse_seeds  # noqa: E402
import machine  # noqa: E402  (benchmarks/machine.py)

DEFAULT_SEEDS = "473,2852,2207,1829"

# One run in a fresh process, on the checkout given as argv[1]: prints one JSON line.
_RUN = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from solvers import get_solver
try:
    from solvers.core.search import DFS, Limits
    from solvers.games.yukon.plugs import PLUGS
    from solvers.games.yukon.solver import solver_root
except ImportError:              # a checkout compared --against from before the solvers/ layers
    from solvers.search import DFS, Limits
    from solvers.yukon.plugs import PLUGS
    from solvers.yukon.solver import solver_root
t = time.perf_counter()
solver = get_solver("yukon")
solver.ready()
compile_s = time.perf_counter() - t
seed, max_nodes, memory_mb = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
threads = int(sys.argv[5])
root = solver_root(solver.game.deal(seed, "aisleriot").array)
dfs = DFS(PLUGS["open_class"], Limits(None if max_nodes == "none" else int(max_nodes), None,
                                      memory_mb), keys_only=True, store_dead_ends=False)
c0, w0 = time.process_time(), time.perf_counter()
if threads > 1:                  # (a checkout compared --against may not have split_dfs)
    try:
        from solvers.core.split_dfs import run_dfs
    except ImportError:
        from solvers.split_dfs import run_dfs
    r = run_dfs(dfs, root, threads)
else:
    r = dfs.run(root)
print(json.dumps({"seed": seed, "verdict": r.verdict, "limit": r.limit,
                  "classes": int(r.nodes_expanded), "stored": int(r.states_stored),
                  "cpu": time.process_time() - c0, "wall": time.perf_counter() - w0,
                  "peak_bytes": int(r.peak_memory_bytes), "compile": compile_s}))
"""


def run_once(checkout, seed, max_nodes, memory_mb, threads=1):
    """One search in a fresh process on ``checkout`` with ``threads``: its JSON record."""
    out = subprocess.run([sys.executable, "-c", _RUN, checkout, str(seed),
                          "none" if max_nodes is None else str(max_nodes), str(memory_mb),
                          str(threads)],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"yukon_proofs: seed {seed} on {checkout} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def summary(runs, key):
    """Medians of one (configuration, seed)'s runs, times by ``key`` ("cpu" or "wall"); on one
    thread the classes must agree between runs (on several they vary with the timing)."""
    classes = sorted({r["classes"] for r in runs})
    if len(classes) != 1 and runs[0].get("threads", 1) == 1:
        raise SystemExit(f"yukon_proofs: classes differ between runs: {classes}")
    n = int(statistics.median(r["classes"] for r in runs))
    t = statistics.median(r[key] for r in runs)
    return {"verdict": runs[0]["verdict"], "classes": n, "stored": runs[0]["stored"],
            "seconds_median": t, "seconds_runs": [r[key] for r in runs], "timed": key,
            "us_per_class": 1e6 * t / max(n, 1),
            "peak_bytes": max(r["peak_bytes"] for r in runs),
            "compile_median": statistics.median(r["compile"] for r in runs)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default=DEFAULT_SEEDS,
                    help=f"Aisleriot seeds, e.g. 473,2852 or 1-5 (default: {DEFAULT_SEEDS})")
    ap.add_argument("--runs", type=int, default=3, help="runs per seed and checkout (default 3)")
    ap.add_argument("--max-nodes", type=int, default=None,
                    help="classes per run (default: no limit, the whole proof)")
    ap.add_argument("--memory-mb", type=int, default=4096, help="memory limit (default 4096)")
    other = ap.add_mutually_exclusive_group()
    other.add_argument("--against", metavar="PATH",
                       help="another checkout of this project, run alternately with this one")
    other.add_argument("--threads", type=int, metavar="N",
                       help="compare with this checkout on N threads, run alternately")
    ap.add_argument("--json", metavar="PATH", help="write the results here")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, got {args.runs}")
    if args.max_nodes is not None and args.max_nodes < 1:
        ap.error(f"--max-nodes must be at least 1, got {args.max_nodes}")
    if args.threads is not None and args.threads < 2:
        ap.error(f"--threads must be at least 2, got {args.threads}")
    if args.against and not os.path.isdir(os.path.join(args.against, "solvers")):
        ap.error(f"--against {args.against!r} is not a checkout of this project (no solvers/)")
    if args.against and os.path.realpath(args.against) == os.path.realpath(HERE):
        ap.error(f"--against {args.against!r} is this checkout itself")
    try:
        seeds = [int(s) for s in parse_seeds(args.seeds, "aisleriot")]
    except InvalidSeedError as e:
        ap.error(str(e))
    configs = [(HERE, 1)]                    # (checkout, threads); the first is "this"
    if args.against:
        configs.append((os.path.abspath(args.against), 1))
    elif args.threads:
        configs.append((HERE, args.threads))
    key = "wall" if args.threads else "cpu"
    names = {c: (f"{args.threads} threads" if c[1] > 1 else os.path.basename(c[0]) or c[0])
             for c in configs}
    runs = {(c, s): [] for c in configs for s in seeds}
    t0 = time.perf_counter()
    for seed in seeds:
        for i in range(args.runs):
            for c in (configs if i % 2 == 0 else configs[::-1]):
                rec = run_once(c[0], seed, args.max_nodes, args.memory_mb, c[1])
                rec["threads"] = c[1]
                runs[(c, seed)].append(rec)
                print(f"  seed {seed} run {i + 1}/{args.runs} {names[c]}: {rec[key]:.2f} s",
                      file=sys.stderr, flush=True)
    table = {s: {c: summary(runs[(c, s)], key) for c in configs} for s in seeds}
    head = f"{'seed':>6} {'verdict':>11} {'classes':>10} {key + ' s':>8} {'us/class':>9}"
    if len(configs) > 1:
        head += f" {'other classes':>13} {'other ' + key + ' s':>12} {'ratio':>6}"
    compile_s = statistics.median(r["compile"] for rs in runs.values() for r in rs)
    other_note = f"; other: {names[configs[1]]}" if len(configs) > 1 else ""
    print(f"yukon class search, open mode, {args.runs} runs each, medians of {key} time"
          f"{other_note}; compile/cache-load per process {compile_s:.2f} s (median); "
          f"wall {time.perf_counter() - t0:.0f} s; {machine.header()}")
    print(head)
    for s in seeds:
        a = table[s][configs[0]]
        line = (f"{s:>6} {a['verdict']:>11} {a['classes']:>10} {a['seconds_median']:>8.2f} "
                f"{a['us_per_class']:>9.2f}")
        if len(configs) > 1:
            b = table[s][configs[1]]
            line += (f" {b['classes']:>13} {b['seconds_median']:>12.2f} "
                     f"{b['seconds_median'] / a['seconds_median']:>6.2f}")
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": {"seeds": seeds, "runs": args.runs, "max_nodes": args.max_nodes,
                                "configurations": [names[c] for c in configs],
                                "checkouts": [c[0] for c in configs], **machine.describe()},
                       "results": {str(s): {names[c]: table[s][c] for c in configs}
                                   for s in seeds}},
                      f, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
