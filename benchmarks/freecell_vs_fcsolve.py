"""Benchmark: this library's Freecell solver against Freecell Solver (fc-solve) on MS deals.

    python benchmarks/freecell_vs_fcsolve.py                       # MS 1-1000
    python benchmarks/freecell_vs_fcsolve.py --deals 1-32000 --json results/fc32000.json
    python benchmarks/freecell_vs_fcsolve.py --method fast,astar --length-sample 300
    python benchmarks/freecell_vs_fcsolve.py --deals 1-8000 --length-sample 0 --parallel 2

Needs Freecell Solver's command-line tools (``freecell-solver-range-parallel-solve``,
``fc-solve``); on Debian/Ubuntu: ``apt-get install freecell-solver-bin``.

What is measured, in one run, on the same deals:

* fc-solve ``-l lg`` ("lucky gamble", its fastest preset) over the whole range with
  ``freecell-solver-range-parallel-solve START END 1 -l lg``: verdict counts from its
  ``Unsolved``/``Intractable`` lines, CPU seconds of the child process (getrusage), wall
  seconds, and per-deal seconds from the timestamps of its ``Reached Board No. N at T`` lines.
* Our solver, in this process, through its batch API (``SOLVER.solve_many`` of
  :mod:`solvers.games.freecell` over the range): verdicts, process CPU and wall seconds of the whole
  call, and per-deal seconds (each result's ``seconds``: deals solved inside one call of the
  batch kernel share that call's time in proportion to their nodes).  Compile / cache-load
  time (``SOLVER.ready()``) is reported apart, and so is a fresh process solving deal 1
  (``python -c "...SOLVER.solve(1)"``).  Every solution is
  then replayed with the independent referee (outside the timings).
* Solution length in atomic single-card moves.  Ours: ``n`` per ``drag s n d`` plus every card
  autoplay sends home.  fc-solve's range solver prints no solutions, so lengths come from
  ``fc-solve -l lg -m -p -t BOARD`` (and ``-l ve``, its short-solution preset) on the first
  ``--length-sample`` deals, one process per deal: every listed move counts its cards
  (``Move a card`` = 1, ``Move N cards`` = N); fc-solve has no implicit autoplay, so its
  foundation moves are listed and counted too -- the two counts measure the same thing.
  Caveat: fc-solve plays the standard rules (its own supermove capacity, no forced autoplay),
  ours plays Aisleriot's, so lengths are comparable but not from identical move sets.
* ``ratio_vs_lg`` = our total CPU seconds / fc-solve -l lg CPU seconds on the same range.
* With ``--parallel N``, both on N cores, after the runs above: N range solvers started at once,
  each on a contiguous Nth of the range (wall seconds until the last one ends), against
  ``SOLVER.solve_many(deals, jobs=N)`` with the first ``--method`` (wall seconds of the call,
  which include spawning the N workers and loading their kernels from Numba's cache).  Deals per
  second for both, ``wall_ratio`` = our wall / theirs, CPU seconds of both (children's getrusage
  added for ours), and whether our results equal the one-process run's (verdicts, moves, nodes);
  our solutions are replayed too.  ``workers_start_seconds``: the wall time of a call with one
  deal per worker just before, i.e. about what start-up adds to ours.  ``--jobs`` is something
  else: the fc-solve processes that compute solution lengths.
* With ``--profile``, after the runs above, a second pass of our first ``--method`` over the
  range says where its time goes: wall seconds inside the batch kernel (first slices, many
  deals a call), inside the resumed searches' kernel calls, in table upkeep called from Python
  (rehashing a grown table, emptying it between deals), and the rest (Python: the portfolio's
  round trips, building results); and the share of the time spent on the deals decided in
  their first slice, and on the costliest 1% and 10% of deals.  The pass is timed apart from
  the figures above (its wrappers add a little).
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import machine  # noqa: E402  (benchmarks/machine.py)

RANGE_SOLVER = "freecell-solver-range-parallel-solve"
FC_SOLVE = "fc-solve"
INSTALL = "apt-get install freecell-solver-bin"


def parse_range(text):
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"--deals {text!r}: expected START-END, e.g. 1-1000")
    a = int(m.group(1))
    b = int(m.group(2) or a)
    if not 1 <= a <= b:
        raise argparse.ArgumentTypeError(f"--deals {text!r}: need 1 <= START <= END")
    return a, b


def pct(values, q):
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summarize(name, verdicts, cpu, wall, per_deal, lengths, n):
    return {
        "solver": name,
        "deals": n,
        "solved": verdicts.get("solved", 0),
        "unsolvable": verdicts.get("unsolvable", 0),
        "unknown": verdicts.get("unknown", 0),
        "cpu_seconds": round(cpu, 4),
        "wall_seconds": round(wall, 4),
        "median_seconds_per_deal": round(statistics.median(per_deal), 6) if per_deal else None,
        "p99_seconds_per_deal": round(pct(per_deal, 0.99), 6) if per_deal else None,
        "max_seconds_per_deal": round(max(per_deal), 6) if per_deal else None,
        "deals_per_second": round(n / wall, 1) if wall > 0 else None,
        "mean_atomic_length": round(statistics.mean(lengths), 2) if lengths else None,
        "length_sample": len(lengths),
    }


# ---- fc-solve -------------------------------------------------------------------------------
def children_cpu():
    """CPU seconds (user + system) of this process's children that have ended so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def range_command(start, end, preset):
    return [RANGE_SOLVER, str(start), str(end), "1", "-l", preset]


def run_fcsolve_range(start, end, preset="lg"):
    before = children_cpu()
    t0 = time.perf_counter()
    out = subprocess.run(range_command(start, end, preset), capture_output=True, text=True,
                         check=True).stdout
    wall = time.perf_counter() - t0
    cpu = children_cpu() - before
    verdicts, per_deal, unsolved = parse_range_output(out, start, end)
    return verdicts, cpu, wall, per_deal, unsolved


def split_range(start, end, parts):
    """``parts`` contiguous (first, last) shares of START-END, sizes differing by at most one."""
    n = end - start + 1
    edges = [start + n * k // parts for k in range(parts + 1)]
    return [(a, b - 1) for a, b in zip(edges, edges[1:]) if b > a]


def run_fcsolve_split(start, end, parts, preset="lg"):
    """``parts`` range solvers started at once, each on its share of START-END: verdict counts,
    their CPU seconds, the wall seconds until the last one ends, per-deal seconds, unsolvable."""
    shares = split_range(start, end, parts)
    before = children_cpu()
    t0 = time.perf_counter()
    # each writes to a file of its own: one pipe read after another would stall the others
    # once their pipe buffers fill, running them one after another
    files = [tempfile.TemporaryFile("w+") for _ in shares]
    procs = [subprocess.Popen(range_command(a, b, preset), stdout=f, stderr=subprocess.DEVNULL,
                              text=True) for (a, b), f in zip(shares, files)]
    for proc in procs:
        proc.wait()
    wall = time.perf_counter() - t0
    cpu = children_cpu() - before
    for proc in procs:
        if proc.returncode:
            raise subprocess.CalledProcessError(proc.returncode, proc.args)
    outs = []
    for f in files:
        f.seek(0)
        outs.append(f.read())
        f.close()
    verdicts, per_deal, unsolved = {}, [], []
    for (a, b), out in zip(shares, outs):
        v, p, u = parse_range_output(out, a, b)
        for key, count in v.items():
            verdicts[key] = verdicts.get(key, 0) + count
        per_deal += p
        unsolved += u
    return verdicts, cpu, wall, per_deal, unsolved


def parse_range_output(out, start, end):
    """Verdict counts, per-deal seconds and unsolvable deals from a range solver's output."""
    unsolved, intractable, stamps = set(), set(), {}
    started = None
    for line in out.splitlines():
        if line.startswith("Started at"):
            started = float(line.split()[-1])
        elif line.startswith("Unsolved Board No."):
            unsolved.add(int(line.split()[3]))
        elif line.startswith("Intractable Board No."):
            intractable.add(int(line.split()[3]))
        else:
            m = re.match(r"Reached Board No\. (\d+) at ([\d.]+)", line)
            if m:
                stamps[int(m.group(1))] = float(m.group(2))
    per_deal, prev = [], started
    for d in range(start, end + 1):
        if d in stamps and prev is not None:
            per_deal.append(max(0.0, stamps[d] - prev))
            prev = stamps[d]
    n = end - start + 1
    verdicts = {"unsolvable": len(unsolved), "unknown": len(intractable)}
    verdicts["solved"] = n - len(unsolved) - len(intractable)
    return verdicts, per_deal, sorted(unsolved)


_MOVE = re.compile(r"^Move (a card|(\d+) cards) ")


def fcsolve_length(board_text, preset):
    with tempfile.NamedTemporaryFile("w", suffix=".board", delete=False) as f:
        f.write(board_text)
        path = f.name
    try:
        out = subprocess.run([FC_SOLVE, "-l", preset, "-m", "-p", "-t", path],
                             capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    if "This game is solveable." not in out:
        return None
    total = 0
    for line in out.splitlines():
        m = _MOVE.match(line)
        if m:
            total += 1 if m.group(2) is None else int(m.group(2))
    return total


def fcsolve_lengths(deals, preset, jobs):
    from rules import get_game
    from rules.freecell import format_fcs_board

    game = get_game("freecell")
    boards = [format_fcs_board(game.deal(d, numbering="microsoft")) + "\n" for d in deals]
    with ThreadPoolExecutor(jobs) as pool:
        return [x for x in pool.map(lambda b: fcsolve_length(b, preset), boards) if x is not None]


# ---- ours -----------------------------------------------------------------------------------
def fresh_process_deal1(method):
    code = ("import time; t=time.perf_counter(); from solvers.games.freecell import SOLVER; "
            f"r=SOLVER.solve(1, method={method!r}); print(r.verdict, time.perf_counter()-t)")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(root))
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return round(time.perf_counter() - t0, 3), out.stdout.strip() or out.stderr.strip()[-300:]


def run_ours(deals, method, max_nodes, timeout, max_memory_mb, verify, progress):
    """Our solver's batch API (``solve_many``) over the range, in this process: total CPU
    (process time) and wall seconds around the whole call; per-deal seconds are each result's
    ``seconds`` (deals solved inside one batch-kernel call share that call's time in proportion
    to their nodes, see :mod:`solvers.games.freecell.batch`)."""
    from solvers.games.freecell import SOLVER

    w0 = time.perf_counter()

    def report(i, r):
        if progress and (i + 1) % 1000 == 0:
            print(f"  {method}: {i + 1}/{len(deals)} deals, {time.perf_counter() - w0:.1f} s",
                  file=sys.stderr, flush=True)

    c0, w0 = time.process_time(), time.perf_counter()
    results = SOLVER.solve_many(deals, method=method, max_nodes=max_nodes, timeout=timeout,
                                max_memory_mb=max_memory_mb, progress=report)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return (results, verdict_counts(results), cpu, wall, [r.seconds for r in results],
            [r.atomic_length for r in results if r.verdict == "solved"]) + verify_all(results, verify)


def run_ours_parallel(deals, method, jobs, max_nodes, timeout, max_memory_mb, verify):
    """``solve_many(deals, jobs=jobs)``: wall seconds of the whole call (workers' start-up
    included), CPU seconds of this process and of the workers (reaped when the call returns)."""
    from solvers.games.freecell import SOLVER

    c0, k0, w0 = time.process_time(), children_cpu(), time.perf_counter()
    results = SOLVER.solve_many(deals, method=method, max_nodes=max_nodes, timeout=timeout,
                                max_memory_mb=max_memory_mb, jobs=jobs)
    wall = time.perf_counter() - w0
    cpu = time.process_time() - c0 + children_cpu() - k0
    return (results, verdict_counts(results), cpu, wall, [r.seconds for r in results],
            [r.atomic_length for r in results if r.verdict == "solved"]) + verify_all(results, verify)


def verdict_counts(results):
    counts = {}
    for r in results:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    return counts


def verify_all(results, verify):
    """Replay every solution with the referee (when ``verify``): (verified, failures)."""
    verified = failures = 0
    if verify:
        for r in results:
            if r.verdict == "solved":
                try:
                    r.verify()
                    verified += 1
                except Exception as e:  # report, never hide
                    failures += 1
                    print(f"  deal {r.deal}: verification FAILED: {e}", file=sys.stderr)
    return verified, failures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--deals", type=parse_range, default=(1, 1000), help="MS deal range START-END")
    ap.add_argument("--method", default="fast", help="our method(s), comma-separated")
    ap.add_argument("--length-sample", type=int, default=1000,
                    help="first N deals for fc-solve solution lengths (lg and ve), 0 to skip")
    ap.add_argument("--max-nodes", type=int, default=None, help="our node limit per deal")
    ap.add_argument("--timeout", type=float, default=60.0, help="our seconds limit per deal")
    ap.add_argument("--max-memory-mb", type=float, default=4096, help="our memory limit per deal")
    ap.add_argument("--no-verify", action="store_true", help="skip replaying our solutions")
    ap.add_argument("--jobs", type=int, default=2, help="parallel fc-solve processes for lengths")
    ap.add_argument("--parallel", type=int, default=0, metavar="N",
                    help="also time solve_many(jobs=N) against N range solvers splitting the "
                         "range (0: skip)")
    ap.add_argument("--profile", action="store_true",
                    help="also profile our first method: kernel, table upkeep, Python, tail deals")
    ap.add_argument("--json", metavar="PATH", help="write the results as JSON")
    args = ap.parse_args(argv)
    if args.parallel < 0:
        ap.error(f"--parallel {args.parallel}: expected 0 (skip) or a number of processes")

    missing = [t for t in (RANGE_SOLVER, FC_SOLVE) if shutil.which(t) is None]
    if missing:
        print(f"error: {', '.join(missing)} not found; install Freecell Solver: {INSTALL}",
              file=sys.stderr)
        return 2

    start, end = args.deals
    deals = list(range(start, end + 1))
    report = {"deals": f"{start}-{end}", "solvers": {}, "machine": machine.describe()}

    t0 = time.perf_counter()
    from solvers.games.freecell import SOLVER
    report["import_seconds"] = round(time.perf_counter() - t0, 3)
    report["compile_or_cache_load_seconds"] = round(SOLVER.ready(), 3)

    verdicts, cpu, wall, per_deal, unsolved = run_fcsolve_range(start, end, "lg")
    lg = summarize("fc-solve -l lg", verdicts, cpu, wall, per_deal, [], len(deals))
    lg["unsolvable_deals"] = unsolved
    report["solvers"]["fc-solve-lg"] = lg

    sample = deals[:args.length_sample]
    if sample:
        for preset in ("lg", "ve"):
            lens = fcsolve_lengths(sample, preset, args.jobs)
            key = f"fc-solve-{preset}"
            if preset == "lg":
                lg["mean_atomic_length"] = round(statistics.mean(lens), 2) if lens else None
                lg["length_sample"] = len(lens)
            else:
                report["solvers"][key] = {"solver": "fc-solve -l ve (lengths only)",
                                          "mean_atomic_length": round(statistics.mean(lens), 2),
                                          "length_sample": len(lens)}

    one_process = {}
    for method in args.method.split(","):
        res, verdicts, cpu, wall, per_deal, lengths, verified, failures = run_ours(
            deals, method, args.max_nodes, args.timeout, args.max_memory_mb,
            not args.no_verify, progress=len(deals) >= 5000)
        s = summarize(f"aisle {method}", verdicts, cpu, wall, per_deal, lengths, len(deals))
        s["verified"] = verified
        s["verification_failures"] = failures
        s["unsolvable_deals"] = [r.deal for r in res if r.verdict == "unsolvable"]
        s["unknown_deals"] = [r.deal for r in res if r.verdict == "unknown"][:100]
        sample_set = set(sample)
        sl = [r.atomic_length for r in res if r.verdict == "solved" and r.deal in sample_set]
        s["mean_atomic_length_on_length_sample"] = round(statistics.mean(sl), 2) if sl else None
        s["nodes_expanded_mean"] = round(statistics.mean(r.nodes_expanded for r in res), 1)
        s["ratio_vs_lg"] = round(cpu / lg["cpu_seconds"], 3) if lg["cpu_seconds"] else None
        report["solvers"][f"aisle-{method}"] = s
        one_process[method] = res
        if "ratio_vs_lg" not in report:
            report["ratio_vs_lg"] = s["ratio_vs_lg"]
    report["fresh_process_deal1"] = dict(zip(("seconds", "output"),
                                             fresh_process_deal1(args.method.split(",")[0])))
    if args.parallel:
        report["parallel"] = run_parallel(start, end, args, one_process)
    if args.profile:
        report["profile"] = profile_ours(deals, args.method.split(",")[0])

    print_table(report)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
        print(f"wrote {args.json}")
    return 0


def profile_ours(deals, method):
    """Where our solver's time goes over ``deals`` (see the module docstring): wall seconds by
    part, and the share of time by kind of deal."""
    from solvers.games.freecell import SOLVER, batch, fused
    from solvers.games.freecell.portfolio import METHODS, Portfolio

    spent = {"batch_kernel": 0.0, "resumed_kernel": 0.0, "table_upkeep": 0.0}
    patched = [(batch, "fc_batch", "batch_kernel"), (fused, "fc_best_first", "resumed_kernel"),
               (fused, "tt3_rehash", "table_upkeep"), (fused, "tt3_clear_rows", "table_upkeep")]
    saved = [(mod, name, getattr(mod, name)) for mod, name, _ in patched]

    def timed(f, part):
        def call(*a):
            t = time.perf_counter()
            try:
                return f(*a)
            finally:
                spent[part] += time.perf_counter() - t
        return call

    for (mod, name, part), (_, _, f) in zip(patched, saved):
        setattr(mod, name, timed(f, part))
    try:
        t0 = time.perf_counter()
        res = SOLVER.solve_many(deals, method=method)
        total = time.perf_counter() - t0
    finally:
        for mod, name, f in saved:
            setattr(mod, name, f)
    first = METHODS[method].first[0] if isinstance(METHODS[method], Portfolio) else 0
    secs = sorted((r.seconds for r in res), reverse=True)
    deal_time = sum(secs) or 1.0
    out = {"wall_seconds": round(total, 3)}
    out.update({k: round(v, 3) for k, v in spent.items()})
    out["python_and_rest"] = round(total - sum(spent.values()), 3)
    out["first_slice_deals"] = sum(1 for r in res if r.nodes_expanded <= first)
    out["time_share_first_slice_deals"] = round(
        sum(r.seconds for r in res if r.nodes_expanded <= first) / deal_time, 3)
    for pct_, key in ((0.01, "time_share_top_1pct"), (0.10, "time_share_top_10pct")):
        out[key] = round(sum(secs[:max(1, int(pct_ * len(secs)))]) / deal_time, 3)
    top = max(res, key=lambda r: r.nodes_expanded)
    out["costliest_deal"] = {"deal": top.deal, "nodes": top.nodes_expanded,
                             "seconds": round(top.seconds, 4), "verdict": top.verdict}
    return out


def run_parallel(start, end, args, one_process):
    """Both solvers on ``args.parallel`` cores over START-END (see the module docstring)."""
    n, method = args.parallel, args.method.split(",")[0]
    deals = list(range(start, end + 1))
    verdicts, cpu, wall, per_deal, unsolved = run_fcsolve_split(start, end, n)
    theirs = summarize(f"fc-solve -l lg x{n}", verdicts, cpu, wall, per_deal, [], len(deals))
    theirs.update(shares=[f"{a}-{b}" for a, b in split_range(start, end, n)],
                  unsolvable_deals=unsolved)
    from solvers.games.freecell import SOLVER
    t0 = time.perf_counter()
    SOLVER.solve_many(deals[:n], method=method, jobs=n)        # one deal per worker
    start_up = time.perf_counter() - t0
    res, verdicts, cpu, wall, per_deal, lengths, verified, failures = run_ours_parallel(
        deals, method, n, args.max_nodes, args.timeout, args.max_memory_mb, not args.no_verify)
    ours = summarize(f"aisle {method} jobs={n}", verdicts, cpu, wall, per_deal, lengths, len(deals))
    ours.update(verified=verified, verification_failures=failures,
                same_as_one_process=all(
                    (a.verdict, a.moves, a.nodes_expanded) == (b.verdict, b.moves, b.nodes_expanded)
                    for a, b in zip(res, one_process[method])))
    return {"processes": n, "fc-solve-lg": theirs, f"aisle-{method}": ours,
            "wall_ratio": round(ours["wall_seconds"] / theirs["wall_seconds"], 3),
            "workers_start_seconds": round(start_up, 3)}


def print_table(report):
    cols = [("solver", "solver", "{}"), ("solved", "solved", "{}"), ("unsolv", "unsolvable", "{}"),
            ("unknown", "unknown", "{}"), ("cpu s", "cpu_seconds", "{:.3f}"),
            ("wall s", "wall_seconds", "{:.3f}"), ("median s", "median_seconds_per_deal", "{:.5f}"),
            ("p99 s", "p99_seconds_per_deal", "{:.5f}"), ("deals/s", "deals_per_second", "{:.0f}"),
            ("atomic len", "mean_atomic_length", "{:.1f}"), ("len n", "length_sample", "{}"),
            ("ratio vs lg", "ratio_vs_lg", "{:.2f}")]
    rows = []
    for s in report["solvers"].values():
        rows.append([("-" if s.get(k) is None else f.format(s[k])) for _, k, f in cols])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, (h, _, _) in enumerate(cols)]
    print(f"MS deals {report['deals']}; {machine.header()}")
    print("  ".join(h.rjust(w) for (h, _, _), w in zip(cols, widths)))
    for r in rows:
        print("  ".join(v.rjust(w) for v, w in zip(r, widths)))
    print(f"compile/cache load: {report['compile_or_cache_load_seconds']} s (import "
          f"{report['import_seconds']} s); fresh process solve(1): "
          f"{report['fresh_process_deal1']['seconds']} s")
    for k, s in report["solvers"].items():
        if s.get("unsolvable_deals"):
            print(f"{k}: unsolvable {s['unsolvable_deals'][:20]}")
        if "verified" in s:
            print(f"{k}: {s['verified']} solutions replayed OK by the referee, "
                  f"{s['verification_failures']} failures; mean atomic length on the length "
                  f"sample {s['mean_atomic_length_on_length_sample']}")
    print(f"ratio_vs_lg (our CPU / fc-solve -l lg CPU): {report.get('ratio_vs_lg')}")
    prof = report.get("profile")
    if prof:
        print(f"where our time goes (a second pass, wall {prof['wall_seconds']} s): batch kernel "
              f"{prof['batch_kernel']} s, resumed searches' kernel {prof['resumed_kernel']} s, "
              f"table upkeep {prof['table_upkeep']} s, Python and the rest "
              f"{prof['python_and_rest']} s; {prof['first_slice_deals']} deals decided in their "
              f"first slice take {prof['time_share_first_slice_deals']:.0%} of the time, the "
              f"costliest 1% of deals {prof['time_share_top_1pct']:.0%}, 10% "
              f"{prof['time_share_top_10pct']:.0%}; costliest: deal "
              f"{prof['costliest_deal']['deal']} ({prof['costliest_deal']['nodes']} nodes, "
              f"{prof['costliest_deal']['seconds']} s, {prof['costliest_deal']['verdict']})")
    par = report.get("parallel")
    if par:
        print(f"on {par['processes']} cores at once (fc-solve: one range solver per share "
              f"{', '.join(par['fc-solve-lg']['shares'])}; ours: solve_many(jobs="
              f"{par['processes']}), workers' start-up included):")
        for s in par.values():
            if isinstance(s, dict):
                extra = (f", same results as one process: {s['same_as_one_process']}, "
                         f"{s['verified']} replayed OK, {s['verification_failures']} failures"
                         if "verified" in s else "")
                print(f"  {s['solver']:>22}: wall {s['wall_seconds']:.3f} s, "
                      f"{s['deals_per_second']:.0f} deals/s, cpu {s['cpu_seconds']:.3f} s, "
                      f"{s['solved']} solved, {s['unsolvable']} unsolvable, {s['unknown']} "
                      f"unknown{extra}")
        print(f"  wall_ratio (our wall / fc-solve's): {par['wall_ratio']}; our workers' start-up "
              f"alone (a call with one deal per worker): {par['workers_start_seconds']} s")


if __name__ == "__main__":
    sys.exit(main())
