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
:func:`log_byte`) and optionally ``won`` over the graded seeds at the start of the range (0 not
graded, else 1 + the no-peek games won of the header's ``grades.games``).  Reading checks
the file's SHA-256 (header and payload) and the column sizes (a corrupt file is refused), and the first lookup
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
from solvers.players.grading import grade_of
from solvers.studies.seeds import SeedSet
from solvers.studies.stats import win_rate

MAGIC = b"AISLE-ATLAS 1\n"
DATA_DIR = pathlib.Path(__file__).parent / "data"
SUFFIX = ".atlas"
WINNABLE, UNSOLVABLE, UNKNOWN, NOT_COVERED = "winnable", "unsolvable", "unknown", "not covered"
VERDICT_NAMES = (UNKNOWN, WINNABLE, UNSOLVABLE)            # by code, as the results store codes them
LOG_STEPS = 2              #: effort bytes: 2 steps an octave (a rough figure; it compresses well)
DIGEST_SEEDS = 16          #: seeds dealt to fingerprint the deals an atlas was built on


class AtlasError(AisleError):
    """An atlas file is corrupt, of another format, or built on deals these rules no longer deal."""


def log_byte(values):
    """Positive counts as one byte each: 0 for none (a negative value), else
    ``1 + round(LOG_STEPS * log2(value))`` capped at 255 (values up to 2**127)."""
    v = np.asarray(values, dtype=np.float64)
    out = np.zeros(v.shape, np.uint8)
    pos = v >= 1
    out[pos] = np.minimum(255, 1 + np.rint(LOG_STEPS * np.log2(v[pos]))).astype(np.uint8)
    out[(v >= 0) & (v < 1)] = 1         # 0 < value < 1 rounds to 1 (log2 1 = 0)
    return out


def from_log_byte(codes):
    """The inverse of :func:`log_byte` (within 19%): float values, NaN for none."""
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
    run that decided it (within 19%, see :func:`log_byte`); None where the atlas has none."""

    game: str
    seed: int
    verdict: str                    # winnable | unsolvable | unknown | not covered
    length: int = None              # atomic moves of the verified solution
    nodes: int = None
    seconds: float = None
    grade: str = None               # easy | medium | hard, where the atlas grades the seed
    won: int = None                 # no-peek games won of ``games`` (the grade's measure)
    games: int = None

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
            parts.append(f"{self.grade} ({self.won}/{self.games} no-peek games won)")
        if self.nodes is not None:
            parts.append(f"about {self.nodes:,} nodes, {self.seconds:.3g} s "
                         + ("searched" if self.verdict == UNKNOWN else "to decide"))
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
        if end < 0 or not isinstance(header, dict) or _checksum(header, payload) != header.get("sha256"):
            raise AtlasError(f"atlas file {where!r} is corrupt: it does not match its checksum")
        try:
            raw = lzma.decompress(payload)
        except lzma.LZMAError as exc:
            raise AtlasError(f"atlas file {where!r} is corrupt: {exc}") from None
        columns, at = {}, 0
        for name, dtype, size in specs:
            if size % dtype.itemsize or size // dtype.itemsize > count or (
                    name != "won" and size // dtype.itemsize != count):
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
        header["sha256"] = _checksum(header, payload)
        self.header = header
        return MAGIC + _canonical(header) + b"\n" + payload

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
        won = self.games_won(seed)
        games = self.header["grades"]["games"] if won is not None else None
        return Entry(self.game, seed, verdict,
                     length=int(c["length"][i]) if verdict == WINNABLE else None,
                     nodes=None if math.isnan(nodes) else int(round(nodes)),
                     seconds=None if math.isnan(micros) else float(micros) / 1e6,
                     grade=None if won is None else grade_of(won, games), won=won, games=games)

    def games_won(self, seed):
        """No-peek games won on a graded winnable ``seed``, or None."""
        i = int(seed) - self.first
        won = self.columns.get("won")
        if won is None or not 0 <= i < won.shape[0] or won[i] == 0:
            return None
        return int(won[i]) - 1

    def graded_last(self):
        """The last seed graded (``first - 1`` when none is)."""
        return self.first + self.columns.get("won", np.empty(0)).shape[0] - 1

    def split(self, seedset):
        """``(counts, rest)``: the verdict counts of the seeds of ``seedset`` this atlas covers,
        and the SeedSet of the others (None when it covers them all)."""
        self.check_deals()
        counts = dict.fromkeys((WINNABLE, UNSOLVABLE, UNKNOWN), 0)
        rest = []
        for lo, hi in seedset.ranges:
            a, b = max(lo, self.first), min(hi, self.last)
            if a <= b:
                v = self.columns["verdict"][a - self.first:b - self.first + 1]
                for code, name in enumerate(VERDICT_NAMES):
                    counts[name] += int(np.count_nonzero(v == code))
            rest += [(x, y) for x, y in ((lo, min(hi, self.first - 1)), (max(lo, self.last + 1), hi)) if x <= y]
        return counts, (SeedSet(rest) if rest else None)

    # ---- summaries -----------------------------------------------------------------------------
    def counts(self):
        v = self.columns["verdict"]
        return {WINNABLE: int(np.count_nonzero(v == 1)), UNSOLVABLE: int(np.count_nonzero(v == 2)),
                UNKNOWN: int(np.count_nonzero(v == 0))}

    def rate(self):
        """The win rate over the range, a :class:`solvers.studies.stats.WinRate` (95% interval)."""
        c = self.counts()
        return win_rate(c[WINNABLE], c[UNSOLVABLE], c[UNKNOWN])

    def info(self):
        """The header's summary as a dict (what ``aisle atlas info --format json`` prints)."""
        c, rate = self.counts(), self.rate()
        h = self.header
        return {"atlas": self.name(), **self.variant(), "first": self.first, "last": self.last,
                "counts": c, "win_rate": rate.rate, "interval_95": [rate.low, rate.high],
                "unknown_seeds": h["unknown_seeds"], "unsolvable_seeds": h.get("unsolvable_seeds"),
                "verification": h["verification"], "graded": h.get("grades"), "build": h["build"]}

    def info_text(self):
        i, rate = self.info(), self.rate()
        c, v = i["counts"], i["verification"]
        limit = f" ({v['check_timeout']:g} s each)" if v["check_timeout"] else ""
        lines = [f"{i['atlas']}: seeds {self.first}-{self.last} ({self.count:,} deals)",
                 f"  winnable {c[WINNABLE]:,}, unsolvable {c[UNSOLVABLE]:,}, unknown {c[UNKNOWN]:,}; "
                 f"win rate {rate.text()} (95% Wilson interval, unknown counted both ways)"]
        if i["unknown_seeds"]:
            lines.append(f"  unknown seeds: {', '.join(map(str, i['unknown_seeds']))}")
        if i["unsolvable_seeds"] is not None:
            lines.append(f"  unsolvable seeds: {', '.join(map(str, i['unsolvable_seeds'])) or 'none'}")
        lines.append(f"  verified: {v['replayed']:,} solutions replayed by the referee; "
                     f"{v['checked']:,} of {c[UNSOLVABLE]:,} unsolvable verdicts re-checked by a plain "
                     f"search{limit}: {v['confirmed']:,} confirmed, "
                     f"{v['out_of_time']:,} out of time, {v['contradicted']} contradicted")
        if i["graded"]:
            g = i["graded"]
            lines.append(f"  graded: seeds {self.first}-{self.graded_last()} by {g['by']}")
        b = i["build"]
        lines.append(f"  built with library {b['library_version']}, limits {b['limits']}; "
                     f"{b['search_seconds']:,.0f} s of search" + (f"; {b['note']}" if b.get("note") else ""))
        return "\n".join(lines)


def _canonical(header):
    return json.dumps(header, sort_keys=True, separators=(",", ":")).encode()


def _checksum(header, payload):
    """SHA-256 of the header (without its checksum) and the payload: any damage shows."""
    return hashlib.sha256(_canonical({k: v for k, v in header.items() if k != "sha256"}) + b"\n"
                          + payload).hexdigest()


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


def shipped_path(game, numbering, rules, options):
    """Where the package keeps the atlas file of a variant."""
    return DATA_DIR / (variant_name(game, numbering, rules, options) + SUFFIX)


def find(game, numbering=None, rules="aisleriot", options=None):
    """The shipped :class:`Atlas` of a variant, or None.  Only that file is read."""
    g = get_game(game)
    numbering = g.default_numbering if numbering is None else numbering
    path = shipped_path(g.name, numbering, rules, g.resolve_options(options))
    return _load(path) if path.exists() else None


def lookup(game, seed, numbering=None, rules="aisleriot", options=None, compute=False, timeout=10.0):
    """What the shipped atlas says of ``seed``: an :class:`Entry`, ``not covered`` when no atlas
    covers it, unless ``compute``: then the seed is solved now (within ``timeout`` seconds; the
    solution replayed by the referee) and the Entry says what that found."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InvalidSeedError(f"seed {seed!r} must be a whole number")
    g = get_game(game)
    atlas = find(g.name, numbering, rules, options)
    entry = atlas.entry(seed) if atlas is not None else Entry(g.name, int(seed), NOT_COVERED)
    if entry.verdict != NOT_COVERED or not compute:
        return entry
    from solvers.core.registry import get_solver

    state = g.deal(int(seed), numbering, **(options or {}))
    result = get_solver(g).solve(state, rules=rules, timeout=timeout)
    if result.solved:
        result.verify()
    verdict = {"solved": WINNABLE, "unsolvable": UNSOLVABLE}.get(result.verdict, UNKNOWN)
    return Entry(g.name, int(seed), verdict, length=result.atomic_length if result.solved else None,
                 nodes=int(result.nodes_expanded), seconds=result.seconds)
