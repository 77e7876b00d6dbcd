"""The ``aisle`` command: deal, play, solve, verify, conformance, winrate and report.

Data goes to stdout, progress and diagnostics to stderr.  Bad input (unknown game, bad seed,
malformed file) prints one line on stderr and exits 2, never a traceback.
"""
import argparse
import json
import random
import sys

from rules import GAME_NAMES, get_game
from rules.errors import AisleError, InvalidDealError, InvalidOptionError, InvalidSeedError
from rules.layout import parse_layout
from rules.registry import get_referee

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_BAD_INPUT)


def _options(pairs):
    """``['spots=off']`` -> ``{'spots': 'off'}``."""
    out = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"option {pair!r} must look like NAME=VALUE (e.g. spots=off)")
        out[key.strip()] = value.strip()
    return out


def _positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
        return value
    return parse


def _add_deal_args(p, seed_optional=False):
    p.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
    p.add_argument("seed", nargs="?" if seed_optional else None, default=None,
                   help="Aisleriot seed (Freecell: Microsoft deal number by default)")
    p.add_argument("--numbering", choices=("aisleriot", "microsoft"), default=None,
                   help="seed numbering (default: microsoft for freecell, aisleriot otherwise)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", default=[],
                   help="game option, e.g. spots=off for ten-across (repeatable)")


def _deal(args):
    game = get_game(args.game)
    return game, game.deal(args.seed, args.numbering, **_options(args.option))


def cmd_deal(args):
    game, state = _deal(args)
    if args.format == "aisleriot":
        print(state.layout())
    elif args.format == "fcs":
        if game.name != "freecell":
            raise InvalidOptionError(f"--format fcs is Freecell Solver's board format; {game.name} has none")
        from rules.freecell import format_fcs_board

        print(format_fcs_board(state), end="")
    else:
        print(state)
    return 0


def cmd_play(args):
    game = get_game(args.game)
    if game.name == "clock" and not args.random:
        from rules.clock import autoplay

        if args.numbering not in (None, "aisleriot"):
            raise InvalidOptionError("clock deals only by Aisleriot seed (--numbering aisleriot)")
        start, moves, final = autoplay(args.seed)
        print(f"Clock, Aisleriot seed {args.seed}\n{start}\n")
        print("Play: " + " ".join(str(m) for m in moves))
        verdict = "won" if final.is_won() else "lost"
        print(f"\n{final}\n\nResult: {verdict}, score {final.score}, {len(moves)} moves")
        return 0
    if not args.random:
        raise InvalidOptionError(f"only clock plays itself; use 'aisle play {game.name} SEED --random'")
    _, state = _deal(args)
    rng = random.Random(args.rng_seed)
    print(f"{game.title}, seed {args.seed}\n{state}")
    for ply in range(1, args.moves + 1):
        if state.is_over():
            break
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        state.apply(move)
        print(f"\n{ply}. {move}\n{state}")
    print(f"\nResult: {state.outcome.name.lower()}, score {state.score}, "
          f"{len(state.moves_played)} moves played")
    return 0


def cmd_conformance(args):
    from rules.conformance import run_trace

    report = run_trace(args.trace, game=args.game, options=_options(args.option), keep=args.show)
    print(report.summary())
    for text in report.mismatches[: args.show]:
        print(text)
    return 0 if report.ok else 1


def build_parser():
    parser = _Parser(prog="aisle", description=__doc__.splitlines()[0],
                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("deal", help="print the deal for a seed",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    _add_deal_args(p)
    p.add_argument("--format", choices=("text", "aisleriot", "fcs"), default="text",
                   help="readable text, Aisleriot layout, or Freecell Solver's board format")
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("play", help="let Clock play itself, or play random legal moves",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    _add_deal_args(p)
    p.add_argument("--random", action="store_true", help="play uniformly random legal moves")
    p.add_argument("--moves", type=int, default=20, help="maximum number of random moves")
    p.add_argument("--rng-seed", type=int, default=0, help="seed of the random move picker")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("conformance", help="replay a trace recorded from real Aisleriot",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("trace", help="trace file (.txt or .txt.gz)")
    p.add_argument("--game", choices=GAME_NAMES, default=None, help="force the game (default: detect)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", default=[],
                   help="game option, e.g. spots=off")
    p.add_argument("--show", type=int, default=10, help="how many mismatches to print")
    p.set_defaults(func=cmd_conformance)

    _add_solver_commands(sub)
    return parser


EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_UNKNOWN = 0, 3, 4


def _start_state(args):
    """The start position: a deal by seed, or (Freecell) a board file in fc-solve's format."""
    game = get_game(args.game)
    if getattr(args, "file", None):
        if game.name != "freecell":
            raise InvalidOptionError("--file takes Freecell Solver's board format, which only freecell has")
        from rules.freecell import parse_fcs_board

        try:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise InvalidDealError(f"cannot read board file {args.file!r}: {exc.strerror}") from None
        return game, parse_fcs_board(text)
    if args.seed is None:
        raise InvalidSeedError("give a SEED (or --file BOARD for freecell)")
    return game, game.deal(args.seed, args.numbering, **_options(args.option))


def cmd_solve(args):
    from .dispatch import solver_module

    game, state = _start_state(args)
    solver = solver_module(game)
    kwargs = dict(max_nodes=args.max_nodes, timeout=args.timeout)
    if args.method is not None:
        if args.method not in solver.METHODS:
            raise InvalidOptionError(f"{game.name} has no search method {args.method!r} "
                                     f"(choose from {', '.join(solver.METHODS)})")
        kwargs["method"] = args.method
    if game.name != "freecell":   # Freecell never declares a loss: both rule modes are the same search
        kwargs["rules"] = args.rules
    result = solver.solve(state, **kwargs)
    notation = "standard" if args.format != "aisleriot" and game.name == "freecell" else "aisleriot"
    moves, replay = [], state.copy()
    for move in result.moves:
        moves.append((str(replay.parse_move(move)), replay.format_move(move, notation)))
        replay.apply(move)
    if args.format == "json":
        print(json.dumps({
            "game": game.name, "seed": args.seed, "numbering": args.numbering or game.default_numbering,
            "rules": args.rules, "start": state.layout(), "verdict": result.verdict,
            "moves": [a for a, _ in moves], "notation": [n for _, n in moves],
            "nodes": result.nodes_expanded, "seconds": round(result.seconds, 6),
            "compile_seconds": round(result.compile_seconds, 3),
        }, indent=2))
    else:
        for _, text in moves:
            print(text)
        compiled = (f" (+{result.compile_seconds:.1f} s compiling kernels, outside the limit)"
                    if result.compile_seconds >= 0.5 else "")
        print(f"# {game.name} ({args.rules} rules): {result.verdict}, {len(moves)} moves, "
              f"{result.nodes_expanded} nodes, {result.seconds:.3f} s{compiled}", file=sys.stderr)
    return {"solved": EXIT_SOLVED, "unsolvable": EXIT_UNSOLVABLE}.get(result.verdict, EXIT_UNKNOWN)


def read_solution(path):
    """Moves from a solution file: JSON from ``solve --format json``, or one move per line."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise InvalidDealError(f"cannot read solution file {path!r}: {exc.strerror}") from None
    if text.lstrip().startswith("{"):
        try:
            return [str(m) for m in json.loads(text)["moves"]]
        except (ValueError, KeyError, TypeError):
            raise InvalidDealError(f"solution file {path!r} is not the JSON 'aisle solve' writes") from None
    return [line.split("#")[0].strip() for line in text.splitlines() if line.split("#")[0].strip()]


def cmd_verify(args):
    """Replay a solution with the game's independent referee and say which move, if any, fails."""
    if len(args.seed_and_solution) > 2:
        raise InvalidOptionError(f"verify takes [SEED] SOLUTION, got {' '.join(args.seed_and_solution)!r}")
    *seed, args.solution = args.seed_and_solution
    args.seed = seed[0] if seed else None
    game, state = _start_state(args)
    referee = get_referee(game.name)(parse_layout(state.layout()), dict(game.resolve_options(_options(args.option))))
    moves = read_solution(args.solution)
    for index, text in enumerate(moves, 1):
        try:
            action = str(state.parse_move(text))   # also reads Freecell's standard notation
            state.apply(action)
            referee.apply(action)
        except AisleError as exc:
            print(f"move {index} ({text!r}) is illegal: {exc}")
            return 1
    if referee.won():
        print(f"valid: {len(moves)} moves replay to a win under the referee")
        return 0
    print(f"not a win: all {len(moves)} moves are legal but the game is not won")
    return 1


def _add_solver_commands(sub):
    for name, helptext in (("solve", "solve a deal (exit 0 solved, 3 unsolvable, 4 unknown)"),
                           ("verify", "replay a solution file with the independent referee")):
        p = sub.add_parser(name, help=helptext, formatter_class=argparse.ArgumentDefaultsHelpFormatter)
        if name == "solve":
            _add_deal_args(p, seed_optional=True)
        else:
            # SEED SOLUTION, or just SOLUTION with --file: one list, so options may come anywhere.
            p.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
            p.add_argument("seed_and_solution", nargs="+", metavar="[SEED] SOLUTION",
                           help="the deal's seed (omit with --file) and the solution file "
                                "(one move per line, or JSON from solve)")
            p.add_argument("--numbering", choices=("aisleriot", "microsoft"), default=None,
                           help="seed numbering (default: microsoft for freecell, aisleriot otherwise)")
            p.add_argument("--option", action="append", metavar="NAME=VALUE", default=[],
                           help="game option, e.g. spots=off for ten-across (repeatable)")
        p.add_argument("--file", help="freecell: start from a board in Freecell Solver's format")
        if name == "solve":
            p.add_argument("--method", default=None,
                           help="search method; default: the game's fastest (freecell: fast; "
                                "short/astar give shorter solutions)")
            p.add_argument("--max-nodes", type=_positive(int), default=None, help="node limit (unknown when hit)")
            p.add_argument("--timeout", type=_positive(float), default=None, help="seconds (unknown when hit)")
            p.add_argument("--rules", choices=("aisleriot", "open"), default="aisleriot",
                           help="aisleriot: the game's own continue predicate is terminal; open: move rules only")
            p.add_argument("--format", choices=("notation", "aisleriot", "json"), default="notation",
                           help="moves in standard notation (freecell), Aisleriot actions, or JSON")
            p.set_defaults(func=cmd_solve)
        else:
            p.set_defaults(func=cmd_verify)
    try:
        from .cli_winrate import register
    except ImportError:
        return
    register(sub)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except AisleError as exc:
        sys.stderr.write(f"aisle: error: {exc}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("aisle: interrupted\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
