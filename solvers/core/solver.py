"""The one solver contract every game follows, Clock included.

A game's solver is a :class:`Solver` subclass instance, found by :func:`solvers.get_solver`.
The subclass declares ``GAME``, ``METHODS`` (names, the default first unless
``DEFAULT_METHOD`` says otherwise) and ``RULE_MODES``, and implements two hooks:

* ``_search(start, method, rules, limits) -> SolveResult`` searches from ``start`` (a
  :class:`rules.game.State` of this game, already checked) with ``moves`` as int move codes;
* ``_warm_steps(method, rules)`` lists what compiles the kernels one search needs (or loads
  them from Numba's cache), ``{name: callable}``, one kernel or a few a step;
  ``_stage_steps(method, rules)`` what later stages of a search need, compiled only when the
  search reaches one (none by default); and ``_batch_warm_steps()`` what batches need besides
  (none by default).

Everything else lives here once: argument checks (every bad value raises an
:class:`rules.AisleError` subclass that quotes it), turning seeds, layout text and arrays into
states, warming the kernels up before the first search (reported as ``compile_seconds``, never
counted against a time limit; nothing compiles at import, so this is all of it: a later stage's
kernels compiled when the search reaches it, and a kernel the warm-up missed, compiled during
the search, are moved from ``seconds`` to it; a cold warm-up shares its steps with helper
processes on the free cores, :mod:`solvers.core.warm`), announcing
a warm-up that takes more than ``ANNOUNCE_AFTER`` seconds (one line on stderr with a progress
bar, or a count of the steps done without tqdm; ``ANNOUNCE = False`` silences it), finishing
a result (moves as :class:`rules.moves.Move`, the
start, the referee replay) and running batches, in this process or on several cores
(``solve_many(..., jobs=N)``: contiguous chunks in :mod:`solvers.core.workers`'s worker processes, each
running the subclass's own ``_solve_many``).
"""
import gc
import math
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import fields

import numpy as np

from rules import get_game
from rules._jit import CACHING
from rules.errors import InvalidOptionError, InvalidStateError
from rules.game import State
from rules.layout import Layout
from rules.moves import DRAG, Move
from solvers.core.workers import check_jobs, run_in_workers
from solvers.core.result import SOLVED, VERDICT_CODE, SolveResult, replay_with_referee
from solvers.core.search import Limits, compiling, reporting, staging
from solvers.core.warm import Helpers

DEFAULT_MEMORY_MB = 4096
ANNOUNCE = True           # say on stderr when a warm-up compiles for long (False: never)
ANNOUNCE_AFTER = 2.0      # seconds of warm-up before "compiling kernels" is printed
CHUNKS_PER_WORKER = 8     # solve_many(jobs=N) splits items into about 8 chunks per worker ...
MAX_CHUNK = 1024          # ... of at most this many items, so every core stays busy to the end
MAX_THREADS = 256         # threads one search may use (a bound against typos, not a tuning)


def check_limits(max_nodes=None, timeout=None, max_memory_mb=None, threads=1):
    """Validated :class:`solvers.core.search.Limits`; ``None`` means no limit (memory: 4096 MiB)."""
    if max_nodes is not None:
        max_nodes = _positive_whole("max_nodes", max_nodes)
    timeout = _positive_number("timeout", timeout)
    max_memory_mb = _positive_number("max_memory_mb", max_memory_mb)
    threads = _positive_whole("threads", threads)
    if threads > MAX_THREADS:
        raise InvalidOptionError(f"threads {threads!r} is more than {MAX_THREADS}")
    return Limits(max_nodes, timeout, DEFAULT_MEMORY_MB if max_memory_mb is None else max_memory_mb,
                  threads)


def _positive_whole(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidOptionError(f"{name} {value!r} must be a positive whole number")
    return int(value)


def _positive_number(name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidOptionError(f"{name} {value!r} must be a positive number")
    value = float(value)
    if not (value > 0 and math.isfinite(value)):
        raise InvalidOptionError(f"{name} {value!r} must be a positive finite number")
    return value


class Solver:
    """One game's solver.  See the module docstring for what a subclass provides."""

    GAME = ""
    METHODS = ()
    DEFAULT_METHOD = None
    RULE_MODES = ("aisleriot",)
    USES_LIMITS = True        # False when a play can hit no limit (a forced play)
    IN_PROCESS = False        # True when batches run best in the calling process
    BATCH_SIZE = 4            # deals per win-rate batch (and per store transaction)

    def __init__(self):
        self._warmed = set()      # names of the warm-up steps done in this process, and
        #                           (method, rules) pairs whose warm_start is done
        self._ahead = None        # helpers still compiling later stages' steps (_compile)

    @property
    def game(self):
        return get_game(self.GAME)

    @property
    def default_method(self):
        return self.DEFAULT_METHOD or self.METHODS[0]

    def __repr__(self):
        return f"get_solver({self.GAME!r})"

    def visible_value(self, array):
        """A heuristic value, higher is better, of a position as a player sees it: a state array
        of this game where :data:`rules.observation.HIDDEN` marks unknown cards (face-down ones,
        and in a foreseen position cards a move would turn up).  An unknown card earns nothing
        for where it lies, but turning one up earns the face-down term, so revealing moves rank
        above lateral ones.  The greedy player plays the move with the best value; pimc breaks
        ties with it (docs/players.md).  The terms are the usual ones for the game, the weights
        round numbers, not tuned."""
        raise NotImplementedError(f"the {self.GAME} solver has no visible-value heuristic")

    # ---- checks ----------------------------------------------------------------------------
    def check_method(self, method):
        if method is None:
            return self.default_method
        if not isinstance(method, str) or method not in self.METHODS:
            raise InvalidOptionError(f"the {self.GAME} solver has no method {method!r} "
                                     f"(choose from {', '.join(self.METHODS)})")
        return method

    def check_rules(self, rules):
        if not isinstance(rules, str) or rules not in self.RULE_MODES:
            raise InvalidOptionError(f"the {self.GAME} solver has no rule mode {rules!r} "
                                     f"(choose from {', '.join(self.RULE_MODES)})")
        return rules

    def start_state(self, position, numbering=None, options=None):
        """A fresh State of this game from a State, a seed (in ``numbering``, dealt with
        ``options``), layout text or a state array; anything else, or another game's state,
        raises :class:`rules.errors.InvalidStateError` or the game's own parse error."""
        game = self.game
        if isinstance(position, State):
            if position.game is not game:
                raise InvalidStateError(f"a {position.game.name} position was given to the "
                                        f"{self.GAME} solver")
            return position.copy()
        if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
            return game.deal(int(position), numbering, **(options or {}))
        if isinstance(position, (str, Layout)):
            return game.from_layout(position, **(options or {}))
        if isinstance(position, np.ndarray):
            return State(game, position)
        raise InvalidStateError(f"the {self.GAME} solver takes a State, a seed, layout text or a "
                                f"state array, not {type(position).__name__} {position!r:.80}")

    # ---- public verbs ----------------------------------------------------------------------
    def solve(self, state, *, method=None, rules="aisleriot", max_nodes=None, timeout=None,
              max_memory_mb=None, progress=None, threads=1, moves=True):
        """Solve one position: a :class:`solvers.core.result.SolveResult`.  ``state`` is a State
        of this game, a seed (the game's default numbering), layout text or a state array.
        A limit gives ``"unknown"``, never ``"unsolvable"``.  ``progress(nodes, seconds)``,
        if given, is called as the search goes (:func:`solvers.core.search.reporting`).
        ``threads`` > 1 lets a long depth-first search use that many cores
        (:mod:`solvers.core.split_dfs`: Yukon, Ten Across and Zebra; Freecell and Clock search on
        one); verdicts are the same, node counts and solutions vary between runs.
        ``moves=False`` leaves a solution's moves out (``moves`` empty, ``atomic_length`` 0):
        for callers that need the verdict only, such as a player's many small solves."""
        method, rules = self.check_method(method), self.check_rules(rules)
        limits = check_limits(max_nodes, timeout, max_memory_mb, threads)
        if progress is not None and not callable(progress):
            raise InvalidOptionError(f"progress must be a callable, not {progress!r:.80}")
        if not isinstance(moves, bool):
            raise InvalidOptionError(f"moves must be True or False, not {moves!r:.80}")
        compiled = self.warm_start(method, rules)   # first: dealing may compile a kernel too
        start = self.start_state(state)
        with reporting(progress), compiling() as late:
            found, staged = self._staged_search(start, method, rules, limits)
        result = self._finish(found, start, method, rules, moves)
        # kernels the warm-up did not reach compiled in the search's time: moved out of it
        late = max(0.0, (late.duration if late.done else 0.0) - staged.compile_seconds)
        result.compile_seconds = compiled + staged.seconds + late
        result.seconds = max(0.0, result.seconds - late)
        if isinstance(state, (int, np.integer)) and not isinstance(state, bool):
            result.deal = int(state)
        return result

    def solve_many(self, items, *, numbering=None, options=None, method=None, rules="aisleriot",
                   max_nodes=None, timeout=None, max_memory_mb=None, progress=None, jobs=1):
        """Solve many positions: a list of SolveResult, in the order of ``items``.  Each item is
        what :meth:`solve` takes; seeds are read in ``numbering`` and dealt with the game
        ``options``.  ``progress(i, result)`` is called here once per item (``i`` its index).

        ``jobs=1`` solves them one after another in this process (``progress`` in item order).
        ``jobs=N`` splits them into contiguous chunks solved in N worker processes
        (:mod:`solvers.core.workers`; ``None``: one per core), each warmed up once: the same results as
        ``jobs=1`` under node limits (a time limit depends on the machine's load), ``progress``
        called as each chunk comes back (chunks in the order they finish, items in order within
        one).  Fewer than two items run in this process.  Python's cyclic garbage collector is
        paused while the results pile up, ``progress`` calls included (:func:`cyclic_gc_paused`)."""
        method, rules = self.check_method(method), self.check_rules(rules)
        limits = check_limits(max_nodes, timeout, max_memory_mb)
        jobs = check_jobs(jobs)
        if options is not None:
            options = self.game.resolve_options(options)
        items = list(items)
        if jobs > 1 and len(items) > 1:
            if CACHING:   # compiled here once (and announced once): the workers load them all
                self.ready()
            with cyclic_gc_paused():
                return self._solve_in_workers(items, numbering, options, method, rules, limits,
                                              progress, jobs)
        self._ready({**self._warm_steps(method, rules), **self._batch_warm_steps()})
        with cyclic_gc_paused():
            return self._solve_many(items, numbering, options, method, rules, limits, progress)

    def verify(self, result):
        """Replay a solved result with the game's independent referee: True, or raise."""
        return replay_with_referee(result, self.referee_options(result.start))

    def referee_options(self, start):
        """The game options the referee needs to replay from ``start`` (none by default)."""
        return None

    def warmup(self, method=None, rules=None, announce=None, helpers=None):
        """Compile (or load from Numba's cache) the kernels a search with ``method`` under
        ``rules`` needs, or every kernel the solver uses (batches included) when both are None:
        seconds taken.  Announced as :meth:`ready` says.  A cold warm-up starts ``helpers``
        processes (default: one per free core; 0: none) that compile part of it
        (:mod:`solvers.core.warm`)."""
        return self._compile(self._steps(method, rules), announce, helpers)

    def ready(self, method=None, rules=None, announce=None):
        """:meth:`warmup` for what is not warm yet in this process: seconds it took (0.0 when
        all was).  If it takes longer than ``ANNOUNCE_AFTER`` seconds, one line on stderr says
        the kernels are being compiled, with a progress bar (``announce``: True or False
        overrides the module's ``ANNOUNCE``)."""
        return self._ready(self._steps(method, rules), announce)

    def warm_start(self, method=None, rules="aisleriot", announce=None):
        """:meth:`ready` for what a search with ``method`` under ``rules`` needs from its start
        (what a later stage needs compiles when the search reaches it, but a cold warm-up's
        helpers start on it ahead): seconds taken.  A command that deals a seed calls it
        first, so that those helpers also compile what dealing needs (:mod:`solvers.core.warm`)."""
        method, rules = self.check_method(method), self.check_rules(rules)
        if (method, rules) in self._warmed:       # the usual case: every solve calls this
            return 0.0
        steps = self._warm_steps(method, rules)
        ahead = [name for stage in self._stage_steps(method, rules).values() for name in stage]
        seconds = self._ready(steps, announce, ahead)
        self._warmed.add((method, rules))
        return seconds

    def _ready(self, steps, announce=None, ahead=()):
        return self._compile({k: v for k, v in steps.items() if k not in self._warmed}, announce,
                             ahead=[name for name in ahead if name not in self._warmed])

    def _steps(self, method, rules):
        if method is not None or rules is not None:
            return self._method_steps(self.check_method(method),
                                      self.check_rules("aisleriot" if rules is None else rules))
        steps = {}
        for rules in self.RULE_MODES:
            for method in self.METHODS:
                steps.update(self._method_steps(method, rules))
        steps.update(self._batch_warm_steps())
        return steps

    def _method_steps(self, method, rules):
        """Every step a search with ``method`` under ``rules`` may need, its stages' included."""
        steps = dict(self._warm_steps(method, rules))
        for stage in self._stage_steps(method, rules).values():
            steps.update(stage)
        return steps

    def _staged_search(self, start, method, rules, limits):
        """``_search``, the steps of each later stage it reaches run then
        (:func:`solvers.core.search.reached`): the result and a :class:`Staged` of those
        steps' seconds (which the search left out of its own)."""
        staged = Staged()

        def prepare(stage):
            with compiling() as timer:
                seconds = self._ready(self._stage_steps(method, rules).get(stage, {}))
            staged.seconds += seconds
            staged.compile_seconds += timer.duration if timer.done else 0.0
            return seconds

        with staging(prepare):
            return self._search(start, method, rules, limits), staged

    def _compile(self, steps, announce, helpers=None, ahead=()):
        """Run the warm-up ``steps``, some of them in helper processes if it turns out cold
        (:class:`solvers.core.warm.Helpers`, which may go on to the steps ``ahead`` after it);
        each helper's step is run here afterwards, which loads what it compiled from the cache.
        Helpers still compiling steps ahead from an earlier warm-up take these steps' part if
        they know them all."""
        t0 = time.perf_counter()
        if not steps:
            return 0.0
        notice = CompileNotice(self.GAME, len(steps), ANNOUNCE if announce is None else announce)
        names = list(steps)
        earlier = self._ahead
        helping = (earlier if earlier is not None and earlier.lingering and earlier.covers(names)
                   else Helpers(self, names, helpers, ahead))
        index = {name: i for i, name in enumerate(helping.names)}
        try:
            with helping:
                theirs = []
                for name in names:
                    if not helping.take(index[name]):
                        theirs.append(name)
                        continue
                    for other in theirs:       # a step that needs a helper's waits for it
                        if other in getattr(steps[name], "needs", ()):
                            helping.wait(index[other])
                    steps[name]()
                    self._warmed.add(name)
                    notice.step()
                for name in theirs:
                    helping.wait(index[name])  # (if its helper died, it compiles here)
                    steps[name]()
                    self._warmed.add(name)
                    notice.step()
        finally:
            notice.close()
            if helping.lingering:
                self._ahead = helping
            elif helping is earlier:
                self._ahead = None
        return time.perf_counter() - t0

    # ---- shared plumbing -------------------------------------------------------------------
    def _solve_many(self, items, numbering, options, method, rules, limits, progress):
        out = []
        for i, item in enumerate(items):
            start = self.start_state(item, numbering, options)
            found, _ = self._staged_search(start, method, rules, limits)
            result = self._finish(found, start, method, rules)
            if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                result.deal = int(item)
            out.append(result)
            if progress is not None:
                progress(i, result)
        return out

    def _solve_in_workers(self, items, numbering, options, method, rules, limits, progress, jobs):
        """:meth:`solve_many` over ``jobs`` worker processes.  States travel as their arrays
        (a Game does not survive pickling as the registered one); each result comes back with
        its start as an array and no verifier, both rebuilt here."""
        items = [self.start_state(item).array if isinstance(item, State) else item
                 for item in items]
        size = min(MAX_CHUNK, -(-len(items) // (jobs * CHUNKS_PER_WORKER)))
        starts = range(0, len(items), size)
        tasks = ((_solve_chunk, self.GAME, i, items[i:i + size], numbering, options, method,
                  rules, limits) for i in starts)
        out = [None] * len(items)

        game = self.game

        def record(chunk):
            first, starts, rows = chunk
            for i, (start, row) in enumerate(zip(starts, rows), first):
                result = SolveResult(*row[:-1], start=State.trusted(game, start.copy()),
                                     deal=row[-1], _verifier=self.verify)
                out[i] = result
                if progress is not None:
                    progress(i, result)

        run_in_workers(min(jobs, len(starts)), self.GAME, tasks, record,
                       "a worker process died in the middle of solve_many (killed, or out of "
                       "memory?); nothing is returned")
        return out

    def _finish(self, result, start, method, rules, moves=True):
        """Fill in what every result carries: method, rule mode, start, the referee, and (unless
        ``moves`` is False) the moves as Move objects (a search gives codes; a batch may give
        Moves already) with their atomic length."""
        result.method = method
        result.rules = rules
        result.start = start
        result._verifier = self.verify
        if result.verdict == SOLVED and moves:
            if result.moves and not isinstance(result.moves[0], Move):   # codes from a search
                result.moves = [Move.from_code(int(m)) for m in result.moves]
            if not result.atomic_length:
                result.atomic_length = self.atomic_length(start, result.moves)
        else:
            result.moves, result.atomic_length = [], 0
        return result

    def atomic_length(self, start, moves):
        """Game-defined cost of a solution: single-card moves (a drag of n cards counts n)."""
        return sum(m.n if m.kind == DRAG else 1 for m in moves)

    def solve_columns(self, seeds, numbering, options, rules, limits, method=None):
        """Solve Aisleriot seeds or deal numbers (int64 array) for a win-rate batch: a dict of
        numpy columns ``seed, verdict (codes of VERDICTS), length, nodes, seconds``, with -1 for
        "none" in length and nodes.  Cheap to pickle between processes and Dask workers."""
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        out = empty_columns(seeds)
        for i, seed in enumerate(seeds.tolist()):
            t0 = time.perf_counter()
            start = self.start_state(seed, numbering, options)
            result, staged = self._staged_search(start, self.check_method(method), rules, limits)
            out["seconds"][i] = time.perf_counter() - t0 - staged.seconds
            out["verdict"][i] = VERDICT_CODE[result.verdict]
            out["nodes"][i] = int(result.nodes_expanded)
            if result.verdict == SOLVED:
                out["length"][i] = len(result.moves)
        return out

    # ---- hooks -----------------------------------------------------------------------------
    def _search(self, start, method, rules, limits):
        raise NotImplementedError

    def _warm_steps(self, method, rules):
        raise NotImplementedError

    def _stage_steps(self, method, rules):
        """``{stage: {name: step}}``: steps a search compiles only when it reaches that stage
        (:func:`solvers.core.search.reached`); none by default."""
        return {}

    def _batch_warm_steps(self):
        return {}


class Staged:
    """Seconds the later stages of one search spent getting their kernels ready, and the part
    of them Numba spent compiling."""

    def __init__(self):
        self.seconds = self.compile_seconds = 0.0


class CompileNotice:
    """The announcement of a long warm-up: nothing for ``ANNOUNCE_AFTER`` seconds, then one
    line on stderr, ``aisle: compiling the GAME kernels (first run only)``, with a tqdm bar of
    the warm-up steps done (without tqdm: the count, rewritten in place on a terminal)."""

    def __init__(self, game, total, enabled=True):
        self.text = f"aisle: compiling the {game} kernels (first run only)"
        self.total, self.done = total, 0
        self.bar, self.shown = None, False
        self.lock = threading.Lock()
        self.timer = threading.Timer(ANNOUNCE_AFTER, self.show) if enabled else None
        if self.timer is not None:
            self.timer.daemon = True
            self.timer.start()

    def show(self):
        with self.lock:
            if self.shown or self.timer is None:
                return
            self.shown = True
            try:
                from tqdm import tqdm
            except ImportError:
                self._write()
                return
            self.bar = tqdm(total=self.total, initial=self.done, desc=self.text, unit=" steps",
                            file=sys.stderr, dynamic_ncols=True)

    def _write(self, end="..."):
        """Without tqdm: the line with the count (rewritten in place on a terminal)."""
        sys.stderr.write(f"\r{self.text}: {self.done}/{self.total} steps{end}")
        sys.stderr.flush()

    def step(self):
        with self.lock:
            self.done += 1
            if self.bar is not None:
                self.bar.update(1)
            elif self.shown and sys.stderr.isatty():
                self._write()

    def close(self):
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if self.bar is not None:
                self.bar.close()
            elif self.shown:
                self._write(end=", done\n")


@contextmanager
def cyclic_gc_paused():
    """Python's cyclic garbage collector off for the block (as it was after).  A batch keeps
    every result, each with its list of moves, and as they pile up the collector walks them
    again and again: the parent of two workers spent about half its CPU there
    (docs/benchmarks.md).  Solving makes no reference cycles (tested), so the collector has
    nothing to find meanwhile; compiling does (a first batch's kernels), and that waits for
    the collector's next pass after the block."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _solve_chunk(game, first, items, numbering, options, method, rules, limits):
    """A worker's task for :meth:`Solver._solve_in_workers`: ``(first, starts, rows)``, the
    starts as one array and each result as a tuple of its fields up to its start, then its
    deal (the parent rebuilds the results): a chunk pickles and loads several times faster
    than its objects."""
    from solvers.core.registry import get_solver

    with cyclic_gc_paused():
        results = get_solver(game)._solve_many(items, numbering, options, method, rules, limits,
                                               None)
    starts = np.stack([result.start.array for result in results])
    rows = [tuple(getattr(result, name) for name in _SENT) + (result.deal,) for result in results]
    return first, starts, rows


_FIELDS = [f.name for f in fields(SolveResult)]
_SENT = tuple(_FIELDS[:_FIELDS.index("start")])      # what a chunk sends of each result, and deal


def empty_columns(seeds):
    """A batch of ``len(seeds)`` rows with no verdicts yet (see :meth:`Solver.solve_columns`)."""
    n = seeds.shape[0]
    return {"seed": seeds.copy(), "verdict": np.zeros(n, np.int8), "length": np.full(n, -1, np.int64),
            "nodes": np.full(n, -1, np.int64), "seconds": np.zeros(n, np.float64)}
