"""The winnability atlas: every seed's verdict of a range, computed once, verified, shipped.

``lookup("yukon", 5)`` answers from the atlas files in ``solvers/atlas/data/`` (one per
variant: game, numbering, rule mode, options) without solving anything: ``winnable``,
``unsolvable``, ``unknown`` (every search it was given ran out of limits) or ``not covered``,
with the solution's length in atomic moves, the search effort and, where graded, the deal's
difficulty.  ``aisle atlas build``, ``check`` and ``pack`` make the files
(:mod:`solvers.studies.atlas_build`, :mod:`solvers.atlas.pack`); docs/atlas.md says
how they were built and verified.

A file is one magic line, one line of JSON (the header: variant, range, counts, unknown seeds,
how it was verified and built, the columns) and an xz-compressed payload of per-seed columns:
``verdict`` (0 unknown, 1 winnable, 2 unsolvable), ``length`` (atomic moves, 0 unless
winnable), ``nodes`` and ``micros`` (search effort on a log scale, one byte each: see
:func:`log_byte`) and optionally ``grade`` (0 none, 1 easy, 2 medium, 3 hard).  Reading checks
the payload's SHA-256 and the column sizes (a corrupt file is refused), and the first lookup
deals sample seeds and compares them with the digest the file was built on, so a rules change
that changes a deal makes every lookup fail loudly rather than answer for other deals.
"""
import functools
import hashlib
import json
import lzma
import math
import pathlib
from dataclasses import asdict, dataclass

import numpy as np

from rules import get_game
from rules.errors import AisleError, InvalidSeedError
from solvers.studies.stats import win_rate

MAGIC = b"AISLE-ATLAS 1\n"
DATA_DIR = pathlib.Path(__file__).parent / "data"
SUFFIX = ".atlas"
WINNABLE, UNSOLVABLE, UNKNOWN, NOT_COVERED = "winnable", "unsolvable", "unknown", "not covered"
VERDICT_NAMES = (UNKNOWN, WINNABLE, UNSOLVABLE)            # by code, as the results store codes them
GRADE_NAMES = (None, "easy", "medium", "hard")             # by code
LOG_STEPS = 8              #: effort bytes: 8 steps an octave (9% apart)
DIGEST_SEEDS = 16          #: seeds dealt to fingerprint the deals an atlas was built on


class AtlasError(AisleError):
    """An atlas file is corrupt, of another format, or built on deals these rules no longer deal."""


def log_byte(values):
    """Positive counts as one byte each: 0 for none (a negative value), else
    ``1 + round(LOG_STEPS * log2(value))`` capped at 255 (values up to about 2**31)."""
    v = np.asarray(values, dtype=np.float64)
    out = np.zeros(v.shape, np.uint8)
    pos = v >= 1
    out[pos] = np.minimum(255, 1 + np.rint(LOG_STEPS * np.log2(v[pos]))).astype(np.uint8)
    out[(v >= 0) & (v < 1)] = 1         # 0 < value < 1 rounds to 1 (log2 1 = 0)
    return out


def from_log_byte(codes):
    """The inverse of :func:`log_byte` (within 4.5%): float values, NaN for none."""
    c = np.asarray(codes, dtype=np.float64)
    return np.where(c == 0, np.nan, np.exp2((c - 1) / LOG_STEPS))


def deal_digest(game, numbering, options, seeds):
    """SHA-256 of the start arrays of ``seeds``: what the deals of a variant are."""
    h = hashlib.sha256()
    for seed in seeds:
        h.update(np.ascontiguousarray(game.deal(int(seed), numbering, **options).array).tobytes())
    return h.hexdigest()


def digest_seeds(first, count):
    """The seeds the deal digest is taken over: spread evenly over the range, both ends included."""
    return sorted({int(s) for s in np.linspace(first, first + count - 1, min(count, DIGEST_SEEDS))})


@dataclass(frozen=True)
class Entry:
    """What the atlas says of one seed.  ``nodes`` and ``seconds`` are the search effort of the
    run that decided it (within 4.5%, see :func:`log_byte`); None where the atlas has none."""

    game: str
    seed: int
    verdict: str                    # winnable | unsolvable | unknown | not covered
    length: int = None              # atomic moves of the verified solution
    nodes: int = None
    seconds: float = None
    grade: str = None               # easy | medium | hard, where the atlas grades the seed

    @property
    def winnable(self):
        """True, False, or None when the atlas does not know."""
        return {WINNABLE: True, UNSOLVABLE: False}.get(self.verdict)

    def as_dict(self):
        return asdict(self)

    def text(self):
        if self.verdict == NOT_COVERED:
            return f"{self.game} seed {self.seed}: not covered by the atlas"
        parts = [f"{self.game} seed {self.seed}: {self.verdict}"]
        if self.length is not None:
            parts.append(f"{self.length} atomic moves")
        if self.grade:
            parts.append(self.grade)
        if self.nodes is not None:
            parts.append(f"about {self.nodes:,} nodes, {self.seconds:.3g} s to decide")
        return ", ".join(parts)


class Atlas:
    """One atlas file: the verdicts of seeds ``first .. last`` of one variant."""

    def __init__(self, header, columns, path=None):
        self.header, self.columns, self.path = header, columns, path
        self.game = header["game"]
        self.first, self.count = int(header["first"]), int(header["count"])
        self.last = self.first + self.count - 1
        self._deals_checked = False

    # ---- the file ------------------------------------------------------------------------------
    @classmethod
    def read(cls, path):
        path = pathlib.Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise AtlasError(f"cannot read atlas file {str(path)!r}: {exc.strerror or exc}") from None
        return cls.from_bytes(data, str(path))

    @classmethod
    def from_bytes(cls, data, where="<bytes>"):
        if not data.startswith(MAGIC):
            raise AtlasError(f"{where!r} is not an atlas file of this format (no {MAGIC.strip().decode()!r} line)")
        end = data.find(b"\n", len(MAGIC))
        try:
            header = json.loads(data[len(MAGIC):end].decode("utf-8"))
            payload = data[end + 1:]
            specs = [(str(n), np.dtype(d), int(size)) for n, d, size in header["columns"]]
            count = int(header["count"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise AtlasError(f"atlas file {where!r} has a corrupt header ({exc})") from None
        if end < 0 or hashlib.sha256(payload).hexdigest() != header.get("payload_sha256"):
            raise AtlasError(f"atlas file {where!r} is corrupt: its data does not match its checksum")
        try:
            raw = lzma.decompress(payload)
        except lzma.LZMAError as exc:
            raise AtlasError(f"atlas file {where!r} is corrupt: {exc}") from None
        columns, at = {}, 0
        for name, dtype, size in specs:
            if size % dtype.itemsize or (name != "grade" and size // dtype.itemsize != count):
                raise AtlasError(f"atlas file {where!r}: column {name!r} has {size} bytes for {count} seeds")
            columns[name] = np.frombuffer(raw, dtype, size // dtype.itemsize, at)
            at += size
        if at != len(raw) or not {"verdict", "length", "nodes", "micros"} <= set(columns):
            raise AtlasError(f"atlas file {where!r}: its columns do not fill its data")
        return cls(header, columns, where)

    def to_bytes(self):
        """The file's bytes (the payload's checksum and the column sizes are filled in here)."""
        header = dict(self.header)
        header["columns"] = [[n, c.dtype.str, int(c.nbytes)] for n, c in self.columns.items()]
        payload = lzma.compress(b"".join(np.ascontiguousarray(c).tobytes() for c in self.columns.values()),
                                preset=9 | lzma.PRESET_EXTREME)
        header["payload_sha256"] = hashlib.sha256(payload).hexdigest()
        self.header = header
        return MAGIC + json.dumps(header, sort_keys=True, separators=(",", ":")).encode() + b"\n" + payload

    # ---- which deals ---------------------------------------------------------------------------
    def variant(self):
        h = self.header
        return {"game": h["game"], "numbering": h["numbering"], "rules": h["rules"], "options": h["options"]}

    def name(self):
        return variant_name(**self.variant())

    def check_deals(self):
        """Deal the digest seeds and compare them with the file's digest (once); AtlasError if
        the rules now deal other cards for them."""
        if self._deals_checked:
            return
        h = self.header
        game = get_game(h["game"])
        found = deal_digest(game, h["numbering"], h["options"], h["digest_seeds"])
        if found != h["deal_digest"]:
            raise AtlasError(f"the {self.name()} atlas was built on other deals than these rules deal "
                             f"(library {h['build'].get('library_version')}); rebuild it with 'aisle atlas build'")
        self._deals_checked = True

    # ---- reading -------------------------------------------------------------------------------
    def covers(self, seed):
        return self.first <= seed <= self.last

    def entry(self, seed):
        """The :class:`Entry` of ``seed`` (``not covered`` outside the range)."""
        seed = int(seed)
        if not self.covers(seed):
            return Entry(self.game, seed, NOT_COVERED)
        self.check_deals()
        i = seed - self.first
        c = self.columns
        verdict = VERDICT_NAMES[int(c["verdict"][i])]
        nodes, micros = from_log_byte([c["nodes"][i], c["micros"][i]])
        grade = None
        if "grade" in c and i < c["grade"].shape[0]:
            grade = GRADE_NAMES[int(c["grade"][i])]
        return Entry(self.game, seed, verdict,
                     length=int(c["length"][i]) if verdict == WINNABLE else None,
                     nodes=None if math.isnan(nodes) else int(round(nodes)),
                     seconds=None if math.isnan(micros) else micros / 1e6, grade=grade)

    def verdict_codes(self, lo, hi):
        """The verdict codes of seeds ``lo .. hi`` (clipped to the range) and the first seed."""
        self.check_deals()
        lo, hi = max(lo, self.first), min(hi, self.last)
        if lo > hi:
            return np.empty(0, np.uint8), lo
        return self.columns["verdict"][lo - self.first:hi - self.first + 1], lo

    def winnable_seeds(self, start, count, grade=None):
        """Up to ``count`` winnable seeds from ``start`` on (of ``grade``, if given), ascending,
        and the first seed not looked at (``last + 1`` when the range ran out)."""
        self.check_deals()
        if start > self.last:
            return [], start
        lo = max(start, self.first) - self.first
        ok = self.columns["verdict"][lo:] == 1
        if grade is not None:
            g = self.columns.get("grade", np.empty(0, np.uint8))[lo:]
            ok = ok[:g.shape[0]] & (g == GRADE_NAMES.index(grade))
        idx = np.flatnonzero(ok)[:count]
        if idx.shape[0] < count:
            scanned_to = self.first + lo + ok.shape[0]
        else:
            scanned_to = self.first + lo + int(idx[-1]) + 1
        return (idx + lo + self.first).tolist(), scanned_to

    def graded_last(self):
        """The last seed with a grade (first - 1 when none is graded)."""
        return self.first + self.columns.get("grade", np.empty(0)).shape[0] - 1

    # ---- summaries -----------------------------------------------------------------------------
    def counts(self):
        v = self.columns["verdict"]
        return {WINNABLE: int(np.count_nonzero(v == 1)), UNSOLVABLE: int(np.count_nonzero(v == 2)),
                UNKNOWN: int(np.count_nonzero(v == 0))}

    def info(self):
        """The header's summary as a dict (what ``aisle atlas info --format json`` prints)."""
        c = self.counts()
        rate = win_rate(c[WINNABLE], c[UNSOLVABLE], c[UNKNOWN])
        h = self.header
        return {"atlas": self.name(), **self.variant(), "first": self.first, "last": self.last,
                "counts": c, "win_rate": rate.rate, "interval_95": [rate.low, rate.high],
                "unknown_seeds": h["unknown_seeds"], "unsolvable_seeds": h.get("unsolvable_seeds"),
                "verification": h["verification"], "graded": h.get("grades"), "build": h["build"]}

    def info_text(self):
        i, c = self.info(), self.counts()
        v = i["verification"]
        rate = win_rate(c[WINNABLE], c[UNSOLVABLE], c[UNKNOWN])
        lines = [f"{i['atlas']}: seeds {self.first}-{self.last} ({self.count:,} deals)",
                 f"  winnable {c[WINNABLE]:,}, unsolvable {c[UNSOLVABLE]:,}, unknown {c[UNKNOWN]:,}; "
                 f"win rate {rate.text()} (95% Wilson interval, unknown counted both ways)"]
        if i["unknown_seeds"]:
            lines.append(f"  unknown seeds: {', '.join(map(str, i['unknown_seeds']))}")
        if i["unsolvable_seeds"] is not None:
            lines.append(f"  unsolvable seeds: {', '.join(map(str, i['unsolvable_seeds'])) or 'none'}")
        lines.append(f"  verified: {v['replayed']:,} solutions replayed by the referee; "
                     f"{v['checked']:,} of {c[UNSOLVABLE]:,} unsolvable verdicts re-checked by a plain "
                     f"search ({v['check_timeout']:g} s each): {v['confirmed']:,} confirmed, "
                     f"{v['out_of_time']:,} out of time, {v['contradicted']} contradicted")
        if i["graded"]:
            g = i["graded"]
            lines.append(f"  graded: seeds {self.first}-{self.graded_last()} by {g['by']}")
        b = i["build"]
        lines.append(f"  built with library {b['library_version']}, limits {b['limits']}; "
                     f"{b['search_seconds']:,.0f} s of search" + (f"; {b['note']}" if b.get("note") else ""))
        return "\n".join(lines)


def variant_name(game, numbering, rules, options):
    """The file name (without suffix) of a variant: ``yukon``, ``freecell-microsoft``,
    ``ten-across-spots-off``; the game's defaults are left out."""
    g = get_game(game)
    parts = [g.name]
    if numbering != g.default_numbering:
        parts.append(numbering)
    if rules != "aisleriot":
        parts.append(f"rules-{rules}")
    defaults = g.resolve_options(None)
    for key in sorted(options):
        if options[key] != defaults.get(key):
            parts.append(f"{key}-{'on' if options[key] else 'off'}")
    return "-".join(parts)


@functools.lru_cache(maxsize=None)
def _load(path):
    return Atlas.read(path)


def shipped():
    """Every atlas file the package ships, read (each once a process)."""
    return [_load(p) for p in sorted(DATA_DIR.glob("*" + SUFFIX))]


def find(game, numbering=None, rules="aisleriot", options=None):
    """The shipped :class:`Atlas` of a variant, or None.  Only that file is read."""
    g = get_game(game)
    numbering = g.default_numbering if numbering is None else numbering
    path = DATA_DIR / (variant_name(g.name, numbering, rules, g.resolve_options(options)) + SUFFIX)
    return _load(path) if path.exists() else None


def lookup(game, seed, numbering=None, rules="aisleriot", options=None):
    """What the shipped atlas says of ``seed``: an :class:`Entry` (``not covered`` when no
    atlas covers it)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InvalidSeedError(f"seed {seed!r} must be a whole number")
    atlas = find(game, numbering, rules, options)
    if atlas is None:
        return Entry(get_game(game).name, int(seed), NOT_COVERED)
    return atlas.entry(seed)
