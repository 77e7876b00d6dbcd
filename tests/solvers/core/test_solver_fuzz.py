"""Random and nearly valid state arrays handed to every solver: an AisleError, or (for an array
that is a real position) an honest verdict -- never a crash, never a verdict on garbage.

The arrays run in a subprocess, so a kernel that read outside its state and crashed the
interpreter would fail this test instead of taking pytest down.
"""
import subprocess
import sys
import textwrap

import pytest

from rules import GAME_NAMES

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    from rules import AisleError, State, get_game
    from solvers import get_solver

    game = get_game(sys.argv[1])
    solver = get_solver(game)
    rng = np.random.default_rng(int(sys.argv[2]))
    real = [game.deal(seed).array for seed in (1, 2, 3)]
    refused = verdicts = 0
    for i in range(int(sys.argv[3])):
        kind = i % 4
        if kind == 0:                                  # anything at all
            a = rng.integers(-32768, 32768, game.state_size).astype(np.int16)
        elif kind == 1:                                # small values, as real entries are
            a = rng.integers(-2, 60, game.state_size).astype(np.int16)
        elif kind == 2:                                # a real position with a few entries changed
            a = real[i % 3].copy()
            for j in rng.integers(0, game.state_size, 1 + i % 3):
                a[j] = rng.integers(-2, 110)
        else:                                          # a real position after random moves
            state = game.deal(int(rng.integers(1, 1000)))
            for _ in range(int(rng.integers(0, 30))):
                moves = state.legal_moves()
                if not moves or state.is_over():
                    break
                state.apply(moves[int(rng.integers(len(moves)))])
            a = state.array.copy()
        try:
            State(game, a)
            valid = True
        except AisleError:
            valid = False
        try:
            result = solver.solve(a, max_nodes=500)
        except AisleError:
            refused += 1
            continue
        assert valid, f"a verdict on an array State() refuses: {a.tolist()}"
        if result.solved:
            result.verify()
        verdicts += 1
    for shape in ((game.state_size + 1,), (2, game.state_size), (0,)):
        try:
            solver.solve(np.zeros(shape, dtype=np.int16))
            raise SystemExit(f"no error for shape {shape}")
        except AisleError:
            pass
    print(refused, verdicts)
""")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_arrays_never_crash_a_solver(game):
    proc = subprocess.run([sys.executable, "-c", SCRIPT, game, "7", "400"], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    refused, verdicts = map(int, proc.stdout.split())
    assert refused + verdicts == 400 and refused >= 250 and verdicts >= 50
