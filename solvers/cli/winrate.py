"""``aisle winrate`` and ``aisle report``: estimate win rates into a results store, and read it back.

:func:`register` adds both subcommands to the ``aisle`` parser (``solvers.cli.main`` calls it).
The progress bar goes to stderr; stdout carries only the final table, so it pipes.

``winrate`` treats SIGTERM as Ctrl-C: it stops its workers, keeps the batches already stored
(each was written in one transaction) and exits with 143 (130 for Ctrl-C).  A worker that dies
on its own makes it exit with 1.
"""
import csv
import json
import signal
import sys
import threading

from rules.errors import InvalidOptionError

from solvers.cli.common import (EXIT_FAILED, Formatter, add_game_arg, add_numbering_args, add_player_args,
                                add_progress_args, one_line, parse_options, positive, show_progress)

DEFAULT_DB = "results.sqlite"
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 128 + signal.SIGTERM


def register(subparsers):
    """Add ``winrate`` and ``report`` to an argparse subparsers object (of ``solvers.cli.main._Parser``)."""
    fmt = Formatter
    p = subparsers.add_parser("winrate", help="estimate a game's win rate over many deals",
                              formatter_class=fmt,
                              description="Solve every deal of a seed range and estimate the win rate "
                                          "with a Wilson interval; results go to an SQLite store and a "
                                          "second run with the same settings resumes.")
    add_game_arg(p)
    p.add_argument("--seeds", required=True, help="seed ranges and lists, e.g. 1-1000,5000,7000-7100")
    add_numbering_args(p)
    p.add_argument("--rules", default="aisleriot", help="rule mode passed to the solver")
    p.add_argument("--timeout", type=positive(float, "a positive number of seconds"), default=None, help="seconds per deal (default: no limit)")
    p.add_argument("--max-nodes", type=positive(int, "a positive integer"), default=None, help="nodes per deal (default: no limit)")
    p.add_argument("--jobs", type=positive(int, "a positive integer"), default=None,
                   help="worker processes (default: every core; clock plays in one process, see README)")
    store = p.add_mutually_exclusive_group()
    store.add_argument("--db", default=None, help=f"SQLite results store (default: {DEFAULT_DB})")
    store.add_argument("--no-db", action="store_true", help="keep results in memory only (no resume)")
    p.add_argument("--batch-size", type=positive(int, "a positive integer"), default=None,
                   help="deals per batch and per transaction (default: 50000 for clock, 4 otherwise)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="run the batches on a Dask cluster: scheduler address, or 'local'")
    add_player_args(p, "play every deal with this auto-player instead of solving it (thoughtful peeks "
                       "at hidden cards); its games are won or lost, in a run of their own")
    p.add_argument("--retry-unknown", action="store_true", help="solve again the deals stored as unknown")
    p.add_argument("--no-atlas", action="store_true",
                   help="solve every seed instead of reading the ones the shipped atlas covers")
    add_progress_args(p)
    p.set_defaults(func=cmd_winrate)

    p = subparsers.add_parser("report", help="summarise a results store per game and settings",
                              formatter_class=fmt)
    p.add_argument("db", help="SQLite results store written by 'aisle winrate'")
    p.add_argument("--export", choices=("csv", "json"), default=None,
                   help="print the summary (or with --deals every deal) as CSV or JSON instead of a table")
    p.add_argument("--deals", action="store_true", help="with --export: one record per deal")
    p.add_argument("--plot", metavar="OUT.png", default=None,
                   help="draw win-rate convergence and time / length histograms (needs matplotlib); "
                        "the extension picks the format (.png, .pdf, .svg, ...; none: .png is added)")
    p.set_defaults(func=cmd_report)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be so that the same clean-up runs."""


def _terminate(signum, frame):
    raise Terminated


def cmd_winrate(args):
    """Run :func:`solvers.studies.winrate.estimate_win_rate`; the table on stdout, what was done on
    stderr.  Seeds the shipped atlas covers are read from it (unless ``--no-atlas``, a player, or
    --retry-unknown) and only the others are solved."""
    from solvers.studies.report import format_table, summary_row
    from solvers.studies.dispatch import make_settings
    from solvers.studies.seeds import parse_seeds
    from solvers.studies.stats import win_rate
    from solvers.studies.winrate import estimate_win_rate

    db = None if args.no_db else (DEFAULT_DB if args.db is None else args.db)
    player = _player_spec(args)
    settings = make_settings(args.game, args.numbering, args.rules, parse_options(args.option),
                             args.timeout, args.max_nodes, player)
    seeds = parse_seeds(args.seeds, settings["numbering"])
    counts, rest, atlas = {"winnable": 0, "unsolvable": 0, "unknown": 0}, seeds, None
    if not (args.no_atlas or player or args.retry_unknown):
        from solvers.atlas import find

        atlas = find(settings["game"], settings["numbering"], settings["rules"], settings["options"])
        if atlas is not None:
            counts, rest = atlas.split(seeds)
    est = None
    if rest is not None:
        est = interruptible(db, lambda: estimate_win_rate(
            args.game, rest, numbering=args.numbering, rules=args.rules,
            options=parse_options(args.option), timeout=args.timeout, max_nodes=args.max_nodes,
            jobs=args.jobs, db=db, batch_size=args.batch_size, dask=args.dask,
            progress=show_progress(args), retry_unknown=args.retry_unknown, player=player))
        if isinstance(est, int):
            return est
    read = sum(counts.values())
    stats = win_rate(counts["winnable"] + (est.stats.won if est else 0),
                     counts["unsolvable"] + (est.stats.unsolvable if est else 0),
                     counts["unknown"] + (est.stats.unknown if est else 0))
    print(format_table([summary_row(est.settings if est else settings, stats)]))
    if read:
        sys.stderr.write(f"aisle: {read} seeds read from the atlas ({atlas.name()} seeds "
                         f"{atlas.first}-{atlas.last}; --no-atlas solves them instead)\n")
    if est is not None:
        sys.stderr.write(f"aisle: seeds {est.seeds}: {est.run_text()}; {est.seconds:.2f} s\n")
    return 0


def interruptible(db, run):
    """``run()``'s value, or the exit code when it stops early: SIGTERM is treated as Ctrl-C
    (130, or 143 for SIGTERM, saying that what ``db`` holds stays), a dead worker gives 1."""
    from solvers.core.workers import WorkerError

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main else None
    try:
        return run()
    except KeyboardInterrupt as exc:
        kept = "nothing was kept (--no-db)" if db is None else (
            f"the deals stored in {db} stay; the same command continues the run")
        what = "terminated" if isinstance(exc, Terminated) else "interrupted"
        sys.stderr.write(f"aisle: {what}; {kept}\n")
        return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
    except WorkerError as exc:
        sys.stderr.write(one_line(f"aisle: error: {exc}") + "\n")
        return EXIT_FAILED
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)


def cmd_report(args):
    from solvers.studies.store import ResultsStore
    from solvers.studies.report import format_table, plot_report, plot_target, summarize

    plot = plot_target(args.plot)[0] if args.plot is not None else None    # checked before anything is read
    with ResultsStore(args.db, readonly=True) as store:
        rows = summarize(store)
        if args.export and args.deals:
            records = list(store.deal_rows())
        elif args.export:
            records = rows
        else:
            records = None
    if args.export == "json":
        json.dump(records, sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif args.export == "csv":
        if records:
            writer = csv.DictWriter(sys.stdout, fieldnames=list(records[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(records)
    else:
        print(format_table(rows) if rows else "no results stored")
    if plot is not None:
        written = plot_report(args.db, plot)
        sys.stderr.write(f"aisle: wrote {written}\n")
    return 0


def _player_spec(args):
    """``--player`` and its parameters as the settings dict of a player run (None: the solver)."""
    params = {k: v for k, v in (("samples", args.samples), ("budget", args.budget)) if v is not None}
    if args.player is None:
        if params or args.player_seed:
            raise InvalidOptionError("--player-seed, --samples and --budget need --player")
        return None
    if args.timeout is not None or args.max_nodes is not None:
        raise InvalidOptionError("--timeout and --max-nodes limit the solver; a player's searches are "
                                 "bounded by its --budget")
    return {"name": args.player, "seed": args.player_seed, **params}
