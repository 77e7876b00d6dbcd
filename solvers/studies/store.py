"""The results store: one SQLite file, one row per solved deal, safe to kill and resume.

Why SQLite: it is in the standard library, needs no server, and its transactions give the
guarantees resuming needs.  Each batch of deals is written in one transaction, so a process
killed with ``kill -9`` loses at most the batches not yet committed and never leaves a partial
batch behind.  The journal is a write-ahead log (``WAL``), which also lets ``aisle report`` read
while a run is writing.

Schema (``SCHEMA_VERSION`` 1)::

    meta(key PRIMARY KEY, value)                   application name, schema version
    runs(run_id PRIMARY KEY, settings UNIQUE, game, numbering, rules, options, timeout,
         max_nodes, created)
    results(run_id, seed, verdict, length, nodes, seconds, version,
            PRIMARY KEY (run_id, seed)) WITHOUT ROWID
    deals                                          view: results joined with runs, one row per deal

``settings`` is the canonical JSON of everything that can change a verdict (game, numbering,
rule mode, resolved options, solver limits); deals with different settings get different
``run_id`` values and are never mixed.  A setting added later (beyond ``CORE_SETTINGS``) is
left out of the key while it is None, its default, so the runs of an older store stay the
same runs; readers see it as absent (``run.get(key)`` is None).  The primary key ``(run_id, seed)`` makes a duplicate row
impossible.  The library version is recorded per row but is not part of the key, so upgrading
the library continues a run rather than restarting it (``aisle report`` lists the versions).

The file is marked with SQLite's ``application_id``; a database written by another program is
refused before anything is written to it.
"""
import json
import os
import pathlib
import sqlite3
import time

import numpy as np

from rules.errors import AisleError, shorten

from solvers.core.result import SOLVED, UNKNOWN, UNSOLVABLE, VERDICT_CODE, VERDICT_CODES

APPLICATION_ID = 0x41534C45          # "ASLE"
SCHEMA_VERSION = 1
UNKNOWN_CODE, SOLVED_CODE, UNSOLVABLE_CODE = VERDICT_CODE[UNKNOWN], VERDICT_CODE[SOLVED], VERDICT_CODE[UNSOLVABLE]
CORE_SETTINGS = ("game", "numbering", "rules", "options", "timeout", "max_nodes")   #: always in the key
BATCH_COLUMNS = ("seed", "verdict", "length", "nodes", "seconds")
_COUNTED_AS = {"won": SOLVED, "lost": UNSOLVABLE}       # an auto-player's games, counted as verdicts

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id    INTEGER PRIMARY KEY,
    settings  TEXT NOT NULL UNIQUE,
    game      TEXT NOT NULL,
    numbering TEXT NOT NULL,
    rules     TEXT NOT NULL,
    options   TEXT NOT NULL,
    timeout   REAL,
    max_nodes INTEGER,
    created   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    run_id  INTEGER NOT NULL REFERENCES runs(run_id),
    seed    INTEGER NOT NULL,
    verdict TEXT NOT NULL,          -- solved | unsolvable | unknown, or won | lost for a player's games (checked in Python)
    length  INTEGER,
    nodes   INTEGER,
    seconds REAL NOT NULL,
    version TEXT NOT NULL,
    PRIMARY KEY (run_id, seed)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS deals AS
    SELECT runs.game, runs.numbering, results.seed, runs.rules, runs.options, runs.timeout,
           runs.max_nodes, results.verdict, results.length, results.nodes, results.seconds,
           results.version, results.run_id
    FROM results JOIN runs USING (run_id);
"""


class StoreError(AisleError, ValueError):
    """The results database cannot be opened, is not ours, or cannot be written."""


def settings_key(settings):
    """Canonical JSON of a settings dict: the identity of a run.  Settings beyond
    ``CORE_SETTINGS`` are left out while None (see the module docstring)."""
    missing = [key for key in CORE_SETTINGS if key not in settings]
    if missing:
        raise StoreError(f"run settings {shorten(settings)} lack {', '.join(missing)}")
    kept = {key: value for key, value in settings.items() if key in CORE_SETTINGS or value is not None}
    return json.dumps(kept, sort_keys=True, separators=(",", ":"))


def check_batch(batch):
    """Refuse a batch whose columns could store a false or partial verdict: columns of unequal
    length, a verdict code that is none of the three, a length on a deal not solved (or none on
    one solved), negative nodes or seconds, a seed twice.  Returns the number of rows."""
    if not isinstance(batch, dict) or any(name not in batch for name in BATCH_COLUMNS):
        raise StoreError(f"a batch must be a dict of the columns {', '.join(BATCH_COLUMNS)}, "
                         f"got {shorten(batch)}")
    cols = {name: np.asarray(batch[name]) for name in BATCH_COLUMNS}
    n = cols["seed"].shape[0] if cols["seed"].ndim == 1 else -1
    if n < 0 or any(c.shape != (n,) for c in cols.values()):
        raise StoreError("batch columns of unequal shapes: "
                         + ", ".join(f"{k} {c.shape}" for k, c in cols.items()))
    verdict, length = cols["verdict"], cols["length"]
    problems = (
        ("verdict code", ~np.isin(verdict, (UNKNOWN_CODE, SOLVED_CODE, UNSOLVABLE_CODE))),
        ("length", (verdict == SOLVED_CODE) != (length >= 0)),
        ("node count", cols["nodes"] < -1),
        ("seconds", ~(cols["seconds"] >= 0)),
    )
    for what, bad in problems:
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise StoreError(f"refusing to store a batch with a bad {what} at row {i} "
                             f"(seed {cols['seed'][i]!r})")
    seeds, counts = np.unique(cols["seed"], return_counts=True)
    if np.any(counts > 1):
        raise StoreError(f"refusing to store a batch with seed {seeds[counts > 1][0]!r} twice")
    return n


class ResultsStore:
    """An open results database.  ``path=":memory:"`` keeps everything in memory."""

    def __init__(self, path, readonly=False):
        self.path = str(path)
        self.readonly = readonly
        self._conn = self._open()

    # ---- opening and validation --------------------------------------------------------------
    def _open(self):
        path = self.path
        memory = path == ":memory:"
        if not memory:
            if os.path.isdir(path):
                raise StoreError(f"results database {path!r} is a directory")
            exists = os.path.exists(path)
            if self.readonly and not exists:
                raise StoreError(f"results database {path!r} does not exist")
            parent = os.path.dirname(os.path.abspath(path))
            if not exists and not os.path.isdir(parent):
                raise StoreError(f"cannot create results database {path!r}: directory {parent!r} does not exist")
            if not self.readonly:
                # SQLite would say "not a database" or "readonly database" later, in the middle
                unwritable = [p for p in ([path] if exists else []) + [parent] if not os.access(p, os.W_OK)]
                if unwritable:
                    reader = "'aisle report' can read it; " if exists else ""
                    raise StoreError(f"cannot write results database {path!r}: {unwritable[0]!r} is "
                                     f"read-only for this user ({reader}give another --db, or --no-db)")
        try:
            if self.readonly:
                conn = self._connect_readonly(path)
            else:
                conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        except (sqlite3.Error, ValueError) as exc:          # ValueError: a NUL in the path
            raise StoreError(f"cannot open results database {path!r}: {exc}") from None
        try:
            self._check_ours(conn)
            if not self.readonly:
                self._init_schema(conn)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"cannot use results database {path!r}: {exc}") from None
        except StoreError:
            conn.close()
            raise
        return conn

    def _connect_readonly(self, path):
        """A read-only connection.  A WAL database (ours are) needs its ``-shm`` file, which a
        user who cannot write the file's folder cannot create: then, when no ``-wal`` file holds
        results not yet copied into the database (no writer is at work), it is opened as
        immutable, which needs neither."""
        uri = pathlib.Path(path).absolute().as_uri() + "?mode=ro"   # quotes '?', '#', '%'
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            conn.close()
        except sqlite3.DatabaseError:       # not a database at all: _check_ours says so
            return conn
        wal = path + "-wal"
        if os.path.exists(wal) and os.path.getsize(wal) > 0:
            raise StoreError(f"cannot read results database {path!r}: its latest results are in "
                             f"{wal!r}, which only a user who can write there can read")
        return sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)

    def _check_ours(self, conn):
        """Refuse (without writing) a file that is not an aisle-solvers SQLite database."""
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path!r} is not an SQLite database ({exc}); "
                             "refusing to touch it") from None
        if app_id == 0 and not tables:
            if self.readonly:
                raise StoreError(f"{self.path!r} is an empty database with no results")
            return                                    # new (or empty) file: ours to set up
        if app_id != APPLICATION_ID:
            shown = ", ".join(tables[:5]) + (" ..." if len(tables) > 5 else "")
            raise StoreError(f"{self.path!r} is not an aisle results database (application_id "
                             f"{app_id:#x}, tables: {shown or 'none'}); refusing to touch it")
        version = dict(conn.execute("SELECT key, value FROM meta").fetchall()).get("schema_version")
        if version != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path!r} has results schema version {version}, this library "
                             f"reads version {SCHEMA_VERSION}")

    def _init_schema(self, conn):
        try:
            if self.path != ":memory:":
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")   # with WAL: a killed process loses no commit
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"cannot write results database {self.path!r}: {exc}") from None
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('application', 'aisle-solvers')")
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            _rollback(conn)
            raise StoreError(f"cannot write results database {self.path!r}: {exc}") from None

    def close(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- runs ----------------------------------------------------------------------------------
    def run_id(self, settings, create=True):
        """The id of the run with exactly these settings (created if new); None if absent and not create."""
        key = settings_key(settings)
        row = self._conn.execute("SELECT run_id FROM runs WHERE settings = ?", (key,)).fetchone()
        if row or not create:
            return row[0] if row else None
        with self._write():
            self._conn.execute(
                "INSERT OR IGNORE INTO runs (settings, game, numbering, rules, options, timeout, max_nodes, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, settings["game"], settings["numbering"], settings["rules"],
                 json.dumps(settings["options"], sort_keys=True), settings["timeout"],
                 settings["max_nodes"], time.strftime("%Y-%m-%dT%H:%M:%S")))
        return self._conn.execute("SELECT run_id FROM runs WHERE settings = ?", (key,)).fetchone()[0]

    def runs(self):
        """Every run as a dict (settings decoded), in creation order."""
        cur = self._conn.execute("SELECT run_id, settings, created FROM runs ORDER BY run_id")
        return [dict(json.loads(s), run_id=r, created=c) for r, s, c in cur.fetchall()]

    # ---- results -------------------------------------------------------------------------------
    def done_seeds(self, run_id, seedset=None, include_unknown=True):
        """Sorted ``np.int64`` array of the seeds of ``run_id`` already stored (within ``seedset``)."""
        cond = "" if include_unknown else " AND verdict != 'unknown'"
        parts = []
        ranges = seedset.ranges if seedset is not None else [(None, None)]
        for lo, hi in ranges:
            if lo is None:
                cur = self._conn.execute(f"SELECT seed FROM results WHERE run_id = ?{cond} ORDER BY seed", (run_id,))
            else:
                cur = self._conn.execute(
                    f"SELECT seed FROM results WHERE run_id = ? AND seed BETWEEN ? AND ?{cond} ORDER BY seed",
                    (run_id, lo, hi))
            parts.append(np.fromiter((r[0] for r in cur), dtype=np.int64))
        return np.concatenate(parts) if parts else np.empty(0, np.int64)

    def counts(self, run_id, seedset=None):
        """``{"solved": n, "unsolvable": n, "unknown": n}`` for ``run_id`` (within ``seedset``)."""
        out = dict.fromkeys(("solved", "unsolvable", "unknown"), 0)
        ranges = seedset.ranges if seedset is not None else [(None, None)]
        for lo, hi in ranges:
            if lo is None:
                cur = self._conn.execute(
                    "SELECT verdict, count(*) FROM results WHERE run_id = ? GROUP BY verdict", (run_id,))
            else:
                cur = self._conn.execute(
                    "SELECT verdict, count(*) FROM results WHERE run_id = ? AND seed BETWEEN ? AND ? "
                    "GROUP BY verdict", (run_id, lo, hi))
            for verdict, n in cur:
                out[_COUNTED_AS.get(verdict, verdict)] += n
        return out

    def add_batch(self, run_id, batch, version, replace=False, verdict_texts=VERDICT_CODES):
        """Write one batch (see :func:`solvers.studies.dispatch.solve_batch`) in one transaction.

        A seed already stored for this run is kept as it is (a second client on the same store
        may have solved it first), unless ``replace`` (used to retry unknown deals).  Returns the
        number of rows written.  A malformed batch is refused (:func:`check_batch`).
        ``verdict_texts`` writes the codes as words (an auto-player's games: unknown, won, lost).
        """
        check_batch(batch)
        verdicts = [verdict_texts[v] for v in batch["verdict"].tolist()]
        length = [None if x < 0 else x for x in batch["length"].tolist()]
        nodes = [None if x < 0 else x for x in batch["nodes"].tolist()]
        rows = zip([run_id] * len(verdicts), batch["seed"].tolist(), verdicts, length, nodes,
                   batch["seconds"].tolist(), [version] * len(verdicts))
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        with self._write():
            before = self._conn.total_changes
            self._conn.executemany(
                f"{verb} INTO results (run_id, seed, verdict, length, nodes, seconds, version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            return self._conn.total_changes - before

    def arrays(self, run_id):
        """Columns of one run in seed order: seed, verdict code, length (-1 = none), nodes, seconds."""
        cur = self._conn.execute(
            "SELECT seed, CASE verdict WHEN 'solved' THEN 1 WHEN 'won' THEN 1 WHEN 'unsolvable' THEN 2"
            " WHEN 'lost' THEN 2 ELSE 0 END,"
            " coalesce(length, -1), coalesce(nodes, -1), seconds FROM results WHERE run_id = ? ORDER BY seed",
            (run_id,))
        rows = cur.fetchall()
        if not rows:
            empty = np.empty(0, np.int64)
            return {"seed": empty, "verdict": empty.astype(np.int8), "length": empty, "nodes": empty,
                    "seconds": np.empty(0, np.float64)}
        seed, verdict, length, nodes, seconds = zip(*rows)
        return {"seed": np.array(seed, np.int64), "verdict": np.array(verdict, np.int8),
                "length": np.array(length, np.int64), "nodes": np.array(nodes, np.int64),
                "seconds": np.array(seconds, np.float64)}

    def versions(self, run_id):
        return [r[0] for r in self._conn.execute(
            "SELECT DISTINCT version FROM results WHERE run_id = ? ORDER BY version", (run_id,))]

    def deal_rows(self, run_id=None):
        """Every stored deal (the ``deals`` view) as dicts, optionally for one run."""
        sql = "SELECT * FROM deals" + (" WHERE run_id = ?" if run_id is not None else "") + " ORDER BY run_id, seed"
        cur = self._conn.execute(sql, () if run_id is None else (run_id,))
        names = [d[0] for d in cur.description]
        for row in cur:
            yield dict(zip(names, row))

    # ---- transactions --------------------------------------------------------------------------
    def _write(self):
        return _Transaction(self)


def _rollback(conn):
    """Undo the open transaction, if any; a failing rollback (the disk is gone) must not hide
    the error that caused it, and SQLite undoes the transaction on close anyway."""
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error); SQLite errors become StoreError."""

    def __init__(self, store):
        self.store = store

    def __enter__(self):
        if self.store.readonly:
            raise StoreError(f"results database {self.store.path!r} is open read-only")
        try:
            self.store._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"cannot write results database {self.store.path!r}: {exc}") from None
        return self

    def __exit__(self, exc_type, exc, tb):
        conn = self.store._conn
        if exc_type is None:
            try:
                conn.execute("COMMIT")
                return False
            except sqlite3.Error as err:
                exc_type, exc = StoreError, err
        _rollback(conn)
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"cannot write results database {self.store.path!r}: {exc}") from None
        return False
