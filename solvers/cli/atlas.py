"""``aisle atlas``: build the winnability atlas into a results store, re-check it, pack it, read it.

``build`` and ``check`` are resumable win-rate runs (:mod:`solvers.studies.atlas_build`), so
SIGTERM and Ctrl-C keep what is stored as ``aisle winrate`` does; ``pack`` writes the compact
file the package ships (:mod:`solvers.atlas.pack`); ``info`` and ``lookup`` read the
shipped atlas (:mod:`solvers.atlas`).
"""
import json
import sys

from rules.errors import clip

from solvers.cli.common import (Formatter, add_game_arg, add_numbering_args, add_progress_args,
                                parse_options, positive, show_progress)
from solvers.cli.winrate import interruptible

DEFAULT_DB = "atlas.sqlite"


def register(subparsers):
    """Add ``atlas`` and its subcommands to the ``aisle`` parser."""
    top = subparsers.add_parser("atlas", help="the winnability atlas: build, check, grade, pack, info, lookup",
                                formatter_class=Formatter,
                                description="Every seed's verdict computed once, verified and shipped: "
                                            "'info' and 'lookup' read the shipped atlas; 'build', "
                                            "'check', 'grade' and 'pack' make it.")
    sub = top.add_subparsers(dest="atlas_command", metavar="{build,check,grade,pack,info,lookup}")
    sub.required = True

    p = sub.add_parser("build", formatter_class=Formatter,
                       help="solve and verify every seed of a range into a results store (resumable)")
    _variant_args(p)
    p.add_argument("--seeds", required=True, help="seed ranges, e.g. 1-100000")
    p.add_argument("--timeout", type=positive(float, "a positive number of seconds"), default=10.0,
                   help="seconds a deal's search may take")
    p.add_argument("--max-nodes", type=positive(int, "a positive integer"), default=None,
                   help="nodes a deal's search may expand (default: no limit)")
    p.add_argument("--threads", type=positive(int, "a positive integer"), default=1,
                   help="cores each search uses (one search at a time when above 1)")
    p.add_argument("--retry-unknown", action="store_true",
                   help="only the seeds every earlier build left unknown, under these (longer) limits")
    _store_args(p)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("check", formatter_class=Formatter,
                       help="re-check a sample of the unsolvable verdicts with a plain search")
    _variant_args(p)
    p.add_argument("--timeout", type=positive(float, "a positive number of seconds"), default=10.0,
                   help="seconds each plain search may take")
    _store_args(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("grade", formatter_class=Formatter,
                       help="play no-peek games on the winnable deals of a range to grade them")
    _variant_args(p)
    p.add_argument("--seeds", required=True, help="seed ranges, e.g. 1-2000")
    p.add_argument("--games", type=positive(int, "a positive integer"), default=4,
                   help="games per winnable deal (player seeds 0 .. GAMES-1)")
    _store_args(p)
    p.set_defaults(func=cmd_grade)

    p = sub.add_parser("pack", formatter_class=Formatter,
                       help="write the compact atlas file of a variant from a results store")
    _variant_args(p)
    p.add_argument("--seeds", required=True, help="the range to pack (every seed must be stored, or in --base)")
    p.add_argument("--db", default=DEFAULT_DB, help="results store written by 'aisle atlas build'")
    p.add_argument("--base", default=None, metavar="FILE",
                   help="an atlas file packed before (e.g. the shipped one): its entries stand where the "
                        "store has none, the store's runs decide its unknown seeds")
    p.add_argument("--out", default=None, help="file to write (default: the package's atlas folder)")
    p.add_argument("--build-note", default="",
                   help="how the build ran (cores, wall time), kept in the file (default: the base's)")
    p.set_defaults(func=cmd_pack)

    p = sub.add_parser("info", formatter_class=Formatter,
                       help="range, counts, win rate, unknown seeds and verification of each atlas file")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("lookup", formatter_class=Formatter, help="a seed's verdict from the shipped atlas")
    _variant_args(p)
    p.add_argument("seed", type=int, help="seed (or deal number in --numbering)")
    p.add_argument("--no-compute", action="store_true", help="say 'not covered' instead of solving a seed "
                                                               "the atlas does not cover")
    p.add_argument("--timeout", type=positive(float, "a positive number of seconds"), default=10.0,
                   help="seconds to solve a seed the atlas does not cover")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_lookup)


def _variant_args(p):
    add_game_arg(p)
    add_numbering_args(p)
    p.add_argument("--rules", default="aisleriot", help="rule mode the verdicts hold under")


def _store_args(p):
    p.add_argument("--db", default=DEFAULT_DB, help="SQLite results store (resumes what it holds)")
    p.add_argument("--jobs", type=positive(int, "a positive integer"), default=None,
                   help="worker processes (default: every core)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="run the batches on a Dask cluster: scheduler address, or 'local'")
    add_progress_args(p)


def cmd_build(args):
    from solvers.studies.atlas_build import build

    est = interruptible(args.db, lambda: build(
        args.game, args.seeds, numbering=args.numbering, rules=args.rules,
        options=parse_options(args.option), timeout=args.timeout, max_nodes=args.max_nodes,
        threads=args.threads, retry_unknown=args.retry_unknown, db=args.db, jobs=args.jobs,
        dask=args.dask, progress=show_progress(args)))
    return _report(est, "no stored seed of this variant is left unknown")


def cmd_check(args):
    from solvers.studies.atlas_build import check_unsolvable

    est = interruptible(args.db, lambda: check_unsolvable(
        args.game, numbering=args.numbering, rules=args.rules, options=parse_options(args.option),
        timeout=args.timeout, db=args.db, jobs=args.jobs, progress=show_progress(args)))
    return _report(est, "no unsolvable verdict stored for this variant")


def cmd_grade(args):
    from solvers.studies.atlas_build import GRADE_PLAYER, grade

    graded = interruptible(args.db, lambda: grade(
        args.game, args.seeds, numbering=args.numbering, rules=args.rules, options=parse_options(args.option),
        games=args.games, db=args.db, jobs=args.jobs, progress=show_progress(args)))
    if isinstance(graded, int):         # interrupted: the exit code
        return graded
    print(f"{graded['deals']} winnable deals graded by {args.games} games of {GRADE_PLAYER}")
    return 0


def _report(est, nothing):
    if isinstance(est, int):            # interrupted: the exit code
        return est
    if est is None:
        sys.stderr.write(f"aisle: nothing to do: {nothing}\n")
        return 0
    est.seeds = clip(est.seeds, 80)     # a re-check's sample lists thousands of seeds
    print(est.summary())
    sys.stderr.write(f"aisle: {est.run_text()}; {est.seconds:.2f} s\n")
    return 0


def cmd_pack(args):
    from solvers.atlas.pack import pack

    path, atlas = pack(args.game, args.seeds, db=args.db, numbering=args.numbering, rules=args.rules,
                       options=parse_options(args.option), out=args.out, note=args.build_note,
                       base=args.base)
    print(atlas.info_text())
    sys.stderr.write(f"aisle: wrote {path}\n")
    return 0


def cmd_info(args):
    from solvers.atlas import shipped

    atlases = shipped()
    if args.format == "json":
        json.dump([a.info() for a in atlases], sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print("\n\n".join(a.info_text() for a in atlases) if atlases else "no atlas is shipped")
    return 0


def cmd_lookup(args):
    from solvers.atlas import NOT_COVERED, lookup

    where = dict(numbering=args.numbering, rules=args.rules, options=parse_options(args.option))
    entry = lookup(args.game, args.seed, **where)
    if entry.verdict == NOT_COVERED and not args.no_compute:
        sys.stderr.write(f"aisle: {entry.game} seed {args.seed} is not covered by the atlas; solving it "
                         f"(at most {args.timeout:g} s)\n")
        entry = lookup(args.game, args.seed, **where, compute=True, timeout=args.timeout)
    if args.format == "json":
        json.dump(entry.as_dict(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(entry.text())
    return 0
