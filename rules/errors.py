"""The library's exceptions: one base class, one subclass per kind of bad input.

Subclasses that describe bad user input also derive from ``ValueError`` so callers that only
know the standard library can still catch them.  Every message quotes the offending value.
"""


class AisleError(Exception):
    """Base class of every error raised by ``rules`` and ``solvers``."""


class InvalidCardError(AisleError, ValueError):
    """A card token that is not rank+suit (``TH``, ``10h``, ``qs``)."""


class InvalidDealError(AisleError, ValueError):
    """A deal or layout text that is malformed, or has missing, duplicate or unknown cards."""


class InvalidSeedError(AisleError, ValueError):
    """A seed or deal number outside the range a numbering accepts, or a malformed seed range."""


class IllegalMoveError(AisleError, ValueError):
    """A move that does not parse, or that the rules refuse in the current position."""


class UnknownGameError(AisleError, ValueError):
    """A game name that is not registered."""


class InvalidOptionError(AisleError, ValueError):
    """A game option that does not exist or has a bad value."""


class InvalidStateError(AisleError, ValueError):
    """A position that is not a valid state of the game it was given to (wrong game, shape or cards)."""
