"""Yukon solver through its API (solvers/games/yukon/solver.py): solutions replay under the
referee in both rule modes, limits give unknown, proofs need a search where the tests at the deal
do not, the open-mode verdict decides aisleriot mode, and the probes' solutions replay."""
import pytest

from rules.errors import InvalidOptionError
from rules.game import Outcome
from rules.moves import Move
from solvers import get_solver
from solvers.core.result import SolutionError
from solvers.core.search import DFS, Limits
from solvers.games.yukon import SOLVER
from solvers.games.yukon.dead_end import dead_end
from solvers.games.yukon.pairs import pair_dead_end
from solvers.games.yukon.plugs import PLUGS
from solvers.games.yukon.solver import LEAD_NODES, PROBES, PROBE_NODES, never_lost, solver_root
from tests.support.yukon import GAME, LOST_TEXT, lay


FAST_SEEDS = (1, 2, 3, 9, 11, 13)


def _replay_states(result):
    s = result.start.copy()
    yield s.copy()
    for m in result.moves:
        s.apply(m)
        yield s.copy()


def test_registered_solver():
    assert get_solver("yukon") is SOLVER
    assert SOLVER.METHODS == ("dfs", "greedy", "astar") and SOLVER.default_method == "dfs"
    assert SOLVER.RULE_MODES == ("aisleriot", "open")


@pytest.mark.parametrize("rules", ["aisleriot", "open"])
@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_sample_seeds_solved_and_verified(seed, rules):
    r = SOLVER.solve(seed, rules=rules, timeout=20)
    assert r.verdict == "solved"
    assert r.rules == rules and r.deal == seed
    assert all(isinstance(m, Move) and str(m).split()[0] in ("drag", "dbl") for m in r.moves)
    assert r.verify() is True                       # independent referee replay
    states = list(_replay_states(r))
    assert states[-1].is_won()
    for st_ in states:              # the proofs of the dead-end and pair tests: neither fires on
        assert not dead_end(st_.array) and not pair_dead_end(st_.array)    # a winning line
    if rules == "aisleriot":                        # never through a LOST position
        assert all(st_.outcome == Outcome.ONGOING for st_ in states[:-1])


def test_keys_only_table_changes_no_result_and_stores_16_bytes_a_slot():
    """The Yukon depth-first runs keep only keys (16 bytes a slot, not 24): same verdict,
    nodes, stored positions and moves as a table with values, through a growth and a
    reservation, in two thirds of the table memory."""
    root = solver_root(GAME.deal(3).array)
    runs = []
    for keys_only in (False, True):
        runner = DFS(PLUGS["open"], Limits(None, None, 1000), table_capacity=1 << 10,
                     keys_only=keys_only)
        first = runner.run(root)                     # grows from 1024 slots
        assert runner.capacity() > 1 << 10
        runner.reset(Limits(2000, None, 1000)).run(root)
        runner.limits = Limits(None, None, 1000)
        runner.reserve(50_000)
        again = runner.run(root)                     # resumes after the reservation
        table = runner.keys.nbytes + runner.vals.nbytes
        runs.append((first.verdict, first.nodes_expanded, first.states_stored, first.moves,
                     again.nodes_expanded, again.states_stored, again.moves, table,
                     runner.capacity()))
    (*with_values, bytes24, cap24), (*keys_only, bytes16, cap16) = runs
    assert with_values == keys_only and with_values[0] == "solved"
    assert cap24 == cap16 and bytes16 * 3 == bytes24 * 2


@pytest.mark.parametrize("seed, verdict", [(3, "solved"), (138, "unsolvable")])
def test_dead_ends_not_stored_change_no_search(seed, verdict):
    """Without the dead ends in the table the search expands the same positions and finds the
    same moves; it stores fewer, and in a finished proof exactly the positions it expanded."""
    root = solver_root(GAME.deal(seed).array)
    runs = [DFS(PLUGS["open"], Limits(None, None, 1000), keys_only=True,
                store_dead_ends=store).run(root) for store in (True, False)]
    stored, lean = runs
    assert stored.verdict == lean.verdict == verdict
    assert (stored.nodes_expanded, stored.moves) == (lean.nodes_expanded, lean.moves)
    assert lean.states_stored < stored.states_stored
    if verdict == "unsolvable":
        assert lean.states_stored == lean.nodes_expanded


def test_solution_from_layout_text_and_state():
    state = GAME.deal(1)
    for start in (state, state.layout()):
        r = SOLVER.solve(start)
        assert r.verdict == "solved" and r.verify()
        assert r.deal is None


def test_tiny_limits_give_unknown():
    r = SOLVER.solve(12, max_nodes=1)
    assert r.verdict == "unknown" and r.limit == "nodes" and r.moves == []
    r = SOLVER.solve(12, timeout=1e-9, rules="open")  # timeout checked per node chunk
    assert r.verdict == "unknown" and r.limit == "seconds"
    r = SOLVER.solve(72, max_memory_mb=0.01)          # not even the probes' arrays fit
    assert r.verdict == "unknown" and r.limit == "memory"
    with pytest.raises(SolutionError):
        r.verify()


def test_bad_arguments():
    with pytest.raises(InvalidOptionError, match="rule mode 'lenient'"):
        SOLVER.solve(1, rules="lenient")
    with pytest.raises(InvalidOptionError, match="method 'bfs'"):
        SOLVER.solve(1, method="bfs")


@pytest.mark.parametrize("seed", [67, 138])
def test_real_deal_proven_unsolvable_by_search(seed):
    """These deals need a real search to refute (neither the dead-end test nor the pair test
    refutes the deal); both modes agree."""
    assert not dead_end(GAME.deal(seed).array) and not pair_dead_end(GAME.deal(seed).array)
    for rules in ("open", "aisleriot"):
        r = SOLVER.solve(seed, rules=rules, timeout=30)
        assert r.verdict == "unsolvable", rules
        assert r.nodes_expanded > 100 and r.limit == ""


def test_solve_many_and_methods():
    results = SOLVER.solve_many([1, 2], rules="open")
    assert [r.verdict for r in results] == ["solved", "solved"]
    for method in ("greedy", "astar"):
        r = SOLVER.solve(1, method=method, timeout=20)
        assert r.verdict == "solved" and r.method == method and r.verify()


def test_open_first_decides_aisleriot_mode():
    """Seed 41: refuted by the dead-end test; seed 67 needs a search.  Aisleriot mode gives the
    open-mode verdict without a second search (same node count as the open search)."""
    for seed in (67, 41):
        ro, ra = SOLVER.solve(seed, rules="open"), SOLVER.solve(seed)
        assert ro.verdict == ra.verdict == "unsolvable"
        assert ra.nodes_expanded == ro.nodes_expanded


def test_never_lost_checks_aisleriot_predicate():
    r = SOLVER.solve(2)
    assert never_lost(r.start.array, [m.code for m in r.moves])
    lost = GAME.from_layout(lay(LOST_TEXT))
    assert never_lost(lost.array, []) and not never_lost(lost.array, [lost.legal_moves()[0].code])


@pytest.mark.parametrize("seed", [72, 87, 181])
def test_probe_solutions_replay(seed):
    """Deals the plain depth-first order finds hard (no verdict in 200,000 nodes) are solved
    by the randomized probes in both modes; the solutions replay under the referee."""
    plain = DFS(PLUGS["open"], Limits(200_000, None, 1000)).run(solver_root(GAME.deal(seed).array))
    assert plain.verdict == "unknown"
    for rules in ("open", "aisleriot"):
        r = SOLVER.solve(seed, rules=rules, timeout=30)
        assert r.verdict == "solved" and r.verify() is True
        assert r.nodes_expanded < LEAD_NODES + PROBES * PROBE_NODES
