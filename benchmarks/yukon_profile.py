"""Where the Yukon class search's time goes, by compiled function: a ``perf`` profile.

    python benchmarks/yukon_profile.py [--seed 2852] [--max-nodes N] [--top 30] [--json PATH]

Numba's compiled code is anonymous memory to ``perf``, so the search runs in a child process
that compiles every kernel afresh (a temporary ``NUMBA_CACHE_DIR``: a kernel loaded from the
cache has no function table to read), writes ``/tmp/perf-PID.map`` (the address and size of each
compiled function, the format ``perf report`` reads for JIT code), and only then starts the
timed search, which ``perf record -e cpu-clock`` samples.  Shares are of the samples taken
(self time; a function inlined into its caller counts as the caller).  Needs ``perf``
(Debian: ``linux-perf``); a virtual machine without hardware counters still has ``cpu-clock``.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

import machine  # noqa: E402  (benchmarks/machine.py)

# The child: compile, write the map, signal, search.  argv: checkout seed max_nodes ready_file
_CHILD = r"""
import gc, os, sys, time
sys.path.insert(0, sys.argv[1])
from numba.core.registry import CPUDispatcher
from solvers import get_solver
from solvers.core.search import DFS, Limits
from solvers.games.yukon.plugs import PLUGS
from solvers.games.yukon.solver import solver_root
solver = get_solver("yukon")
solver.ready()
root = solver_root(solver.game.deal(int(sys.argv[2]), "aisleriot").array)
DFS(PLUGS["open_class"], Limits(1000, None, 4096), keys_only=True, store_dead_ends=False).run(root)
rows = set()
for obj in gc.get_objects():
    if isinstance(obj, CPUDispatcher):
        for cres in obj.overloads.values():
            lib = cres.library
            for fn in lib._final_module.functions:
                if not fn.is_declaration:
                    address = lib.get_pointer_to_function(fn.name)
                    if address:
                        rows.add((address, fn.name))
rows = sorted(rows)
with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
    for i, (address, name) in enumerate(rows):
        size = min(rows[i + 1][0] - address, 1 << 20) if i + 1 < len(rows) else 1 << 16
        out.write(f"{address:x} {size:x} {name}\n")
max_nodes = None if sys.argv[3] == "none" else int(sys.argv[3])
dfs = DFS(PLUGS["open_class"], Limits(max_nodes, None, 4096), keys_only=True,
          store_dead_ends=False)
gc.freeze()              # else the exit's collection of the compiler's objects is sampled too
with open(sys.argv[4], "w") as f:
    f.write(str(os.getpid()))
time.sleep(0.5)                                    # perf attaches
t = time.process_time()
r = dfs.run(root)
print(r.verdict, r.nodes_expanded, time.process_time() - t)
"""


def short_name(symbol):
    """``module.function`` from a Numba symbol (``_ZN7solvers5yukon7classes11_pile_terms...``),
    or the symbol itself."""
    if not symbol.startswith(("_ZN", "cfunc._ZN")):
        return symbol
    parts, i = [], symbol.index("_ZN") + 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j:j + n])
        i = j + n
    return ".".join(parts[-2:]) if parts else symbol


def profile(seed, max_nodes, checkout):
    """Run the child under ``perf record``: ``(rows, verdict line)``, rows ``(share %, name)``."""
    if shutil.which("perf") is None:
        raise SystemExit("yukon_profile: perf not found (Debian: apt-get install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        ready = os.path.join(tmp, "ready")
        data = os.path.join(tmp, "perf.data")
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        child = subprocess.Popen([sys.executable, "-c", _CHILD, checkout, str(seed),
                                  "none" if max_nodes is None else str(max_nodes), ready],
                                 env=env, stdout=subprocess.PIPE, text=True)
        while not os.path.exists(ready) or not open(ready).read():
            if child.poll() is not None:
                raise SystemExit(f"yukon_profile: the search process failed (seed {seed})")
            time.sleep(0.2)
        pid = int(open(ready).read())
        rec = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "2000",
                                "-p", str(pid), "-o", data],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        out, _ = child.communicate()
        rec.wait()
        report = subprocess.run(["perf", "report", "-i", data, "--sort", "sym", "--stdio"],
                                capture_output=True, text=True).stdout
        if os.path.exists(f"/tmp/perf-{pid}.map"):
            os.remove(f"/tmp/perf-{pid}.map")
    rows = []
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if m:
            rows.append((float(m.group(1)), short_name(m.group(2))))
    merged = {}
    for share, name in rows:                       # specializations of one function together
        merged[name] = merged.get(name, 0.0) + share
    return sorted(((s, n) for n, s in merged.items()), reverse=True), out.strip()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=2852, help="Aisleriot seed (default 2852)")
    ap.add_argument("--max-nodes", type=int, default=None,
                    help="classes to search (default: the whole proof)")
    ap.add_argument("--top", type=int, default=30, help="functions listed (default 30)")
    ap.add_argument("--checkout", default=HERE, help="checkout to profile (default: this one)")
    ap.add_argument("--json", metavar="PATH", help="write the shares here")
    args = ap.parse_args(argv)
    if args.max_nodes is not None and args.max_nodes < 1:
        ap.error(f"--max-nodes must be at least 1, got {args.max_nodes}")
    if args.top < 1:
        ap.error(f"--top must be at least 1, got {args.top}")
    if not os.path.isdir(os.path.join(args.checkout, "solvers")):
        ap.error(f"--checkout {args.checkout!r} is not a checkout of this project (no solvers/)")
    rows, result = profile(args.seed, args.max_nodes, os.path.abspath(args.checkout))
    print(f"yukon class search, seed {args.seed}: {result} (verdict, classes, cpu s); "
          f"{machine.header()}")
    print(f"{'share %':>8}  function")
    for share, name in rows[:args.top]:
        print(f"{share:8.2f}  {name}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"seed": args.seed, "result": result, "machine": machine.describe(),
                       "shares": [{"function": n, "percent": s} for s, n in rows]}, f, indent=1)


if __name__ == "__main__":
    main()
