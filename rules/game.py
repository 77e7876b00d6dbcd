"""What every game provides, and the Python :class:`State` that wraps its kernels.

A game module (``rules/clock.py`` ...) reads top to bottom: constants and the state-array
layout, the deal, the Numba kernels, then a :class:`Game` subclass registered by name.  The
kernels travel together as a :class:`Kernels` tuple -- the whole interface the search core
and the conformance runner need, so they never import game internals.

Kernel contract (all take the state as a 1-D ``np.int16`` array and never raise):

* ``legal_moves(state, buf, faithful) -> count`` writes move codes (:mod:`rules.moves`) into
  ``buf`` (length ``Game.max_moves``, a proven bound).  ``faithful=1`` lists every action
  Aisleriot accepts (duplicates such as ``dbl`` included); ``faithful=0`` lists the distinct
  moves a solver needs (duplicates merged, quirks that only farm score left out).
* ``apply(state, move)`` plays an action from that list in place, automatic follow-ups included.
* ``status(state) -> int``: ``ONGOING``, ``WON``, ``LOST`` or ``ABORTED`` from Aisleriot's
  continue predicate and ``game-won``.
* ``won(state) -> bool``: Aisleriot's ``game-won``.
* ``hash(state) -> uint64``: 64-bit hash of the canonical position (interchangeable slots as
  sets), equal for positions a solver must treat as one.
* ``score(state) -> int``.

Undo is a snapshot restore: a state is a few hundred bytes, so copying it back is cheaper and
safer than recording inverse operations (Freecell's autoplay can move many cards per action).
"""
from enum import IntEnum
from typing import Callable, NamedTuple

import numpy as np

from .deals import check_aisleriot_seed
from .errors import IllegalMoveError, InvalidOptionError, InvalidSeedError
from .layout import Layout, parse_layout
from .moves import Move

STATE_DTYPE = np.int16


class Outcome(IntEnum):
    ONGOING = 0
    WON = 1
    LOST = 2
    ABORTED = 3  # Aisleriot would throw a Scheme error here (Zebra, spec 7.6)


class Kernels(NamedTuple):
    legal_moves: Callable
    apply: Callable
    status: Callable
    won: Callable
    hash: Callable
    score: Callable


_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


class Game:
    """One game's description.  Subclasses fill in the class attributes and the hooks."""

    name = ""                 # registry name, e.g. "ten-across"
    title = ""
    n_slots = 0
    state_size = 0
    max_moves = 0             # proven bound on faithful legal moves (see each module)
    slot_names = ()
    kernels: Kernels = None
    options = {}              # option name -> default (booleans only so far)
    numberings = ("aisleriot",)
    default_numbering = "aisleriot"

    # ---- hooks a game implements -----------------------------------------------------------
    def deal_array(self, seed, numbering, options):
        raise NotImplementedError

    def layout_to_array(self, layout: Layout, options):
        raise NotImplementedError

    def array_to_layout(self, array) -> Layout:
        raise NotImplementedError

    def describe(self, array) -> str:
        """Readable multi-line text of a position; the default lists slots by name."""
        layout = self.array_to_layout(array)
        width = max(len(n) for n in self.slot_names)
        lines = [f"{name:>{width}}: {_slot_text(slot)}" for name, slot in zip(self.slot_names, layout.slots)]
        lines.append(f"{'score':>{width}}: {layout.score}")
        return "\n".join(lines)

    def parse_move(self, text, array) -> Move:
        """Parse a move in Aisleriot's vocabulary; games add their own notations."""
        return Move.parse(text)

    def format_move(self, move: Move, array, notation="aisleriot") -> str:
        if notation != "aisleriot":
            raise InvalidOptionError(f"{self.name} has no move notation {notation!r}; use 'aisleriot'")
        return str(move)

    # ---- public API ------------------------------------------------------------------------
    def resolve_options(self, options=None, **kwargs):
        """Options as a dict with defaults filled in; accepts 'on'/'off' style strings."""
        given = dict(options or {})
        given.update(kwargs)
        resolved = dict(self.options)
        for key, value in given.items():
            if key not in self.options:
                known = ", ".join(self.options) or "none"
                raise InvalidOptionError(f"{self.name} has no option {key!r} (options: {known})")
            if isinstance(value, str):
                v = value.strip().lower()
                if v in _TRUE:
                    value = True
                elif v in _FALSE:
                    value = False
                else:
                    raise InvalidOptionError(f"option {key}={value!r}: expected on or off")
            resolved[key] = bool(value)
        return resolved

    def deal(self, seed, numbering=None, **options) -> "State":
        """The position after the deal for ``seed`` (Aisleriot seed, or Microsoft deal number)."""
        numbering = numbering or self.default_numbering
        if numbering not in self.numberings:
            raise InvalidSeedError(
                f"{self.name} has no numbering {numbering!r} (choose from {', '.join(self.numberings)})"
            )
        opts = self.resolve_options(options)
        if numbering == "aisleriot":
            seed = check_aisleriot_seed(seed)
        return State(self, self.deal_array(seed, numbering, opts))

    def from_layout(self, text, **options) -> "State":
        """A position from Aisleriot layout text (or a parsed :class:`Layout`)."""
        layout = text if isinstance(text, Layout) else parse_layout(text)
        return State(self, self.layout_to_array(layout, self.resolve_options(options)))

    def from_text(self, text, **options) -> "State":
        """A position from the text a user gives (``aisle solve --layout/--file``): Aisleriot
        layout text here; a game with its own board format accepts that too."""
        return self.from_layout(text.strip(), **options)

    def as_state(self, position) -> "State":
        """A fresh State from a State (copied), an Aisleriot seed, layout text / Layout, or an array."""
        if isinstance(position, State):
            return position.copy()
        if isinstance(position, (int, np.integer)):
            return self.deal(int(position), "aisleriot")
        if isinstance(position, (str, Layout)):
            return self.from_layout(position)
        return State(self, np.array(position, dtype=STATE_DTYPE))

    def new_move_buffer(self):
        return np.empty(self.max_moves, dtype=np.int32)

    def __repr__(self):
        return f"get_game({self.name!r})"


def _slot_text(slot):
    return " ".join(("" if up else "*") + _pretty(c) for c, up in slot) or "-"


def _pretty(card):
    from .cards import card_str

    return card_str(card)


class State:
    """A position of one game, with legal moves, apply/undo and verdicts.

    ``state.array`` is the compact integer vector the kernels work on.  ``apply`` checks the
    move against Aisleriot's accepted actions and raises :class:`IllegalMoveError` otherwise.
    """

    __slots__ = ("game", "array", "_history", "_buf")

    def __init__(self, game: Game, array):
        self.game = game
        self.array = np.ascontiguousarray(array, dtype=STATE_DTYPE)
        self._history = []
        self._buf = None

    # ---- moves -----------------------------------------------------------------------------
    def _codes(self, faithful):
        if self._buf is None:
            self._buf = self.game.new_move_buffer()
        n = self.game.kernels.legal_moves(self.array, self._buf, 1 if faithful else 0)
        return self._buf[:n].tolist()

    def legal_moves(self, distinct=False):
        """Every action Aisleriot accepts here, or with ``distinct=True`` the solver's move set."""
        return [Move.from_code(c) for c in self._codes(not distinct)]

    def has_legal_moves(self):
        return bool(self._codes(True))

    def parse_move(self, move):
        if isinstance(move, Move):
            return move
        if isinstance(move, (int, np.integer)):
            return Move.from_code(move)
        return self.game.parse_move(move, self.array)

    def format_move(self, move, notation="aisleriot"):
        return self.game.format_move(self.parse_move(move), self.array, notation)

    def apply(self, move):
        """Play ``move`` (a :class:`Move`, its text, or its code); returns the Move played."""
        m = self.parse_move(move)
        if m.code not in self._codes(True):
            raise IllegalMoveError(f"illegal move {str(m)!r} in {self.game.name} position {self.layout()!r}")
        self._history.append((m, self.array.copy()))
        self.game.kernels.apply(self.array, np.int32(m.code))
        return m

    def undo(self):
        """Take back the last applied move (with its automatic follow-ups); returns it."""
        if not self._history:
            raise IllegalMoveError("undo: no move to take back")
        m, snapshot = self._history.pop()
        self.array[:] = snapshot
        return m

    @property
    def moves_played(self):
        return [m for m, _ in self._history]

    def copy(self):
        other = State(self.game, self.array.copy())
        other._history = list(self._history)
        return other

    # ---- verdicts --------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome:
        return Outcome(int(self.game.kernels.status(self.array)))

    def is_won(self):
        return bool(self.game.kernels.won(self.array))

    def is_over(self):
        return self.outcome != Outcome.ONGOING

    @property
    def score(self):
        return int(self.game.kernels.score(self.array))

    def canonical_hash(self):
        return int(self.game.kernels.hash(self.array))

    # ---- what a player sees, and pictures ---------------------------------------------------
    def observation(self):
        """What a player at the table has seen of this game (:mod:`rules.observation`)."""
        from .observation import observe

        return observe(self)

    def to_svg(self, **kwargs) -> str:
        """The position drawn as Aisleriot lays it out, as SVG text (:mod:`rules.svg`)."""
        from .svg import state_to_svg

        return state_to_svg(self, **kwargs)

    def _repr_svg_(self):
        return self.to_svg()

    # ---- text ------------------------------------------------------------------------------
    def layout(self) -> str:
        return str(self.game.array_to_layout(self.array))

    def __str__(self):
        return self.game.describe(self.array)

    def __repr__(self):
        return f"get_game({self.game.name!r}).from_layout({self.layout()!r})"

    def __eq__(self, other):
        return isinstance(other, State) and other.game is self.game and np.array_equal(self.array, other.array)

    __hash__ = None
