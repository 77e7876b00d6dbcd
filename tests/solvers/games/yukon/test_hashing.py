"""Yukon hashes and heuristic (solvers/games/yukon/hashing.py, heuristic.py, state.py): hashes
ignore pile order and the probe salt, the stored pile words and child hashes equal the values
computed from scratch, and the salted heuristic keeps its noise bounds."""
import numpy as np
from hypothesis import given, settings

from rules import yukon as yk
from rules.moves import Move
from solvers.core.search import DEAD_END
from solvers.games.yukon.dead_end import dead_end
from solvers.games.yukon.hashing import child_hashes, hash1, hash2, refresh
from solvers.games.yukon.heuristic import NOISE_SCALE, heuristic, noise_amp, score
from solvers.games.yukon.moves import apply, solver_moves
from solvers.games.yukon.solver import solver_root
from solvers.games.yukon.state import SALT
from tests.support import yukon_reference as ref
from tests.support.yukon import GAME, SEEDS, WALKS, small_positions


def test_hashes_ignore_pile_order_and_foundation_slots():
    state = GAME.deal(5)
    layout = state.game.array_to_layout(state.array)
    slots = list(layout.slots)
    perm = [0, 4, 7, 1, 6, 2, 5, 3, 8, 9, 10]
    other = GAME.from_layout(type(layout)(tuple(slots[i] for i in perm), 0, 0))
    assert hash1(state.array) == hash1(other.array)
    assert hash2(state.array) == hash2(other.array)
    moved = state.copy()
    moved.apply(moved.legal_moves(distinct=True)[0])
    assert hash1(moved.array) != hash1(state.array)
    assert hash2(moved.array) != hash2(state.array)


def _salted(root, salt):
    out = root.copy()
    out[SALT] = salt
    return out


def test_salt_word_changes_ordering_only():
    """The probe salt is outside the rules state: hashes, moves and the plain heuristic ignore
    it; with a salt the heuristic is NOISE_SCALE*h plus noise below noise_amp(salt), which
    cycles through 128, 256 and 512 (and the looser bounds are used)."""
    a = GAME.deal(3).array
    root = solver_root(a)
    h = heuristic(root)
    assert h == heuristic(a) == score(a) == score(root)
    for salt in (1, 2, 977):
        salted = _salted(root, salt)
        assert hash1(salted) == hash1(root) and hash2(salted) == hash2(root)
        buf1, buf2 = np.empty(yk.MAX_MOVES, np.int32), np.empty(yk.MAX_MOVES, np.int32)
        n = ref.legal_open(salted, buf1)
        assert n == ref.legal_open(root, buf2) and list(buf1[:n]) == list(buf2[:n])
        assert 0 <= heuristic(salted) - NOISE_SCALE * h < noise_amp(salt)
    assert [noise_amp(salt) for salt in (3, 4, 5, 6)] == [128, 256, 512, 128]
    noise = {amp: max(heuristic(_salted(root, salt)) - NOISE_SCALE * h
                      for salt in range(1, 301) if noise_amp(salt) == amp)
             for amp in (128, 256, 512)}
    assert all(amp // 2 <= most < amp for amp, most in noise.items())


@settings(max_examples=60)
@given(SEEDS, WALKS)
def test_stored_pile_words_match_recomputed_hashes_and_heuristic(seed, walk):
    """The solver state's per-pile words, updated by the plug's apply move by move, give the
    same hashes and heuristic as computing them from the rules state from scratch: the search
    heuristic (one pass, stored pile scores) is the plain score, or DEAD_END exactly on dead
    ends."""
    st_ = solver_root(GAME.deal(seed).array)
    buf = np.empty(yk.MAX_MOVES, np.int32)
    for choice in walk + [None]:
        rules_part = np.ascontiguousarray(st_[:yk.STATE_SIZE])
        assert hash1(st_) == hash1(rules_part) and hash2(st_) == hash2(rules_part)
        want = DEAD_END if dead_end(rules_part) else score(rules_part)
        assert heuristic(st_) == heuristic(rules_part) == want
        n = solver_moves(st_, buf)[0]
        if n == 0 or choice is None:
            break
        apply(st_, buf[choice % n])


def _check_child_hashes(st_):
    """child_hashes equals the hashes of the child apply builds, for every solver move."""
    buf = np.empty(yk.MAX_MOVES, np.int32)
    out = np.empty(2, np.uint64)
    n = solver_moves(st_, buf)[0]
    for code in buf[:n]:
        kid = st_.copy()
        apply(kid, code)
        child_hashes(st_, code, out, 0)
        assert (out[0], out[1]) == (hash1(kid), hash2(kid)), \
            (str(GAME.array_to_layout(st_[:yk.STATE_SIZE])), str(Move.from_code(int(code))))
    return buf[:n].copy()


@settings(max_examples=60)
@given(SEEDS, WALKS)
def test_child_hashes_equal_hashes_of_the_built_child(seed, walk):
    """child_hashes (the depth-first search hashes children before building them) on random
    playouts, from stored sums (as in the search, after refresh) or with stale piles."""
    st_ = solver_root(GAME.deal(seed).array)
    for step, choice in enumerate(walk + [None]):
        if step % 2:
            refresh(st_)
        moves = _check_child_hashes(st_)
        if len(moves) == 0 or choice is None:
            break
        apply(st_, moves[choice % len(moves)])


@settings(max_examples=300)
@given(small_positions(max_out=40, full_piles=False))
def test_child_hashes_on_small_positions(a):
    """The same with empty piles, foundations and flips."""
    _check_child_hashes(solver_root(a))
