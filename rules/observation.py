"""What a player at the table knows: :class:`Observation`, from :meth:`rules.game.State.observation`.

A player sees the face-up cards where they lie, how many face-down cards each pile holds, and
remembers every card it has seen.  An observation is the game's own state array with every card
the player cannot know replaced by :data:`HIDDEN`, plus the multiset of those unseen cards (the
deck minus everything visible, so it adds no knowledge).  Equal observations mean equal
knowledge; they compare and hash by game and array.

Each game says which array entries are hidden (:meth:`rules.game.Game.hidden_entries`, with its
reasons): face-down cards (Yukon, Ten Across, Clock), Zebra's stock until the player has turned
the waste back into it, nothing in Freecell.  Memory is read from the state's move history
(``State._history``): moves taken back with ``undo`` are forgotten with it.

``observation.sample(rng)`` deals the unseen cards at random into the hidden places: a uniform
random permutation of the unseen multiset gives every distinct arrangement the same chance
(each is hit by the same number of permutations), and every arrangement is a world the player
cannot rule out, so the sample is uniform over the consistent worlds.  Nothing a player did can
have told it more: its actions depend on visible cards only, and Aisleriot's deal loop (Yukon's
re-deal, spec 1.4) tests visible cards only.

Legal moves depend on visible cards only (tested on random play for every game) except in
hand-made layouts Aisleriot cannot reach: a Ten Across pile whose top card is face down accepts
a drop only if that card matches, and a face-down Clock centre card is placed by its rank.
There :meth:`Observation.legal_moves` lists the moves legal in every consistent world, i.e.
leaves out those the game calls blind (:meth:`rules.game.Game.blind_move`) unless the unseen
cards leave just one possibility.

This module imports no game and not :mod:`rules.game` (which imports it): it asks
``state.game`` for what differs.
"""
import numpy as np

from rules.cards import card_str
from rules.errors import InvalidOptionError
from rules.kernel_types import STATE_DTYPE, Outcome
from rules.moves import Move

HIDDEN = -2           #: an array entry the player cannot know (EMPTY is -1)
MAX_WORLDS = 100_000  #: all_worlds() lists no more (a list of States: ~50 MB)


def hidden_entries(state):
    """Sorted array indices of ``state`` whose cards the player has not seen."""
    return sorted(state.game.hidden_entries(state.array, state._history))


def observe(state):
    """The :class:`Observation` of ``state`` (what :meth:`rules.game.State.observation` returns)."""
    hidden = np.asarray(hidden_entries(state), dtype=np.int64)
    array = state.array.copy()
    unseen = array[hidden].tolist()
    array[hidden] = HIDDEN
    observation = Observation(state.game, array, unseen)
    observation._trusted = True       # made from a real position: its worlds are positions too
    return observation


def _arrangements(cards):
    """The distinct orders of the multiset ``cards`` (sorted), in increasing order: the
    classic next-permutation step, so equal cards give no repeats and nothing is stored."""
    order = sorted(cards)
    while True:
        yield tuple(order)
        i = len(order) - 2
        while i >= 0 and order[i] >= order[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(order) - 1
        while order[j] <= order[i]:
            j -= 1
        order[i], order[j] = order[j], order[i]
        order[i + 1:] = reversed(order[i + 1:])


class Observation:
    """A player's knowledge of a position: ``array`` (the state array, :data:`HIDDEN` where a
    card is unknown; read-only) and ``unseen`` (the sorted multiset of the unknown cards).

    Compares and hashes by game and array; :attr:`key` is the same thing as bytes, stable
    across processes (players seed their random choices from it).
    """

    __slots__ = ("game", "array", "unseen", "key", "_hidden", "_representative", "_trusted")

    def __init__(self, game, array, unseen):
        array = np.array(array, dtype=STATE_DTYPE)
        array.setflags(write=False)
        self.game = game
        self.array = array
        self.unseen = tuple(sorted(int(c) for c in unseen))
        self._hidden = np.flatnonzero(array == HIDDEN)
        if len(self._hidden) != len(self.unseen):
            raise ValueError(f"{len(self._hidden)} hidden places but {len(self.unseen)} unseen cards")
        self.key = game.name.encode() + b"\0" + array.tobytes()
        self._representative = None
        self._trusted = False        # observe() sets it: worlds then skip State's array check

    def _world(self, array):
        return self.game.trusted_state(array) if self._trusted else self.game.as_state(array)

    # ---- knowledge -------------------------------------------------------------------------
    @property
    def hidden_count(self):
        """How many cards the player has not seen."""
        return len(self.unseen)

    @property
    def determined(self):
        """True when only one world fits (nothing hidden, or all unseen cards alike)."""
        return len(set(self.unseen)) <= 1

    def world_count(self):
        """Number of distinct worlds consistent with this observation (a multinomial)."""
        from math import factorial

        total = factorial(len(self.unseen))
        for card in set(self.unseen):
            total //= factorial(self.unseen.count(card))
        return total

    def sample(self, rng=None):
        """A full :class:`rules.game.State` consistent with this observation, uniform over the consistent
        worlds.  ``rng``: a ``numpy.random.Generator``, an int seed, or None (fresh entropy)."""
        if not isinstance(rng, np.random.Generator):
            if rng is not None and (isinstance(rng, bool) or not isinstance(rng, (int, np.integer))
                                    or rng < 0):
                raise InvalidOptionError(f"sample() takes a numpy Generator, a seed >= 0 or None, "
                                         f"not {rng!r:.60}")
            rng = np.random.default_rng(rng)
        array = self.array.copy()
        cards = np.asarray(self.unseen, dtype=STATE_DTYPE)
        array[self._hidden] = cards[rng.permutation(len(cards))]
        return self._world(array)

    def all_worlds(self):
        """Every distinct consistent world, as States in sorted order of the unseen cards'
        arrangement: only when there are at most :data:`MAX_WORLDS` (:meth:`world_count`,
        counted first; more raise :class:`InvalidOptionError`).  The arrangements are made one
        by one (next permutation of the multiset), never all permutations of the cards."""
        count = self.world_count()
        if count > MAX_WORLDS:
            raise InvalidOptionError(f"{count} worlds fit this observation; all_worlds() lists at "
                                     f"most {MAX_WORLDS} (sample() deals one at random)")
        worlds = []
        for cards in _arrangements(self.unseen):
            array = self.array.copy()
            array[self._hidden] = cards
            worlds.append(self._world(array))
        return worlds

    def representative(self):
        """One consistent world, always the same one (unseen cards in sorted order).  Only what
        does not depend on hidden cards may be read from it."""
        if self._representative is None:
            array = self.array.copy()
            array[self._hidden] = np.asarray(self.unseen, dtype=STATE_DTYPE)
            self._representative = self._world(array)
        return self._representative.copy()

    # ---- what the player can do ------------------------------------------------------------
    def legal_moves(self, distinct=False):
        """The actions Aisleriot accepts here (``distinct=True``: the solver's move set), which
        are the same in every consistent world; see the module docstring for the exception."""
        moves = self.representative().legal_moves(distinct)
        if not self.determined:
            moves = [m for m in moves if not self.game.blind_move(self.array, m)]
        return moves

    @property
    def outcome(self) -> Outcome:
        """The game's verdict (visible cards decide it in every game)."""
        return self.representative().outcome

    def is_over(self):
        return self.outcome != Outcome.ONGOING

    def view_after(self, move):
        """The array after ``move`` as the player can foresee it: cards the move would turn up
        or bring out of the stock stay :data:`HIDDEN`, now in face-up places.  Safe because no
        game's ``apply`` reads the value of a card it has not turned up."""
        move = move if isinstance(move, Move) else Move.from_code(move)
        array = self.array.copy()
        self.game.kernels.apply(array, np.int32(move.code))
        return array

    # ---- comparison and text ---------------------------------------------------------------
    def __eq__(self, other):
        return isinstance(other, Observation) and other.key == self.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return f"<Observation of {self.game.name}: {self.hidden_count} unseen cards>"

    def __str__(self):
        """The position as the player knows it: unknown cards as ``##``."""
        layout = self.game.array_to_layout(self.representative().array)
        order = self._layout_hidden_order(layout)
        lines = []
        width = max(len(n) for n in self.game.slot_names)
        for index, (name, slot) in enumerate(zip(self.game.slot_names, layout.slots)):
            if len(slot) > 3 and all((index, k) in order for k in range(len(slot))):
                text = f"{len(slot)} unseen cards"
            else:
                text = " ".join("##" if (index, k) in order else ("" if up else "*") + card_str(c)
                                for k, (c, up) in enumerate(slot))
            lines.append(f"{name:>{width}}: {text or '-'}")
        lines.append(f"{'unseen':>{width}}: {self.hidden_count} cards")
        return "\n".join(lines)

    def _layout_hidden_order(self, layout):
        """(slot, position) pairs of the layout that hold hidden cards: the face-down cards,
        except a Zebra stock the player remembers."""
        if not self.hidden_count:
            return set()
        return {(s, k) for s, slot in enumerate(layout.slots) for k, (_, up) in enumerate(slot) if not up}
