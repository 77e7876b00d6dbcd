"""What a game's kernels share with every module above them: the state array's integer type and
the verdicts ``status`` returns.

Kept apart from :mod:`rules.game` so that the modules ``rules.game`` itself uses
(:mod:`rules.observation`) can have them without importing it back.
"""
from enum import IntEnum

import numpy as np

STATE_DTYPE = np.int16


class Outcome(IntEnum):
    ONGOING = 0
    WON = 1
    LOST = 2
    ABORTED = 3  # Aisleriot would throw a Scheme error here (Zebra, spec 7.6)
