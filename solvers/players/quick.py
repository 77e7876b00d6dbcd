"""``quick``: a no-peek player as strong as ``pimc`` in a small part of its time, for win-rate
studies over many seeds.

It is ``pimc`` with three savings:

* it keeps to its plans as ``study`` does (a pimc move begins a plan that turns no card up
  before its last move; deciding again before that move samples the same knowledge);
* it deals more worlds only while a candidate move near the best has won different worlds
  from it.  Two moves that have won exactly the same worlds (most often two orders of the same
  moves, or moves that do not matter) stay level however many worlds are dealt: ``pimc`` spends
  its extension rounds on them; ``quick`` takes the tie-break at once;
* smaller settings: budget 500 nodes a world (not 2000: nearly every world decided within 2000
  is decided within 500, and a world left unknown costs the whole budget for nothing), two
  candidate moves (not 3) and one extension round (not 3), with pimc's 10 worlds.

The settings were chosen on Yukon seeds 1001-1200; docs/benchmarks.md ("Players") has their
measurements on seeds never used for choosing.
"""
from solvers.players.study import StudyPlayer


class QuickPlayer(StudyPlayer):
    name = "quick"
    PARAMS = {"samples": 10, "budget": 500, "checks": 2, "extend": 1}
    EXTEND_AGREEING = False
