"""What every auto-player shares: parameters, the seeded randomness, and the move filter.

A player is a function of its seed, its parameters and what it is shown: ``choose(observation,
visited=None)`` gets an :class:`rules.observation.Observation` (never the State) and, if the
caller keeps one, the set of observation keys of the positions already met in this game -- a
player at the table remembers them too, and avoiding them keeps a game from running in circles.
Same seed, parameters, observation and visited set: same move.  Random choices draw from a
generator seeded by the player's seed and a digest of the observation, so they do not depend on
what was chosen before or in which process.
"""
import hashlib

import numpy as np

from rules.errors import IllegalMoveError, InvalidOptionError
from rules.observation import Observation
from solvers.core.registry import get_solver


MAX_BUDGET = 100_000_000     # nodes one search of a player may expand: beyond, a move takes hours


def _whole(name, value, low=1, high=None):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise InvalidOptionError(f"{name} {value!r:.60} must be a whole number >= {low}")
    if high is not None and value > high:
        raise InvalidOptionError(f"{name} {value} is too large: at most {high}")
    return int(value)


class Player:
    """Base class: ``name``, ``PARAMS`` (name -> default), ``peeks``; subclasses implement
    :meth:`choose`."""

    name = ""
    PARAMS = {}            # parameter -> default (whole numbers)
    PARAM_MIN = {}         # parameter -> smallest value allowed when not 1
    PARAM_MAX = {}         # parameter -> largest value allowed (what bounds the player's memory)
    peeks = False          # True: needs the true State (choose_peeking), an upper bound only

    def __init__(self, seed=0, **params):
        self.seed = _whole("player seed", seed, low=0)
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            known = ", ".join(self.PARAMS) or "none"
            raise InvalidOptionError(f"the {self.name} player has no parameter {unknown[0]!r} "
                                     f"(parameters: {known})")
        self.params = {}
        for key, default in self.PARAMS.items():
            value = params.get(key)
            self.params[key] = _whole(key, default if value is None else value,
                                      self.PARAM_MIN.get(key, 1), self.PARAM_MAX.get(key))

    def __repr__(self):
        extra = "".join(f", {k}={v}" for k, v in self.params.items())
        return f"get_player({self.name!r}, seed={self.seed}{extra})"

    def label(self):
        """``pimc (samples 10, budget 2000, checks 3, extend 3, seed 0)``."""
        parts = [f"{k} {v}" for k, v in self.params.items()] + [f"seed {self.seed}"]
        return f"{self.name} ({', '.join(parts)})"

    def settings(self):
        """The player and its parameters as a dict (for JSON output and run settings)."""
        return {"player": self.name, "seed": self.seed, **self.params, "peeks": self.peeks}

    def choose(self, observation, visited=None):
        """The move to play in ``observation``; :class:`rules.errors.IllegalMoveError` when the
        game is over or no move is left (see :func:`solvers.players.base.candidate_moves`)."""
        raise NotImplementedError

    # ---- helpers for subclasses ------------------------------------------------------------
    def rng_for(self, observation):
        """A generator seeded by this player's seed and the observation (nothing else)."""
        digest = hashlib.blake2b(observation.key, digest_size=16).digest()
        words = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4)]
        return np.random.default_rng([self.seed, *words])


def refuse_finished(position):
    """Raise IllegalMoveError when ``position`` (a State or an Observation) is a finished game:
    no player offers a move there."""
    if position.is_over():
        raise IllegalMoveError(f"no move: this {position.game.name} game is already "
                               f"{position.outcome.name.lower()}")


def candidate_moves(observation, visited=None):
    """The solver's move set here, less the moves that lead back to a position already met
    (when any move is left).  Raises IllegalMoveError when the game is over or stuck."""
    if not isinstance(observation, Observation):
        raise InvalidOptionError(f"a player chooses from an observation (state.observation()), "
                                 f"not a {type(observation).__name__}")
    refuse_finished(observation)
    moves = observation.legal_moves(distinct=True)
    if not moves:
        raise IllegalMoveError(f"no legal move in this {observation.game.name} position")
    if visited:
        fresh = [m for m in moves if child_key(observation, m) not in visited]
        if fresh:
            return fresh
    return moves


def child_key(observation, move):
    """The observation key after ``move`` when the move turns nothing up.  When it reveals a
    card the foreseen array holds HIDDEN in a face-up place, which no real observation has, so
    the key matches nothing already met -- right, since new knowledge is a new position."""
    return observation.game.name.encode() + b"\0" + observation.view_after(move).tobytes()


def ranked_by_value(observation, moves, rng=None):
    """``moves`` best first by the heuristic value of the position each leads to (the game's
    :meth:`solvers.core.solver.Solver.visible_value`); equal values in a random order from
    ``rng`` (move order when None)."""
    value = get_solver(observation.game).visible_value
    values = [value(observation.view_after(m)) for m in moves]
    noise = rng.random(len(moves)) if rng is not None else np.zeros(len(moves))
    order = sorted(range(len(moves)), key=lambda i: (-values[i], noise[i], i))
    return [moves[i] for i in order]
