"""Winnable deals graded by difficulty, kept in the results store: what ``aisle deals`` lists.

A :class:`DealBook` proves a seed winnable with the thoughtful solver (its line replayed by the
referee) and grades it by the no-peek games the game's default player wins on it
(:mod:`solvers.players.grading`).  Verdicts and games are read from the results store when an
earlier run (``aisle deals`` or ``aisle winrate``) has them and written there otherwise: the
solver's run under these settings, and one player run per player seed, so the store's schema and
runs are the ones :func:`solvers.studies.winrate.estimate_win_rate` uses.
"""
from dataclasses import dataclass

import numpy as np

from rules import __version__, get_game
from solvers.core.registry import get_solver
from solvers.core.result import SOLVED, UNSOLVABLE, VERDICT_CODE, VERDICT_CODES
from solvers.core.solver import empty_columns
from solvers.players import default_player, play_game
from solvers.players.grading import GAMES, grade_of
from solvers.studies.dispatch import make_player, make_settings, verdict_texts
from solvers.studies.seeds import parse_seeds
from solvers.studies.store import ResultsStore


@dataclass(frozen=True)
class GradedDeal:
    """A deal proven winnable, with the no-peek games won on it and the grade they give."""

    seed: int
    won: int
    games: int
    grade: str


class DealBook:
    """The thoughtful verdicts and the no-peek games of ``game``'s deals, read from the results
    store ``db`` (None: in memory, nothing kept) or found and written there.  ``games``: no-peek
    games played per winnable deal, with player seeds 0 .. games-1.  A context manager that
    closes the store."""

    def __init__(self, game, *, db=None, numbering=None, options=None, timeout=None, games=GAMES):
        self.game = get_game(game)
        self.numbering, self.options, self.timeout = numbering, dict(options or {}), timeout
        self.player = default_player(self.game)
        self.where = ":memory:" if db is None else db
        self.store = ResultsStore(self.where)
        base = dict(game=self.game.name, numbering=numbering, options=self.options, timeout=timeout)
        self.solver_run = self.store.run_id(make_settings(**base))
        self.player_settings = [make_settings(**base, player={"name": self.player, "seed": k})
                                for k in range(games)]
        self.player_runs = [self.store.run_id(settings) for settings in self.player_settings]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.store.close()

    def grade(self, seed):
        """The :class:`GradedDeal` of ``seed``, or None when the solver does not prove it winnable."""
        if not self.winnable(seed):
            return None
        won = self.no_peek_wins(seed)
        games = len(self.player_runs)
        return GradedDeal(seed, won, games, grade_of(won, games))

    def _stored(self, run_id, seed):
        counts = self.store.counts(run_id, parse_seeds(seed, self.numbering or self.game.default_numbering))
        return next((v for v, n in counts.items() if n), None)

    def _deal(self, seed):
        return self.game.deal(seed, self.numbering, **self.options)

    def winnable(self, seed):
        """Proven winnable: stored as solved, or solved now (the line replayed by the referee)."""
        stored = self._stored(self.solver_run, seed)
        if stored is None:
            result = get_solver(self.game).solve(self._deal(seed), timeout=self.timeout)
            if result.solved:
                result.verify()
            self._write(self.solver_run, seed, result.verdict, len(result.moves),
                        result.nodes_expanded, result.seconds, VERDICT_CODES)
            stored = result.verdict
        return stored == SOLVED

    def no_peek_wins(self, seed):
        """Games won by the default player with seeds 0 .. games-1 (each win replayed)."""
        won = 0
        for run_id, settings in zip(self.player_runs, self.player_settings):
            stored = self._stored(run_id, seed)
            if stored is None:
                record = play_game(self._deal(seed), make_player(settings["player"]))
                if record.won:
                    record.verify()
                stored = SOLVED if record.won else UNSOLVABLE
                self._write(run_id, seed, stored, len(record.moves), len(record.moves), record.seconds,
                            verdict_texts(settings))
            won += stored == SOLVED
        return won

    def _write(self, run_id, seed, verdict, length, nodes, seconds, texts):
        cols = empty_columns(np.array([seed], dtype=np.int64))
        cols["verdict"][0] = VERDICT_CODE[verdict]
        cols["length"][0] = length if verdict == SOLVED else -1
        cols["nodes"][0], cols["seconds"][0] = nodes, seconds
        self.store.add_batch(run_id, cols, __version__, verdict_texts=texts)
