"""Depth-first search continued on several threads that share one table.

A paused :class:`solvers.core.search.DFS` has entered in its table every position it expanded and
every child still pending on its stack (children are entered when generated).  Its pending
children become work items.  Each thread takes an item and runs the ordinary depth-first
kernel from it, with a stack of its own and the shared table.  A position found in the table
is skipped as in one thread, because whoever entered it expands it: the thread that
generated it, or the thread that receives it as an item.  A thread that has an item while
another has none gives away its shallowest pending children as new items.  So when the queue
is empty and every thread waits, every position reachable without a win has been expanded,
and the proof is as complete as one thread's.  The kernels release the GIL, so the threads
run on separate cores.

The threads write the table without locks.  Two writes into one slot at once can lose a key
or leave one that mixes two keys.  A lost key only means a position is searched twice.  A
mixed key matches a real position's key no more often than the two hashes collide
(``solvers.core.table``).  Each thread may enter only its reserved share of the table's free
slots, so the load stays under ``MAX_LOAD``.  When a share runs out, every thread stops at the
end of its chunk while one of them doubles the table.

Which positions are expanded and which solution is found depend on the threads' timing, so
node counts and solutions vary between runs; verdicts do not.
"""
import threading
import time

import numpy as np

from solvers.core.result import SOLVED, UNKNOWN, SolveResult
from solvers.core.search import (C_INIT, C_NODES, C_SP, C_STORED, DFS, EXHAUSTED, FOUND, MAX_LOAD, STACK_FULL,
                     TABLE_FULL, AIM_SHARE, Run, _meter, rate_budget, rehash_keys, verdict_for)


LEAD_NODES = 20000     # run_dfs: nodes on one thread first (most searches end within them)


def run_dfs(run, root, threads, lead=LEAD_NODES):
    """Run :class:`DFS` ``run`` from ``root`` within its limits: on one thread for its first
    ``lead`` nodes, then, if it has not ended, on ``threads`` threads (:class:`SplitDFS`).
    Starting the threads costs a few milliseconds, which short searches need not pay."""
    if threads == 1:
        return run.run(root)
    t0 = time.perf_counter()
    limits = run.limits
    short = lead if limits.max_nodes is None else min(lead, limits.max_nodes)
    run.limits = limits.replace(short, limits.timeout)
    first = run.run(root)
    run.limits = limits
    if first.verdict != UNKNOWN or first.limit != "nodes" or short == limits.max_nodes:
        return first
    if limits.timeout is not None:
        run.limits = limits.replace(
            limits.max_nodes, max(0.0, limits.timeout - (time.perf_counter() - t0)))
    result = SplitDFS(run, threads).run()
    result.seconds = time.perf_counter() - t0
    return result


class _Item:
    """A position to search from, and the move codes that reach it from the search's root."""

    def __init__(self, state, prefix):
        self.state, self.prefix = state, prefix


class SplitDFS:
    """Continue :class:`DFS` ``base`` (paused by a limit; a keys-only or plain table) on
    ``threads`` threads within its limits; :meth:`run` gives a SolveResult whose moves (codes)
    and counts cover ``base``'s search too.  ``base`` is used up: its table and pending
    children move here."""

    def __init__(self, base, threads, chunk=Run.CHUNK):
        if not isinstance(base, DFS) or base.ctl[C_INIT] == 0:
            raise ValueError(f"SplitDFS continues a solvers.core.search.DFS that has run and paused, "
                             f"not {base!r:.80}")
        self.base, self.threads, self.chunk = base, int(threads), int(chunk)
        self.plug, self.limits = base.plug, base.limits
        self.keys = base.keys
        self.queue = self._pending(base, [])         # popped from the end: deepest, best first
        self.cv = threading.Condition()
        self.waiting = self.parked = 0
        self.growing = False
        self.outcome = None                          # (code, limit, moves) once decided
        self.nodes = int(base.ctl[C_NODES])
        self.stored = int(base.ctl[C_STORED])
        self.reserved_slots = self.reserved_nodes = 0
        self.peak = base.peak
        self.workers = []

    # ---- items -----------------------------------------------------------------------------
    def _pending(self, run, prefix, shallowest_only=False):
        """Items for the children pending on ``run``'s stack (at its shallowest pending depth
        only, if asked), which leave the stack; ordered so that ``pop()`` takes them in the
        order one thread would."""
        items = []
        sp = int(run.ctl[C_SP])
        path = list(prefix)
        for d in range(sp + 1):
            first, last = int(run.st_idx[d]), int(run.st_cnt[d])
            for i in range(last - 1, first - 1, -1):
                state = run.st_states[d].copy()
                m = int(run.st_moves[d, i])
                self.plug.apply.dispatcher(state, np.int32(m))
                items.append(_Item(state, path + [m]))
            run.st_cnt[d] = first
            if first < last and shallowest_only:
                break
            if d < sp:
                path.append(int(run.st_moves[d, first - 1]))
        return items

    # ---- the run ---------------------------------------------------------------------------
    def run(self):
        t0 = time.perf_counter()
        deadline = None if self.limits.timeout is None else t0 + self.limits.timeout
        meter = _meter.get()
        if self.base.ctl[C_SP] < 0 or not self.queue:
            self.outcome = (EXHAUSTED, "", [])
        else:
            self.workers = [self._worker() for _ in range(self.threads)]
            self.peak = max(self.peak, self._memory())
            mb = self.limits.max_bytes
            if mb is not None and self._memory() > mb:
                self.outcome = (TABLE_FULL, "memory", [])    # the threads' stacks do not fit
        if self.outcome is None:
            errors = []
            threads = [threading.Thread(target=self._work, args=(w, deadline, meter, errors))
                       for w in self.workers]
            for t in threads:
                t.start()
            try:
                for t in threads:
                    t.join()
            except BaseException:          # Ctrl-C: the threads stop after their chunk
                with self.cv:
                    self._decide(EXHAUSTED, "interrupted")
                for t in threads:
                    t.join()
                raise
            if errors:
                raise errors[0]
        code, limit, moves = self.outcome
        verdict = verdict_for(code, limit)
        return SolveResult(verdict, moves if verdict == SOLVED else [], self.nodes,
                           self.stored, time.perf_counter() - t0, self.peak, limit=limit)

    def _worker(self):
        base = self.base
        return DFS(self.plug, self.limits, table_capacity=1, depth=base.st_states.shape[0],
                   keys_only=base.keys_only, store_dead_ends=bool(base.store_dead_ends))

    def _memory(self):
        """Bytes in use: the shared table and every thread's own arrays."""
        own = sum(a.nbytes for w in self.workers for a in w._arrays()[2:])
        return self.keys.nbytes + self.base.vals.nbytes + own

    def _decide(self, code, limit="", moves=()):
        """Record the outcome (the first one stands) and wake every thread.  Lock held."""
        if self.outcome is None:
            self.outcome = (code, limit, list(moves))
        self.cv.notify_all()

    def _work(self, w, deadline, meter, errors):
        try:
            self._loop(w, deadline, meter)
        except BaseException as e:          # re-raised by run(); the others stop
            with self.cv:
                errors.append(e)
                self._decide(EXHAUSTED, "error")

    def _take(self):
        """Wait for an item, a growth to join, or the end.  Lock held; None at the end."""
        while True:
            if self._take_part_in_growth():
                return None
            if self.queue:
                return self.queue.pop()
            self.waiting += 1
            if self.waiting == self.threads:           # nothing pending anywhere: done
                self._decide(EXHAUSTED)
                return None
            self.cv.wait()
            self.waiting -= 1

    def _loop(self, w, deadline, meter):
        item, budget = None, Run.FIRST_CHUNK
        while True:
            with self.cv:
                if item is None:
                    item = self._take()
                    if item is None:
                        return
                    w.ctl[:] = 0
                    first = True
                elif self._take_part_in_growth():
                    return
                if not first and self.waiting and not self.queue:   # someone idles: share
                    self.queue[:0] = self._pending(w, item.prefix, shallowest_only=True)
                    self.cv.notify_all()
                call = 1 if first else budget          # the item's root alone first (below)
                if self.limits.max_nodes is not None:
                    left = self._nodes_left()
                    if left is None:
                        return
                    call = min(call, left)
                share = self._reserve_slots(w)
                if share is None:
                    return
                self.reserved_nodes += call
            w.keys = self.keys
            max_stored = np.int64(w.capacity() * MAX_LOAD)
            w.ctl[C_STORED] = max_stored - share
            before, t_call = int(w.ctl[C_NODES]), time.perf_counter()
            code = w._call(item.state, call)
            # the kernel's first call sets C_STORED to 1 (its root, already entered), then
            # enters the root's children: at most max_moves, within the share
            entered = int(w.ctl[C_STORED]) - (1 if first else int(max_stored - share))
            done = int(w.ctl[C_NODES]) - before
            first = False
            with self.cv:
                self.reserved_nodes -= call
                self.reserved_slots -= share
                self.cv.notify_all()                   # a thread may wait for what is left
                self.nodes += done
                self.stored += entered
                self.peak = max(self.peak, self._memory())
                if meter is not None:
                    meter.add(done)
                if code == FOUND:
                    self._decide(FOUND, "", item.prefix + w._path())
                    return
                if code == EXHAUSTED:
                    item = None
                    continue
                if code == STACK_FULL and not w._grow_stack():
                    self._decide(EXHAUSTED, "memory")
                    return
                # TABLE_FULL: this call's share is used up; the next reservation takes a new
                # one, growing the table when too few slots are free
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    with self.cv:
                        self._decide(EXHAUSTED, "seconds")
                    return
                budget = rate_budget(done, now - t_call, (deadline - now) * AIM_SHARE, self.chunk)
            else:
                budget = self.chunk

    def _nodes_left(self):
        """Nodes the node limit leaves for this thread's next call, waiting while other threads
        hold all of them in calls that may not use them up; None if the search ended (the
        limit reached: unknown).  Lock held."""
        while True:
            if self._take_part_in_growth():
                return None
            left = self.limits.max_nodes - self.nodes - self.reserved_nodes
            if left > 0:
                return left
            if self.reserved_nodes == 0:
                self._decide(EXHAUSTED, "nodes")
                return None
            self.cv.wait()

    def _take_part_in_growth(self):
        """Between chunks: wait out a growth; True if the search has ended.  Lock held."""
        while self.outcome is None and self.growing:
            self.parked += 1
            self.cv.notify_all()
            while self.growing and self.outcome is None:
                self.cv.wait()
            self.parked -= 1
        return self.outcome is not None

    def _reserve_slots(self, w):
        """This thread's share of the table's free slots for its next call (enough for at
        least one expansion), growing the table if none is left; None if the search ended.
        Lock held."""
        while True:
            max_stored = int(self.keys.shape[0] // 2 * MAX_LOAD)
            free = max_stored - self.stored - self.reserved_slots
            share = free // self.threads
            if share > 2 * self.plug.max_moves:
                self.reserved_slots += share
                return share
            if not self._grow(w):
                return None

    def _grow(self, w):
        """Double the shared table once every other thread has parked.  Lock held; False if
        the search ended (memory limit or another outcome)."""
        if self.growing:                             # another thread grows it: wait
            return not self._take_part_in_growth()
        self.growing = True
        self.cv.notify_all()
        while self.parked + self.waiting < self.threads - 1 and self.outcome is None:
            self.cv.wait()
        try:
            if self.outcome is not None:
                return False
            cap = self.keys.shape[0] // 2
            mb = self.limits.max_bytes
            if mb is not None and self._memory() + 2 * cap * w.SLOT_BYTES > mb:
                self._decide(TABLE_FULL, "memory")
                return False
            keys, vals = w._new_table(2 * cap)       # depth-first never reads values
            rehash_keys(self.keys, keys)
            self.keys, self.base.vals = keys, vals    # each thread takes keys at its next call
            self.peak = max(self.peak, self._memory())
            return True
        finally:
            self.growing = False
            self.cv.notify_all()
