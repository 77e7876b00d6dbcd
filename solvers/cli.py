"""The ``aisle`` command: deal, play, conformance (and, as they land, solve, verify, winrate).

Data goes to stdout, progress and diagnostics to stderr.  Bad input (unknown game, bad seed,
malformed file) prints one line on stderr and exits 2, never a traceback.
"""
import argparse
import random
import sys

from rules import GAME_NAMES, get_game
from rules.errors import AisleError, InvalidOptionError

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


def _add_deal_args(p, seed_help="Aisleriot seed (Freecell: Microsoft deal number by default)"):
    p.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
    p.add_argument("seed", help=seed_help)
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


def _add_solver_commands(sub):
    """Hook for solve/verify/winrate/report; filled in as those land."""


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
