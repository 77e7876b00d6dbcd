"""``quick``: ``pimc``'s worlds and budgets at a fraction of its time, for win-rate studies.

Two savings, which lost no strength measured (docs/benchmarks.md, "Players"):

* it keeps to its plans as ``study`` does (a pimc move begins a plan that turns no card up
  before its last move; deciding again before that move samples the same knowledge);
* it deals more worlds only while a candidate move near the best has won different worlds
  from it.  Two moves that have won exactly the same worlds (most often two orders of the same
  moves, or moves that do not matter) stay level however many worlds are dealt: ``pimc`` spends
  its extension rounds on them; ``quick`` takes the tie-break at once.

Its parameters and their defaults are pimc's (10 worlds, budget 2000, 3 candidates, 3
extension rounds).  docs/players.md has the measurements.
"""
from solvers.players.pimc import PimcPlayer
from solvers.players.study import StudyPlayer


class QuickPlayer(StudyPlayer):
    name = "quick"
    PARAMS = dict(PimcPlayer.PARAMS)
    EXTEND_AGREEING = False
