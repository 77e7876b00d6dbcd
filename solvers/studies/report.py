"""Reading a results store back: the summary per run, its text table, and the plots.

:func:`summarize` gives one row of settings and counts per stored run (:func:`summary_row` the
row of one run's settings and :class:`solvers.studies.stats.WinRate`), :func:`format_table`
prints rows as ``aisle winrate`` and ``aisle report`` show them, and :func:`plot_report` draws
each run's running win rate and its time and length histograms with matplotlib
(:func:`plot_target` checks the file to write before anything is read).
"""
import math
import os

import numpy as np

from rules.errors import InvalidOptionError, shorten
from solvers.studies.stats import win_rate, z_value
from solvers.studies.store import SOLVED_CODE, UNKNOWN_CODE, ResultsStore, StoreError
from solvers.studies.winrate import extra_settings, limits_text, options_text, player_text, settings_text


def summarize(db, confidence=0.95):
    """One dict per run stored in ``db`` (a path or an open ResultsStore): settings and counts.

    Settings beyond the core ones (see :func:`extra_settings`) get a key in every row, None
    where a run leaves them at their default, so CSV columns stay the same across rows."""
    z_value(confidence)
    store = db if isinstance(db, ResultsStore) else ResultsStore(db, readonly=True)
    try:
        runs = store.runs()
        extras = sorted({key for run in runs for key in extra_settings(run)})
        out = []
        for run in runs:
            counts = store.counts(run["run_id"])
            w = win_rate(counts["solved"], counts["unsolvable"], counts["unknown"], confidence)
            row = summary_row(run, w)
            for key in extras:                     # every row: the same keys in the same order
                row[key] = row.pop(key, None)
            row.update(versions=",".join(store.versions(run["run_id"])), run_id=run["run_id"])
            out.append(row)
        return out
    finally:
        if store is not db:
            store.close()


def summary_row(settings, stats):
    """The report's fields for one run: settings (extra ones last) and a
    :class:`solvers.studies.stats.WinRate`."""
    w = stats
    row = {"game": settings["game"], "numbering": settings["numbering"], "rules": settings["rules"],
           "options": options_text(settings["options"]), "limits": limits_text(settings),
           "deals": w.deals, "won": w.won, "unsolvable": w.unsolvable, "unknown": w.unknown,
           "win_rate": None if math.isnan(w.rate) else w.rate, "low": w.low, "high": w.high,
           "confidence": w.confidence}
    row.update({k: player_text(v) if k == "player" else v for k, v in extra_settings(settings).items()})
    return row


_TABLE = (("game", "game"), ("numbering", "numbering"), ("rules", "rules"), ("options", "options"),
          ("limits", "limits"))
# "lost": proven unsolvable in a solver's run, a game the player lost in a player's run
_COUNTS = (("deals", "deals"), ("won", "won"), ("unsolvable", "lost"), ("unknown", "unknown"))


def format_table(rows):
    """Fixed-width text table of :func:`summarize` rows (extra settings get their own columns)."""
    extras = [k for k in (rows[0] if rows else {}) if k not in _KNOWN_FIELDS]
    confidence = rows[0]["confidence"] if rows else 0.95
    head = ([title for _, title in _TABLE] + extras + [title for _, title in _COUNTS]
            + ["win rate", f"{100 * confidence:g}% Wilson interval"])
    body = []
    for r in rows:
        rate = "n/a" if r["win_rate"] is None else f"{100 * r['win_rate']:.3f}%"
        body.append([str(r[key]) for key, _ in _TABLE] + ["-" if r[k] is None else str(r[k]) for k in extras]
                    + [str(r[key]) for key, _ in _COUNTS]
                    + [rate, f"[{100 * r['low']:.3f}%, {100 * r['high']:.3f}%]"])
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    first_number = len(_TABLE) + len(extras)
    lines = []
    for row in [head] + body:
        cells = [c.rjust(w) if first_number <= i < len(head) - 1 else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


_KNOWN_FIELDS = {key for key, _ in _TABLE + _COUNTS} | {"win_rate", "low", "high", "confidence", "versions",
                                                      "run_id"}


def plot_target(path):
    """The file ``--plot`` will write, checked before anything is read or drawn: ``(path, format)``.

    The format is the extension, which must be one matplotlib can write; a name without one
    gets ``.png`` (as matplotlib itself would add), and the returned path says so.  A directory,
    or a file in a directory that does not exist, is refused.
    """
    if (not isinstance(path, (str, os.PathLike)) or isinstance(os.fspath(path), bytes)
            or not os.fspath(path).strip() or "\0" in os.fspath(path)):
        raise InvalidOptionError(f"plot file {shorten(path)} must be a file name such as winrate.png")
    path = os.fspath(path)
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise InvalidOptionError("--plot needs matplotlib: pip install 'aisle-solvers[plot]'") from None
    formats = FigureCanvasBase.get_supported_filetypes()
    if os.path.isdir(path):
        raise InvalidOptionError(f"plot file {path!r} is a directory (give a file name such as winrate.png)")
    stem, ext = os.path.splitext(path)
    fmt = ext[1:].lower()
    if not fmt:
        path, fmt = path.rstrip(".") + ".png", "png"
        if os.path.isdir(path):
            raise InvalidOptionError(f"plot file {path!r} is a directory (give a file name such as winrate.png)")
    elif fmt not in formats:
        raise InvalidOptionError(f"cannot draw a plot as {ext!r} ({path!r}); matplotlib writes "
                                 f"{', '.join('.' + f for f in sorted(formats))}")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise InvalidOptionError(f"cannot write plot {path!r}: directory {parent!r} does not exist")
    return path, fmt


def plot_title(run):
    """A plot's title: the game and every setting that tells its runs apart."""
    return f"{run['game']}: {settings_text(run)}"


def plot_report(db, path, confidence=0.95, max_points=2000):
    """Draw, per run: the running win rate with its interval band, and histograms of time and
    length.  Returns the path written (``path``, with ``.png`` added if it had no extension)."""
    path, fmt = plot_target(path)
    z_value(confidence)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solvers.studies.stats import running_interval

    store = ResultsStore(db, readonly=True)
    try:
        runs = [(run, store.arrays(run["run_id"])) for run in store.runs()]
    finally:
        store.close()
    runs = [(run, cols) for run, cols in runs if cols["seed"].size]
    if not runs:
        raise StoreError(f"results database {db!r} holds no deals to plot")
    fig, axes = plt.subplots(len(runs), 3, figsize=(15, 3.8 * len(runs)), squeeze=False)
    try:
        for (run, cols), (ax_rate, ax_time, ax_len) in zip(runs, axes):
            n, rate, low, high = running_interval(cols["verdict"] == SOLVED_CODE,
                                                  cols["verdict"] == UNKNOWN_CODE, confidence)
            idx = np.unique(np.geomspace(1, n.size, num=min(max_points, n.size)).astype(np.int64) - 1)
            ax_rate.fill_between(n[idx], 100 * low[idx], 100 * high[idx], alpha=0.3,
                                 label=f"{100 * confidence:g}% Wilson interval")
            ax_rate.plot(n[idx], 100 * rate[idx], lw=1, label="win rate")
            ax_rate.set_xscale("log")
            ax_rate.set_xlabel("deals (in seed order)")
            ax_rate.set_ylabel("win rate (%)")
            ax_rate.set_title(plot_title(run), fontsize=9, loc="left")
            ax_rate.legend(fontsize=8)
            ax_time.hist(cols["seconds"], bins=50)
            ax_time.set_xlabel("seconds per deal")
            ax_time.set_ylabel("deals")
            lengths = cols["length"][cols["length"] >= 0]
            if lengths.size:
                span = int(lengths.max() - lengths.min()) + 1
                bins = np.arange(lengths.min(), lengths.max() + 2) - 0.5 if span <= 60 else 50
                ax_len.hist(lengths, bins=bins)
            else:
                ax_len.text(0.5, 0.5, "no solved deal", ha="center", va="center", transform=ax_len.transAxes)
            ax_len.set_xlabel("solution length (moves)")
            ax_len.set_ylabel("solved deals")
        fig.tight_layout()
        fig.savefig(path, format=fmt, dpi=100)
    except (OSError, RuntimeError) as exc:
        raise InvalidOptionError(f"cannot write plot {path!r}: {exc}") from None
    finally:
        plt.close(fig)
    return path
