"""Yukon proof speed: the open-mode class search alone on fixed deals, medians over runs.

    python benchmarks/yukon_proofs.py [--seeds 473,2852,2207,1829] [--runs 3]
        [--max-nodes N] [--against PATH] [--json PATH]

The class search (``PLUGS["open_class"]``, as the solver runs it after its probes) decides
most hard Yukon deals, so its classes and time per class are what a pruning rule or a faster
kernel changes.  Each (checkout, seed, run) is a fresh process, and with ``--against`` (another
checkout of this project) the two checkouts' runs alternate, so that a shared machine's noise
falls on both alike; the table gives medians of CPU seconds, microseconds per class, and the
ratio of the medians (other / this).  Compile / cache-load time is measured apart.  The default
seeds are proofs of 0.8-3.4M classes, none of them from the held-out range.
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
from solvers.seeds import parse_seeds  # noqa: E402
import machine  # noqa: E402  (benchmarks/machine.py)

DEFAULT_SEEDS = "473,2852,2207,1829"

# One run in a fresh process, on the checkout given as argv[1]: prints one JSON line.
_RUN = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from solvers import get_solver
from solvers.search import DFS, Limits
from solvers.yukon.plugs import PLUGS
from solvers.yukon.solver import solver_root
t = time.perf_counter()
solver = get_solver("yukon")
solver.ready()
compile_s = time.perf_counter() - t
seed, max_nodes, memory_mb = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
root = solver_root(solver.game.deal(seed, "aisleriot").array)
dfs = DFS(PLUGS["open_class"], Limits(None if max_nodes == "none" else int(max_nodes), None,
                                      memory_mb), keys_only=True, store_dead_ends=False)
c0, w0 = time.process_time(), time.perf_counter()
r = dfs.run(root)
print(json.dumps({"seed": seed, "verdict": r.verdict, "limit": r.limit,
                  "classes": int(r.nodes_expanded), "stored": int(r.states_stored),
                  "cpu": time.process_time() - c0, "wall": time.perf_counter() - w0,
                  "peak_bytes": int(r.peak_memory_bytes), "compile": compile_s}))
"""


def run_once(checkout, seed, max_nodes, memory_mb):
    """One search in a fresh process on ``checkout``: its JSON record."""
    out = subprocess.run([sys.executable, "-c", _RUN, checkout, str(seed),
                          "none" if max_nodes is None else str(max_nodes), str(memory_mb)],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"yukon_proofs: seed {seed} on {checkout} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def summary(runs):
    """Medians of one (checkout, seed)'s runs; the classes must agree between runs."""
    classes = {r["classes"] for r in runs}
    if len(classes) != 1:
        raise SystemExit(f"yukon_proofs: classes differ between runs: {sorted(classes)}")
    n = classes.pop()
    cpu = statistics.median(r["cpu"] for r in runs)
    return {"verdict": runs[0]["verdict"], "classes": n, "stored": runs[0]["stored"],
            "cpu_median": cpu, "cpu_runs": [r["cpu"] for r in runs],
            "us_per_class": 1e6 * cpu / max(n, 1),
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
    ap.add_argument("--against", metavar="PATH",
                    help="another checkout of this project, run alternately with this one")
    ap.add_argument("--json", metavar="PATH", help="write the results here")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, got {args.runs}")
    if args.max_nodes is not None and args.max_nodes < 1:
        ap.error(f"--max-nodes must be at least 1, got {args.max_nodes}")
    if args.against and not os.path.isdir(os.path.join(args.against, "solvers")):
        ap.error(f"--against {args.against!r} is not a checkout of this project (no solvers/)")
    if args.against and os.path.realpath(args.against) == os.path.realpath(HERE):
        ap.error(f"--against {args.against!r} is this checkout itself")
    try:
        seeds = [int(s) for s in parse_seeds(args.seeds, "aisleriot")]
    except InvalidSeedError as e:
        ap.error(str(e))
    checkouts = [HERE] + ([os.path.abspath(args.against)] if args.against else [])
    runs = {(c, s): [] for c in checkouts for s in seeds}
    t0 = time.perf_counter()
    for seed in seeds:
        for i in range(args.runs):
            for c in (checkouts if i % 2 == 0 else checkouts[::-1]):
                runs[(c, seed)].append(run_once(c, seed, args.max_nodes, args.memory_mb))
                print(f"  seed {seed} run {i + 1}/{args.runs} {os.path.basename(c) or c}: "
                      f"{runs[(c, seed)][-1]['cpu']:.2f} s", file=sys.stderr, flush=True)
    table = {s: {c: summary(runs[(c, s)]) for c in checkouts} for s in seeds}
    head = f"{'seed':>6} {'verdict':>11} {'classes':>10} {'cpu s':>8} {'us/class':>9}"
    if args.against:
        head += f" {'other classes':>13} {'other cpu s':>11} {'ratio':>6}"
    compile_s = statistics.median(r["compile"] for rs in runs.values() for r in rs)
    print(f"yukon class search, open mode, {args.runs} runs each, medians of CPU time; "
          f"compile/cache-load per process {compile_s:.2f} s (median); "
          f"wall {time.perf_counter() - t0:.0f} s; {machine.header()}")
    print(head)
    for s in seeds:
        a = table[s][HERE]
        line = (f"{s:>6} {a['verdict']:>11} {a['classes']:>10} {a['cpu_median']:>8.2f} "
                f"{a['us_per_class']:>9.2f}")
        if args.against:
            b = table[s][checkouts[1]]
            line += (f" {b['classes']:>13} {b['cpu_median']:>11.2f} "
                     f"{b['cpu_median'] / a['cpu_median']:>6.2f}")
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": {"seeds": seeds, "runs": args.runs, "max_nodes": args.max_nodes,
                                "checkouts": checkouts, **machine.describe()},
                       "results": {str(s): {c: table[s][c] for c in checkouts} for s in seeds}},
                      f, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
