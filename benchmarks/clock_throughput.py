"""Clock throughput: whole games (deal from an Aisleriot seed + forced play) per second.

Measures ``rules.clock.play_many`` on one core (the single-thread kernel), the straightforward
reference kernel built on ``rules.deals`` (full MT19937 per seed), and the ``parallel=True``
kernel over all Numba threads.  Compile / cache-load time of the first call is reported
separately; throughput is the best of ``--repeat`` runs, by wall clock and by the thread's CPU
time (the CPU figure is the fair one on a shared machine).

    python benchmarks/clock_throughput.py --seeds 2000000 --json clock.json
"""
import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numba  # noqa: E402

from rules import clock  # noqa: E402
import machine  # noqa: E402  (benchmarks/machine.py)


def measure(fn, seeds, repeat):
    t0 = time.perf_counter()
    fn(seeds[:128])
    warm = time.perf_counter() - t0
    best_wall = best_cpu = float("inf")
    result = None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.thread_time()
        result = fn(seeds)
        best_cpu = min(best_cpu, time.thread_time() - c0)
        best_wall = min(best_wall, time.perf_counter() - w0)
    return warm, best_wall, best_cpu, result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2_000_000, help="number of seeds (default 2,000,000)")
    ap.add_argument("--start", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per kernel, best kept (default 3)")
    ap.add_argument("--reference-seeds", type=int, default=200_000,
                    help="seeds for the slower reference kernel (default 200,000)")
    ap.add_argument("--json", metavar="PATH", help="write the results as JSON here")
    args = ap.parse_args(argv)
    if args.seeds <= 0 or args.start < 0 or args.start + args.seeds - 1 > 2**32 - 1:
        ap.error("seeds must lie in 0 .. 2**32-1")

    seeds = np.arange(args.start, args.start + args.seeds, dtype=np.int64)
    runs = [
        ("fast, 1 thread", lambda s: clock.play_many(s), seeds, 1),
        ("reference, 1 thread", clock.play_many_reference, seeds[: args.reference_seeds], 1),
        (f"fast, parallel ({numba.get_num_threads()} threads)", lambda s: clock.play_many(s, parallel=True),
         seeds, numba.get_num_threads()),
    ]
    rows = []
    fast_result = None
    for name, fn, s, threads in runs:
        warm, wall, cpu, result = measure(fn, s, args.repeat)
        if name.startswith("fast, 1"):
            fast_result = result
        elif fast_result is not None:   # every kernel must give the same answers
            n = len(s)
            assert np.array_equal(result[0], fast_result[0][:n]) and np.array_equal(result[1], fast_result[1][:n])
        rows.append({
            "kernel": name, "threads": threads, "seeds": int(len(s)), "first_call_s": warm,
            "wall_s": wall, "deals_per_s_wall": len(s) / wall,
            "cpu_s": cpu, "deals_per_s_cpu": len(s) / cpu if threads == 1 else None,
        })

    won, score = fast_result
    summary = {
        "win_rate": float(won.mean()), "theory_win_rate": 1 / 13, "mean_score": float(score.mean()),
        "target_deals_per_s_one_core": 1_000_000,
        "meets_target": rows[0]["deals_per_s_cpu"] >= 1_000_000,
    }
    print(f"Clock throughput, seeds {args.start}..{args.start + args.seeds - 1}, best of {args.repeat}")
    print(f"{'kernel':<30} {'seeds':>10} {'1st call s':>11} {'wall s':>8} {'deals/s wall':>14} {'deals/s CPU':>13}")
    for r in rows:
        cpu = f"{r['deals_per_s_cpu']:>13,.0f}" if r["deals_per_s_cpu"] else f"{'-':>13}"
        print(f"{r['kernel']:<30} {r['seeds']:>10,} {r['first_call_s']:>11.2f} {r['wall_s']:>8.3f} "
              f"{r['deals_per_s_wall']:>14,.0f} {cpu}")
    print(f"win rate {summary['win_rate']:.5f} (theory {1 / 13:.5f}), mean score {summary['mean_score']:.2f}; "
          f"target >= 1,000,000 deals/s on one core: {'met' if summary['meets_target'] else 'NOT met'}")
    print(machine.header())

    if args.json:
        out = {
            "benchmark": "clock_throughput", "argv": sys.argv[1:], **machine.describe(),
            "lanes": clock.LANES, "rows": rows, "summary": summary,
        }
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
