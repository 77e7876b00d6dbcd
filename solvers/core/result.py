"""What a search returns: a verdict, the moves, and what it cost.

Verdicts are three and only three:

* ``"solved"`` -- ``moves`` reach a won position from the start (player moves only; a game's
  automatic follow-ups happen inside each move).
* ``"unsolvable"`` -- the whole reachable space was searched without finding a win: a proof
  (under the rules the kernels implement, with the pruning the game documents as safe).
* ``"unknown"`` -- a limit (nodes, seconds, memory) stopped the search first.  A limit is never
  reported as ``"unsolvable"``.
"""
from dataclasses import dataclass, field

from rules.errors import AisleError

SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"
VERDICTS = (SOLVED, UNSOLVABLE, UNKNOWN)
VERDICT_CODES = (UNKNOWN, SOLVED, UNSOLVABLE)     #: code -> verdict, as batches and the store keep them
VERDICT_CODE = {verdict: code for code, verdict in enumerate(VERDICT_CODES)}


class SolutionError(AisleError):
    """A result that cannot be verified: not solved, or its moves do not replay to a win."""


@dataclass
class SolveResult:
    verdict: str
    moves: list = field(default_factory=list)   # rules.moves.Move, Aisleriot vocabulary
    nodes_expanded: int = 0
    states_stored: int = 0
    seconds: float = 0.0
    peak_memory_bytes: int = 0
    compile_seconds: float = 0.0                # kernels compiled/loaded first (not in seconds or the limit)
    atomic_length: int = 0                      # game-defined cost of the moves (Freecell: single cards)
    method: str = ""
    limit: str = ""                             # which limit made the verdict "unknown"
    rules: str = ""                             # rule mode the verdict holds under ("aisleriot"/"open")
    start: object = None                        # the start position (rules.game.State) for verify()
    deal: object = None                         # deal number when solved from one
    _verifier: object = field(default=None, repr=False, compare=False)

    @property
    def solved(self):
        return self.verdict == SOLVED

    def verify(self):
        """Replay ``moves`` from ``start`` with the game's independent referee; True or raise."""
        if self._verifier is None:
            raise SolutionError("this result has no verifier attached (build it with a solver)")
        return self._verifier(self)

    def summary(self):
        extra = f", {len(self.moves)} moves / {self.atomic_length} atomic" if self.solved else ""
        lim = f" ({self.limit} limit)" if self.limit else ""
        mode = f" [{self.rules} rules]" if self.rules else ""
        return (f"{self.verdict}{mode}{lim}{extra}; {self.nodes_expanded} nodes expanded, "
                f"{self.states_stored} states stored, {self.seconds:.3f} s, "
                f"{self.peak_memory_bytes / 2**20:.1f} MiB")


def replay_with_referee(result, options=None):
    """Replay a solved result from its start with the game's independent referee; True or raise.

    In ``aisleriot`` rule mode every position before the win must also be one where the referee's
    own continue predicate lets the game go on, so the win is one real Aisleriot lets you finish.
    Raises SolutionError, or IllegalMoveError naming the move the referee refuses.
    """
    from rules.game import Outcome
    from rules.registry import get_referee

    if result.verdict != SOLVED:
        raise SolutionError(f"only solved results can be verified (verdict {result.verdict!r})")
    game = result.start.game
    ref = get_referee(game.name)(game.array_to_layout(result.start.array), options)
    strict = result.rules == "aisleriot"
    for i, move in enumerate(result.moves):
        if strict and ref.outcome() != Outcome.ONGOING:
            raise SolutionError(f"aisleriot mode: position before move {i + 1} ({move}) is "
                                 f"{Outcome(ref.outcome()).name}: {ref.layout()}")
        ref.apply(str(move))
    if not ref.won():
        raise SolutionError(f"replay of {len(result.moves)} moves does not end in a won position")
    return True
