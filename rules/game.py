"""What every game provides, and the Python :class:`State` that wraps its kernels.

A game module (``rules/clock.py`` ...) reads top to bottom: constants and the state-array
layout, the deal, the Numba kernels, then a :class:`Game` subclass registered by name.  The
kernels travel together as a :class:`Kernels` tuple -- the whole interface the search core
and the conformance runner need, so they never import game internals.  What else differs
between games (hidden cards and memory, picture layout, score, board formats, forced play) is
declared on the subclass too, with a default here: generic modules ask the game, never test its
name.  So are the slots' roles (foundation, tableau, free cell ...), from which
:meth:`Game.describe_move` names a move in words (``A♣ home``) beside the Aisleriot action.

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
from collections.abc import Mapping
from typing import Callable, NamedTuple

import numpy as np

from rules.cards import card_label, card_str
from rules.deals import SEED_CHECKS
from rules.errors import (IllegalMoveError, InvalidDealError, InvalidOptionError, InvalidSeedError,
                     InvalidStateError, clip, shorten)
from rules.kernel_types import STATE_DTYPE, Outcome
from rules.layout import Layout, check_layout, parse_layout
from rules.moves import CLICK, DRAG, Move
from rules.observation import observe
from rules.pictures.svg import state_to_svg


class Kernels(NamedTuple):
    legal_moves: Callable
    apply: Callable
    status: Callable
    won: Callable
    hash: Callable
    score: Callable


class SlotPlace(NamedTuple):
    """Where a picture puts a slot (:mod:`rules.pictures.svg`), in slot units from the top left,
    and how the slot shows its cards."""

    x: float
    y: float
    fan: str = "stack"            # "stack" (normal slot), "down" or "right" (extended slot)


def slot_row(y, xs, fan):
    """One :class:`SlotPlace` per ``x`` of ``xs``, all on row ``y``."""
    return [SlotPlace(x, y, fan) for x in xs]


class Role:
    """What a slot is for (:attr:`Game.slot_roles`): all :meth:`Game.describe_move` needs to
    name a move in words.  Plain strings, read as ``Role.TABLEAU``."""

    FOUNDATION = "foundation"     # cards go home here
    TABLEAU = "tableau"           # the piles cards are built on (an empty one: "an empty pile")
    FREE_CELL = "free cell"       # Freecell's cells: one card each
    SPOT = "spot"                 # Ten Across's temporary spots: one card each
    STOCK = "stock"               # a click deals from it (Zebra), or redeals once it is empty
    WASTE = "waste"               # the dealt cards, face up
    ALL = (FOUNDATION, TABLEAU, FREE_CELL, SPOT, STOCK, WASTE)


_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def face_down_entries(array, n_piles, first, stride, down):
    """The array entries of the face-down cards, which lie at the bottom of their piles: pile
    ``p``'s cards start at ``first + stride * p`` and ``array[down + p]`` of them are face down."""
    out = []
    for p in range(n_piles):
        base = first + stride * p
        out.extend(range(base, base + int(array[down + p])))
    return out


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
    notations = ("aisleriot",)   # move notations format_move knows; the last is the game's own
    board_formats = ()        # other programs' board texts format_board writes (Freecell: "fcs")
    picture_places = ()       # a SlotPlace per slot: where Aisleriot's new-game puts it
    keeps_score = True        # False where Aisleriot shows no score (Ten Across: scores-disabled)
    hides_cards = False       # True where hidden_entries can hide cards from the player
    plays_itself = False      # True where no position offers a choice (Clock): see play_forced
    slot_roles = ()           # one of Role.ALL per slot: how describe_move names a move
    double_click_role = Role.FOUNDATION   # where ``dbl S`` sends S's top card (Freecell: a free cell)

    # ---- hooks a game implements -----------------------------------------------------------
    def deal_array(self, seed, numbering, options):
        raise NotImplementedError

    def layout_to_array(self, layout: Layout, options):
        raise NotImplementedError

    def array_to_layout(self, array) -> Layout:
        raise NotImplementedError

    def array_options(self, array):
        """The options a state array was built with; games whose array records one override this."""
        return self.resolve_options()

    def keep_hidden(self, array, rebuilt):
        """Check and copy into ``rebuilt`` what ``array`` holds beyond its layout text.

        :meth:`check_array` rebuilds an array from its layout, which carries no hidden state;
        a game whose array has some (Freecell's ``high[]``) validates it here.
        """
        return rebuilt

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
            raise InvalidOptionError(f"{self.name} has no move notation {shorten(notation)}; use 'aisleriot'")
        return str(move)

    def describe_move(self, array, move: Move) -> str:
        """``move``, legal in ``array`` (the position before it), in a few words a person reads
        beside the Aisleriot action: ``6♠ onto 7♥``, ``A♣ home``, ``K♦ to an empty pile``,
        ``5♥ to a free cell``, ``8♣ and 3 more onto 9♦`` (a group is named by its deepest card),
        ``deal``, ``redeal``.

        The default reads only what the game declares -- :attr:`slot_roles` and
        :attr:`double_click_role` -- and the face-up cards of the position (the moved card and
        the destination's top card): a face-down card is never named.  A game whose moves
        read otherwise (Clock) overrides this.  :meth:`State.describe_move` checks the move is
        legal first.
        """
        slots = self.array_to_layout(array).slots
        roles = self.slot_roles
        if move.kind == CLICK:
            if roles[move.src] == Role.STOCK:
                return "deal" if slots[move.src] else "redeal"
            return f"click {self.slot_names[move.src]}"
        n, source = (move.n if move.kind == DRAG else 1), slots[move.src]
        what = _card_words(source[-n] if 0 < n <= len(source) else None)
        if n > 1:
            what += f" and {n - 1} more"
        if roles[move.src] == Role.FOUNDATION:
            what += " from home"
        if move.kind == DRAG:
            role, dst = roles[move.dst], slots[move.dst]
            top = dst[-1] if dst else None
        else:
            role, top = self.double_click_role, None
        return f"{what} {_destination_words(role, top)}"

    def format_board(self, state, board_format) -> str:
        """``state`` as board text in one of :attr:`board_formats` (another program's format)."""
        raise InvalidOptionError(f"{self.name} has no board format {shorten(board_format)}")

    def hidden_entries(self, array, history):
        """Indices of ``array`` whose cards a player at the table has not seen
        (:mod:`rules.observation`); ``history`` is the state's ``(move, array before)`` list,
        the player's memory.  The default hides nothing (Freecell: every card is face up)."""
        return []

    def blind_move(self, array, move) -> bool:
        """True when the legality of ``move`` in ``array`` (an observation's array) depends on a
        hidden card; only hand-made layouts Aisleriot cannot reach have such moves."""
        return False

    def status_note(self, layout) -> str:
        """What a picture's caption says of a position besides its score (Zebra: redeals left)."""
        return ""

    def play_forced(self, state):
        """Play a game that plays itself (:attr:`plays_itself`) from ``state`` (changed in place)
        to its end; returns the moves played."""
        raise NotImplementedError(f"{self.name} does not play itself")

    # ---- public API ------------------------------------------------------------------------
    def resolve_options(self, options=None, **kwargs):
        """Options as a dict with defaults filled in; accepts 'on'/'off' style strings."""
        if options is not None and not isinstance(options, Mapping):
            raise InvalidOptionError(f"{self.name} options must be a mapping, got {shorten(options)}")
        given = dict(options or {})
        given.update(kwargs)
        resolved = dict(self.options)
        for key, value in given.items():
            if not isinstance(key, str) or key not in self.options:
                known = ", ".join(self.options) or "none"
                raise InvalidOptionError(f"{self.name} has no option {shorten(key)} (options: {known})")
            if isinstance(value, str):
                v = value.strip().lower()
                if v in _TRUE:
                    value = True
                elif v in _FALSE:
                    value = False
                else:
                    raise InvalidOptionError(f"option {key}={shorten(value)}: expected on or off")
            elif not isinstance(value, (bool, np.bool_, int, np.integer)) or value not in (0, 1):
                raise InvalidOptionError(f"option {key}={shorten(value)}: expected on or off")
            resolved[key] = bool(value)
        return resolved

    def deal(self, seed, numbering=None, **options) -> "State":
        """The position after the deal for ``seed`` (Aisleriot seed, or Microsoft deal number)."""
        seed, numbering = self.check_seed(seed, numbering)
        return State.trusted(self, self.deal_array(seed, numbering, self.resolve_options(options)))

    def check_seed(self, seed, numbering=None):
        """``(seed, numbering)`` as :meth:`deal` takes them (numbering None: the game's), or
        InvalidSeedError, without dealing."""
        numbering = numbering or self.default_numbering
        if not isinstance(numbering, str) or numbering not in self.numberings:
            raise InvalidSeedError(
                f"{self.name} has no numbering {shorten(numbering)} (choose from {', '.join(self.numberings)})"
            )
        return SEED_CHECKS[numbering](seed), numbering

    def from_layout(self, text, **options) -> "State":
        """A position from Aisleriot layout text (or a parsed :class:`Layout`)."""
        layout = check_layout(text) if isinstance(text, Layout) else parse_layout(text)
        return State.trusted(self, self.layout_to_array(layout, self.resolve_options(options)))

    def from_text(self, text, **options) -> "State":
        """A position from the text a user gives (``aisle solve --layout/--file``): Aisleriot
        layout text here; a game with its own board format accepts that too."""
        if not isinstance(text, str):
            raise InvalidDealError(f"{self.name} position must be text, got {type(text).__name__}")
        return self.from_layout(text.strip(), **options)

    def as_state(self, position) -> "State":
        """A fresh State from a State (copied), an Aisleriot seed, layout text / Layout, or an array."""
        if isinstance(position, State):
            if position.game is not self:
                raise InvalidStateError(f"a {position.game.name} position is not a {self.name} position")
            return position.copy()
        if isinstance(position, (int, np.integer)):
            return self.deal(position, "aisleriot")
        if isinstance(position, (str, Layout)):
            return self.from_layout(position)
        return State(self, position)

    def check_array(self, array):
        """``array`` as a fresh 1-D ``int16`` state array of this game, or InvalidStateError.

        The array must convert to ``int16`` without loss, have ``state_size`` entries and be
        exactly the array its own layout gives back (plus hidden state the game checks in
        :meth:`keep_hidden`): every card where the game allows it, counts and lengths in range,
        unused entries as the engine keeps them.  So kernels only ever see well-formed positions.
        """
        a = _as_int16(array, self)
        try:
            layout = self.array_to_layout(a)
        except (IndexError, ValueError, OverflowError) as exc:   # garbage lengths or card codes
            raise InvalidStateError(f"{self.name} state array describes no position: {clip(exc)}") from None
        problem = _layout_problem(layout, self.n_slots)
        if problem:
            raise InvalidStateError(f"{self.name} state array: {problem}")
        try:
            rebuilt = self.keep_hidden(a, self.layout_to_array(layout, self.array_options(a)))
        except InvalidStateError:
            raise
        except (IndexError, ValueError, OverflowError) as exc:
            raise InvalidStateError(f"not a well-formed {self.name} position: {clip(exc)}") from None
        if not np.array_equal(rebuilt, a):
            i = int(np.flatnonzero(rebuilt != a)[0])
            raise InvalidStateError(
                f"{self.name} state array entry {i} is {int(a[i])}; the position it describes "
                f"({shorten(str(layout))}) has {int(rebuilt[i])} there")
        return a

    def trusted_state(self, array) -> "State":
        """:meth:`State.trusted` of this game: for arrays the engine built itself."""
        return State.trusted(self, array)

    def new_move_buffer(self):
        return np.empty(self.max_moves, dtype=np.int32)

    def __repr__(self):
        return f"get_game({self.name!r})"


def _card_words(entry):
    """A layout entry ``(card, face_up)`` as a person names it: never a face-down card."""
    if entry is None:
        return "no card"
    card, up = entry
    return card_label(card) if up else "a face-down card"


def _destination_words(role, top):
    """Where a card goes, for :meth:`Game.describe_move`: a slot of ``role`` whose top card
    is the layout entry ``top`` (None when the slot is empty)."""
    if role == Role.FOUNDATION:
        return "home"
    if role == Role.FREE_CELL:
        return "to a free cell"
    if role == Role.SPOT:
        return "to a spot"
    if role == Role.TABLEAU:
        return "to an empty pile" if top is None else f"onto {_card_words(top)}"
    return f"to the {role}"


def _slot_text(slot):
    return " ".join(("" if up else "*") + card_str(c) for c, up in slot) or "-"


def _as_int16(array, game):
    """``array`` as a fresh contiguous 1-D int16 array of ``game.state_size`` entries, or raise."""
    try:
        raw = np.asarray(array)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidStateError(f"{game.name} state array {shorten(array)} is not an array: {clip(exc)}") from None
    kind = raw.dtype.kind
    if kind not in "iuf":
        raise InvalidStateError(f"{game.name} state array must hold integers, got dtype {raw.dtype}")
    if raw.shape != (game.state_size,):
        raise InvalidStateError(
            f"{game.name} state array must have shape ({game.state_size},), got {shorten(raw.shape)}")
    if kind == "f":
        bad = ~(np.isfinite(raw) & (raw == np.round(raw)))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InvalidStateError(f"{game.name} state array entry {i} is {shorten(raw[i].item())}, not an integer")
    info = np.iinfo(STATE_DTYPE)
    if raw.size and (raw.min() < info.min or raw.max() > info.max):
        i = int(np.flatnonzero((raw < info.min) | (raw > info.max))[0])
        raise InvalidStateError(f"{game.name} state array entry {i} is {raw[i].item()}, outside int16")
    return np.array(raw, dtype=STATE_DTYPE)     # a copy: the caller's array cannot change it later


def _layout_problem(layout, n_slots):
    """What is wrong with a layout read from an unchecked array, or ``""``."""
    if len(layout.slots) != n_slots:
        return f"{len(layout.slots)} slots instead of {n_slots}"
    for i, slot in enumerate(layout.slots):
        for card, _ in slot:
            if not 0 <= card < 52:
                return f"card code {card} in slot {i} is outside 0..51"
    return ""


class State:
    """A position of one game, with legal moves, apply/undo and verdicts.

    ``state.array`` is the compact integer vector the kernels work on.  ``State(game, array)``
    checks an array given from outside (:meth:`Game.check_array`, InvalidStateError if it is
    not a well-formed position) and keeps its own copy.  ``apply`` checks the move against
    Aisleriot's accepted actions and raises :class:`IllegalMoveError` otherwise.
    """

    __slots__ = ("game", "array", "_history", "_buf")

    def __init__(self, game: Game, array):
        if not isinstance(game, Game):
            raise InvalidStateError(f"State needs a Game such as get_game('freecell'), got {shorten(game)}")
        self.game = game
        self.array = game.check_array(array)
        self._history = []
        self._buf = None

    @classmethod
    def trusted(cls, game, array):
        """A State over an array the engine built itself (deals, layouts, kernel results),
        unchecked, for solvers and players that build many.  Never for arrays from users: one
        that is not a well-formed position can make the kernels read outside it.  ``array`` is
        used as is when already contiguous int16."""
        self = cls.__new__(cls)
        self.game = game
        self.array = np.ascontiguousarray(array, dtype=STATE_DTYPE)
        self._history = []
        self._buf = None
        return self

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
        """A :class:`Move` from a Move, its code or its text; IllegalMoveError if it is none."""
        if isinstance(move, Move):
            return move.checked()
        if isinstance(move, (int, np.integer)):
            return Move.from_code(move)
        if not isinstance(move, str):
            raise IllegalMoveError(f"a move is a Move, its int code or its text, not {shorten(move)}")
        return self.game.parse_move(move, self.array)

    def format_move(self, move, notation="aisleriot"):
        return self.game.format_move(self.parse_move(move), self.array, notation)

    def _legal(self, move):
        """The Move of ``move``, or IllegalMoveError unless Aisleriot accepts it here."""
        m = self.parse_move(move)
        if m.code not in self._codes(True):
            raise IllegalMoveError(
                f"illegal move {str(m)!r} in {self.game.name} position {shorten(self.layout(), 120)}")
        return m

    def describe_move(self, move) -> str:
        """``move`` (a Move, its text or code) in words, from this position: ``A♣ home``
        (:meth:`Game.describe_move`); IllegalMoveError unless Aisleriot accepts it here."""
        return self.game.describe_move(self.array, self._legal(move))

    def apply(self, move):
        """Play ``move`` (a :class:`Move`, its text, or its code); returns the Move played."""
        m = self._legal(move)
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
        other = State.trusted(self.game, self.array.copy())
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
        return observe(self)

    def to_svg(self, **kwargs) -> str:
        """The position drawn as Aisleriot lays it out, as SVG text (:mod:`rules.pictures.svg`)."""
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
