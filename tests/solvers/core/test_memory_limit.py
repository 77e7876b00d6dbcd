"""``max_memory_mb`` is honoured: a search stops with ``unknown`` (limit "memory") before the
process grows past the limit.  Peak RSS is measured in a fresh subprocess, before and after."""
import json
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import json, resource, sys
    from solvers import get_solver

    solver = get_solver(sys.argv[1])
    solver.warmup()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = solver.solve(int(sys.argv[2]), max_memory_mb=float(sys.argv[3]))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"verdict": result.verdict, "limit": result.limit, "grew_mb": after - before,
                      "peak_mb": result.peak_memory_bytes / 2**20, "nodes": result.nodes_expanded}))
""")
SLACK_MB = 8      # Python objects, the move lists, allocator rounding


# deals whose search needs more than the limit given (Yukon 244 far more, Ten Across 14 about 7)
@pytest.mark.parametrize("game, seed, limit_mb", [("freecell", 1464, 8), ("yukon", 244, 3),
                                                  ("ten-across", 14, 3)])
def test_a_search_stops_at_its_memory_limit(game, seed, limit_mb):
    proc = subprocess.run([sys.executable, "-c", SCRIPT, game, str(seed), str(limit_mb)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["verdict"] == "unknown" and out["limit"] == "memory", out
    assert out["peak_mb"] <= limit_mb, out
    assert out["grew_mb"] <= limit_mb + SLACK_MB, out
