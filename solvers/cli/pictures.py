"""``aisle show`` and ``aisle replay``: a position as an SVG picture, a whole game as an HTML page.

:func:`register` adds both subcommands to the ``aisle`` parser (``solvers.cli.main`` calls it).
``show`` writes SVG to ``--svg FILE`` or to stdout.  ``replay`` writes one self-contained page
(:mod:`rules.pictures.replay`) that steps through a solution file's moves, a solver's solution, or an
auto-player's game.
"""
import sys

from rules.errors import InvalidOptionError

from solvers.cli.common import (EXIT_OK, Formatter, add_game_arg, add_numbering_args, add_position_args,
                         positive, read_solution, start_state)


def register(subparsers):
    """Add ``show`` and ``replay`` to an argparse subparsers object (of ``cli_common.Parser``)."""
    p = subparsers.add_parser("show", help="draw one position as an SVG picture", formatter_class=Formatter,
                              description="Draw a position (a deal, --layout text or a --file) as SVG, "
                                          "laid out as Aisleriot lays out the game.")
    add_game_arg(p)
    add_position_args(p)
    p.add_argument("--svg", metavar="FILE", default=None, help="write the picture here (default: stdout)")
    p.set_defaults(func=cmd_show)

    p = subparsers.add_parser("replay", help="write an HTML page that steps through a whole game",
                              formatter_class=Formatter,
                              description="Play a game from its deal and write one self-contained HTML "
                                          "page (no network requests) that steps through every position.")
    add_game_arg(p)
    p.add_argument("seed", help="Aisleriot seed (Freecell: Microsoft deal number by default)")
    add_numbering_args(p)
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--solution", metavar="FILE",
                        help="moves to play: one per line, or the JSON 'aisle solve --format json' writes")
    source.add_argument("--solve", action="store_true", help="solve the deal first and replay the solution")
    source.add_argument("--player", metavar="NAME",
                        help="let an auto-player play the deal: greedy, pimc, study, quick or thoughtful (peeks)")
    p.add_argument("--player-seed", type=int, default=0, help="seed of the auto-player's choices")
    p.add_argument("--timeout", type=positive(float, "a positive number of seconds"), default=60.0,
                   help="seconds for --solve")
    p.add_argument("--html", metavar="FILE", required=True, help="write the page here")
    p.set_defaults(func=cmd_replay)


def cmd_show(args):
    _, state = start_state(args)
    svg = state.to_svg()
    if args.svg is None:
        sys.stdout.write(svg + "\n")
    else:
        _write(args.svg, svg, "picture")
        print(f"wrote {args.svg}", file=sys.stderr)
    return EXIT_OK


def cmd_replay(args):
    from rules.pictures.replay import write_replay

    args.layout = args.file = None                 # replay starts from a deal
    game, state = start_state(args)
    verdict = None
    if args.solution is not None:
        moves = read_solution(args.solution, game.name, args.seed,
                              args.numbering or game.default_numbering)
        source = f"solution {args.solution}"
    elif args.solve:
        from solvers.core.registry import get_solver

        result = get_solver(game).solve(state, timeout=args.timeout)
        moves, verdict, source = list(result.moves), result.verdict, "the solver's solution"
    else:
        moves, source = _player_moves(state, args.player, args.player_seed)
    deal = {"aisleriot": "Aisleriot seed", "microsoft": "Microsoft deal"}.get(
        args.numbering or game.default_numbering, "deal")
    title = f"{game.title}, {deal} {args.seed}: {source}"
    write_replay(args.html, state, moves, title=title, verdict=verdict)
    print(f"wrote {args.html}: {len(moves)} moves; open it in a browser (works offline)", file=sys.stderr)
    return EXIT_OK


def _player_moves(state, name, seed):
    """The moves an auto-player makes from ``state``, and a caption."""
    from solvers.players import get_player, play_game

    record = play_game(state, get_player(name, seed=seed))
    label = f"{name} player{' (peeks at hidden cards)' if record.peeked else ''}, {record.result}"
    return list(record.moves), label


def _write(path, text, what):
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InvalidOptionError(f"cannot write {what} {path!r}: {exc.strerror}") from None
