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


class InvalidTraceError(AisleError, ValueError):
    """A conformance trace that cannot be read or has a malformed line (file and line quoted)."""


class UnreadableFileError(InvalidDealError):
    """A user text file (board, layout, solution) that is missing, too large or not UTF-8."""


def shorten(value, limit=60):
    """``repr(value)``, cut to at most ``limit`` characters with a trailing ``...``.

    Parsers quote user input in their messages; a 5 MB garbage board must still give a short
    error line, so every quoted value goes through here.
    """
    if isinstance(value, (str, bytes)):
        text = repr(value[:limit])          # never build the repr of a huge string
        return text[:max(limit - 3, 1)] + "..." if len(value) > limit else clip(text, limit)
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return clip(f"<int of {value.bit_length()} bits>", limit)
    try:
        return clip(repr(value), limit)
    except Exception:                       # a repr that fails must not hide the real error
        return clip(f"<{type(value).__name__} object>", limit)


def clip(text, limit=200):
    """Plain ``text`` cut to at most ``limit`` characters with a trailing ``...``."""
    text = str(text)
    return text if len(text) <= limit else text[:max(limit - 3, 1)] + "..."


def listing(items, limit=8, sep=" "):
    """``items`` joined by ``sep``, at most ``limit`` of them, then how many there are in all."""
    items = list(items)
    if len(items) <= limit:
        return sep.join(items)
    return sep.join(items[:limit]) + f" ... ({len(items)} in all)"
