"""Moves in Aisleriot's vocabulary: ``drag S N D``, ``click S``, ``dbl S`` (spec section 1.2).

Inside kernels a move is one integer, ``kind << 24 | src << 16 | n << 8 | dst`` (slots < 256,
``n`` < 256), so move buffers are plain int arrays.  :class:`Move` is the Python face of that
integer: it prints in Aisleriot's vocabulary and parses back.
"""
from typing import NamedTuple

from rules._jit import jit
from rules.errors import IllegalMoveError, shorten

DRAG, CLICK, DBL = 0, 1, 2
KIND_NAMES = ("drag", "click", "dbl")


@jit
def encode(kind, src, n, dst):
    return (kind << 24) | (src << 16) | (n << 8) | dst


@jit
def move_kind(move):
    return move >> 24


@jit
def move_src(move):
    return (move >> 16) & 0xFF


@jit
def move_n(move):
    return (move >> 8) & 0xFF


@jit
def move_dst(move):
    return move & 0xFF


class Move(NamedTuple):
    """One Aisleriot action.  ``n`` and ``dst`` are 0 for clicks and double clicks."""

    kind: int
    src: int
    n: int = 0
    dst: int = 0

    @classmethod
    def from_code(cls, code):
        """The Move of a kernel move code; IllegalMoveError if ``code`` encodes none."""
        if isinstance(code, bool) or not hasattr(code, "__index__") or not 0 <= code.__index__() < 3 << 24:
            raise IllegalMoveError(f"move code {shorten(code)} is not a move (an int below {3 << 24})")
        code = code.__index__()
        return cls(code >> 24, (code >> 16) & 0xFF, (code >> 8) & 0xFF, code & 0xFF)

    def checked(self):
        """This move if its fields fit the code (kind 0..2, slots and count 0..255), else IllegalMoveError."""
        fields = tuple(self)
        if any(isinstance(f, bool) or not hasattr(f, "__index__") for f in fields) \
                or not 0 <= self.kind <= DBL or not all(0 <= f < 256 for f in fields[1:]):
            raise IllegalMoveError(f"{shorten(fields)} is not a move (kind 0..2, then three numbers 0..255)")
        return self

    @property
    def code(self):
        return (self.kind << 24) | (self.src << 16) | (self.n << 8) | self.dst

    @classmethod
    def parse(cls, text):
        """Parse ``drag 8 1 0``, ``click 6`` or ``dbl 7``."""
        parts = str(text).split()
        try:
            if parts and parts[0] == "drag" and len(parts) == 4:
                src, n, dst = (int(p) for p in parts[1:])
                if 0 <= src < 256 and 1 <= n < 256 and 0 <= dst < 256:
                    return cls(DRAG, src, n, dst)
            elif parts and parts[0] in ("click", "dbl") and len(parts) == 2:
                src = int(parts[1])
                if 0 <= src < 256:
                    return cls(CLICK if parts[0] == "click" else DBL, src)
        except ValueError:
            pass
        raise IllegalMoveError(
            f"cannot parse move {shorten(text)}: expected 'drag S N D', 'click S' or 'dbl S'"
        )

    def __str__(self):
        if self.kind == DRAG:
            return f"drag {self.src} {self.n} {self.dst}"
        return f"{KIND_NAMES[self.kind]} {self.src}"

    def __repr__(self):
        return f"Move.parse({str(self)!r})"
