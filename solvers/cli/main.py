"""The aisle command: deal, play, hint, analyze, deals, solve, verify, conformance, winrate,
report, atlas, show, replay and warmup.

Data goes to stdout, progress and diagnostics to stderr.  Bad input (unknown game, bad seed,
malformed file) prints one line on stderr and exits 2, never a traceback.
"""
import json
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from rules import GAME_NAMES, get_game
from rules.errors import AisleError, IllegalMoveError, InvalidOptionError
from rules.referee import replay
from solvers.core.registry import get_solver
from solvers.core.search import compiling
from solvers.core.solver import check_limits
from solvers.core.workers import check_jobs
from solvers.cli import atlas as cli_atlas, pictures as cli_pictures, play as cli_play, player as cli_player, winrate as cli_winrate
from solvers.cli.common import (EXIT_BAD_INPUT, EXIT_FAILED, EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSOLVABLE,
                         Formatter, Parser, PipeSafe, add_game_arg, add_numbering_args, add_position_args,
                         add_progress_args, keep_suits_printable, one_line, parse_options, positive,
                         read_solution, show_progress, start_state, checked_start)
from solvers.studies.progress import progress_bar

DESCRIPTION = ("Exact rules of five GNOME Aisleriot patience games (Clock, Freecell, Yukon, "
               "Ten Across, Zebra): deal, play, solve, verify, and estimate win rates.")


def cmd_deal(args):
    game = get_game(args.game)
    state = game.deal(args.seed, args.numbering, **parse_options(args.option))
    if args.format == "aisleriot":
        print(state.layout())
    elif args.format == "fcs":
        if "fcs" not in game.board_formats:
            raise InvalidOptionError(f"--format fcs is Freecell Solver's board format; {game.name} has none")
        print(game.format_board(state, "fcs"), end="")
    else:
        print(state)
    return 0


def cmd_conformance(args):
    from rules.conformance import run_trace

    report = run_trace(args.trace, game=args.game, options=parse_options(args.option), keep=args.show)
    print(report.summary())
    for text in report.mismatches[: args.show]:
        print(text)
    return 0 if report.ok else EXIT_FAILED


def solution_json(game, state, args, result, moves):
    """The one JSON shape of ``aisle solve --format json`` (README, "Command line")."""
    out = {"game": game.name, "seed": None if args.seed is None else int(args.seed),
           "numbering": (args.numbering or game.default_numbering) if args.seed is not None else None,
           "rules": result.rules, "method": result.method, "start": state.layout(),
           "verdict": result.verdict, "limit": result.limit or None,
           "moves": [action for action, _ in moves]}
    if game.notations[-1] != "aisleriot":
        out["notation"] = [text for _, text in moves]
    out.update({"length": len(moves), "atomic_length": result.atomic_length if result.solved else None,
                "nodes": result.nodes_expanded, "states": result.states_stored,
                "seconds": round(result.seconds, 6), "compile_seconds": round(result.compile_seconds, 3)})
    return out


def cmd_solve(args):
    solver = get_solver(args.game)
    solver.check_method(args.method)                # bad input is refused before anything compiles
    solver.check_rules(args.rules)
    check_limits(args.max_nodes, args.timeout, args.max_memory_mb, args.threads)
    with compiling() as checking:                   # (parsing a layout may compile a kernel)
        game, make_start = checked_start(args)
    warmed = solver.warm_start(args.method, args.rules)     # before dealing: see warm_start
    with compiling() as dealing:                    # a seed's first deal may compile a kernel
        state = make_start()
    bar = progress_bar(show_progress(args), unit=" positions", unit_scale=True, desc=game.name,
                       delay=1.0, leave=False)
    try:
        result = solver.solve(state, method=args.method, rules=args.rules, max_nodes=args.max_nodes,
                              timeout=args.timeout, max_memory_mb=args.max_memory_mb,
                              threads=args.threads,
                              progress=lambda nodes, seconds: bar.update(nodes - bar.n))
    finally:
        bar.close()
    result.compile_seconds += warmed + sum(t.duration for t in (checking, dealing) if t.done)
    notation = game.notations[-1] if args.format != "aisleriot" else "aisleriot"
    moves, replay = [], state.copy()
    for move in result.moves:
        moves.append((str(move), replay.format_move(move, notation)))
        replay.apply(move)
    if args.format == "json":
        print(json.dumps(solution_json(game, state, args, result, moves), indent=2))
    else:
        for _, text in moves:
            print(text)
    compiled = (f" (+{result.compile_seconds:.1f} s loading/compiling kernels, outside the limit)"
                if result.compile_seconds >= 0.5 else "")
    limit = f" ({result.limit} limit)" if result.limit else ""
    print(f"# {game.name} ({result.rules} rules, {result.method}): {result.verdict}{limit}, {len(moves)} moves, "
          f"{result.nodes_expanded} nodes, {result.seconds:.3f} s{compiled}", file=sys.stderr)
    return {"solved": EXIT_SOLVED, "unsolvable": EXIT_UNSOLVABLE}.get(result.verdict, EXIT_UNKNOWN)


def cmd_verify(args):
    """Replay a solution with the game's independent referee and say which move, if any, fails."""
    if len(args.seed_and_solution) > 2:
        raise InvalidOptionError(f"verify takes [SEED] SOLUTION, got {' '.join(args.seed_and_solution)!r}")
    *seed, args.solution = args.seed_and_solution
    args.seed = seed[0] if seed else None
    game, state = start_state(args)
    options = dict(game.resolve_options(parse_options(args.option)))
    numbering = (args.numbering or game.default_numbering) if args.seed is not None else None
    moves = read_solution(args.solution, game.name, args.seed, numbering)
    try:
        won = replay(state, moves, options)
    except IllegalMoveError as exc:
        print(one_line(str(exc)))
        return EXIT_FAILED
    if won:
        print(f"valid: {len(moves)} moves replay to a win under the referee")
        return 0
    print(f"not a win: all {len(moves)} moves are legal but the game is not won")
    return EXIT_FAILED


def warm_game(name, helpers):
    """A ``warmup`` worker's task: compile (or load) every kernel of game ``name``, quietly,
    with ``helpers`` helper processes at most; the seconds it took."""
    return get_solver(name).warmup(announce=False, helpers=helpers)


def cmd_warmup(args):
    """Compile every kernel of the games (default all), one process per game, on ``--jobs``
    cores at once: a progress bar of the games done on stderr, each game's seconds on stdout."""
    names = [get_game(name).name for name in (args.games or GAME_NAMES)]
    names = list(dict.fromkeys(names))
    jobs = min(check_jobs(args.jobs), len(names))
    bar = progress_bar(show_progress(args), total=len(names), unit=" games",
                       desc="aisle: compiling kernels", leave=False)
    t0, seconds = time.perf_counter(), {}
    try:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            helpers = None if jobs == 1 else 0      # one game: its warm-up shares the cores
            futures = {pool.submit(warm_game, name, helpers): name for name in names}
            for future in as_completed(futures):
                seconds[futures[future]] = future.result()
                bar.update(1)
    finally:
        bar.close()
    for name in names:
        print(f"{name}: {seconds[name]:.1f} s")
    print(f"# {len(names)} games ready in {time.perf_counter() - t0:.1f} s on {jobs} "
          f"process{'es' if jobs > 1 else ''}", file=sys.stderr)
    return 0


def build_parser():
    parser = Parser(prog="aisle", description=DESCRIPTION, formatter_class=Formatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("deal", help="print the deal for a seed", formatter_class=Formatter)
    add_game_arg(p)
    p.add_argument("seed", help="Aisleriot seed (Freecell: Microsoft deal number by default)")
    add_numbering_args(p)
    p.add_argument("--format", choices=("text", "aisleriot", "fcs"), default="text",
                   help="readable text, Aisleriot layout, or Freecell Solver's board format")
    p.set_defaults(func=cmd_deal)

    cli_play.register(sub)
    cli_player.register(sub)

    p = sub.add_parser("solve", help="solve a position (exit 0 solved, 3 unsolvable, 4 unknown)",
                       formatter_class=Formatter,
                       description="Solve a deal or any position. Exit code 0: solved (moves on stdout); "
                                   "3: proven unsolvable; 4: a limit was hit, the answer is unknown.")
    add_game_arg(p)
    add_position_args(p)
    p.add_argument("--method", default=None,
                   help="search method (default: the game's own; freecell: fast, astar, short, greedy, dfs; "
                        "yukon, ten-across, zebra: dfs, greedy, astar; clock: forced)")
    p.add_argument("--rules", default="aisleriot",
                   help="rule mode: aisleriot (the game's own end-of-game test is final) or, where the "
                        "solver has it, open (move rules only)")
    p.add_argument("--max-nodes", type=positive(int, "a positive whole number"), default=None,
                   help="expand at most this many positions (unknown when hit)")
    p.add_argument("--timeout", type=positive(float), default=None, help="seconds (unknown when hit)")
    p.add_argument("--max-memory-mb", type=positive(float), default=None,
                   help="memory for the search in MiB (unknown when hit; default 4096)")
    p.add_argument("--threads", type=positive(int, "a positive whole number"), default=1,
                   help="cores a long depth-first search may use (yukon, ten-across, zebra; "
                        "freecell and clock search on one); the verdict is the same, the nodes "
                        "and solution vary")
    p.add_argument("--format", choices=("notation", "aisleriot", "json"), default="notation",
                   help="moves in standard notation (freecell; Aisleriot actions otherwise), "
                        "Aisleriot actions, or JSON")
    add_progress_args(p, "a count of the positions searched")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("verify", help="replay a solution file with the independent referee",
                       formatter_class=Formatter)
    add_game_arg(p)
    # [SEED] SOLUTION as one list, so that --layout/--file may come before or after them
    p.add_argument("seed_and_solution", nargs="+", metavar="[SEED] SOLUTION",
                   help="the deal's seed (omit it with --layout or --file) and the solution file: one move "
                        "per line, or the JSON of 'aisle solve --format json'")
    p.add_argument("--layout", metavar="TEXT", default=None, help="start from this Aisleriot layout text")
    p.add_argument("--file", metavar="FILE", default=None,
                   help="start from a file: Aisleriot layout text (freecell: also Freecell Solver's board format)")
    add_numbering_args(p)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("conformance", help="replay a trace recorded from real Aisleriot",
                       formatter_class=Formatter)
    p.add_argument("trace", help="trace file (.txt or .txt.gz)")
    p.add_argument("--game", choices=GAME_NAMES, default=None, help="force the game (default: detect)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", default=[],
                   help="game option, e.g. spots=off")
    p.add_argument("--show", type=int, default=10, help="how many mismatches to print")
    p.set_defaults(func=cmd_conformance)

    cli_winrate.register(sub)
    cli_atlas.register(sub)
    cli_pictures.register(sub)

    p = sub.add_parser("warmup", help="compile every game's kernels now (first run only)",
                       formatter_class=Formatter,
                       description="Compile (or load from Numba's cache) every kernel of the given "
                                   "games, one process per game on all cores, so that later commands "
                                   "start at once.")
    p.add_argument("games", nargs="*", metavar="GAME", help=f"games (default all: {', '.join(GAME_NAMES)})")
    p.add_argument("--jobs", type=positive(int, "a positive whole number"), default=None,
                   help="processes at once (default: one per core)")
    add_progress_args(p, "a progress bar of the games compiled")
    p.set_defaults(func=cmd_warmup)
    return parser


def main(argv=None):
    keep_suits_printable(sys.stdout)              # help and readable moves print ♣ ♦ ♥ ♠
    parser = build_parser()
    args = parser.parse_args(argv)
    stdout = sys.stdout
    try:
        stdout.fileno()
        sys.stdout = PipeSafe(stdout)
    except (AttributeError, OSError, ValueError):      # not a file (tests capture it)
        pass
    try:
        return args.func(args)
    except AisleError as exc:
        sys.stderr.write(one_line(f"aisle: error: {exc}") + "\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("aisle: interrupted\n")
        return 130
    finally:
        sys.stdout = stdout


if __name__ == "__main__":
    raise SystemExit(main())
