"""``aisle play``: Clock's forced game, or random legal moves for any game."""
import random

from rules import get_game
from rules.errors import InvalidOptionError
from .cli_common import Formatter, add_game_arg, add_numbering_args, parse_options


def register(sub):
    p = sub.add_parser("play", help="let Clock play itself, or play random legal moves",
                       formatter_class=Formatter)
    add_game_arg(p)
    p.add_argument("seed", help="Aisleriot seed (Freecell: Microsoft deal number by default)")
    add_numbering_args(p)
    p.add_argument("--random", action="store_true", help="play uniformly random legal moves")
    p.add_argument("--moves", type=int, default=20, help="maximum number of random moves")
    p.add_argument("--rng-seed", type=int, default=0, help="seed of the random move picker")
    p.set_defaults(func=cmd_play)


def cmd_play(args):
    game = get_game(args.game)
    state = game.deal(args.seed, args.numbering, **parse_options(args.option))
    if args.moves < 0:
        raise InvalidOptionError(f"--moves {args.moves} must be zero or more")
    if game.name == "clock" and not args.random:
        from rules.clock import play

        start = state.copy()
        moves = play(state)
        print(f"Clock, Aisleriot seed {args.seed}\n{start}\n")
        print("Play: " + " ".join(str(m) for m in moves))
        verdict = "won" if state.is_won() else "lost"
        print(f"\n{state}\n\nResult: {verdict}, score {state.score}, {len(moves)} moves")
        return 0
    if not args.random:
        raise InvalidOptionError(f"only clock plays itself; use 'aisle play {game.name} SEED --random'")
    rng = random.Random(args.rng_seed)
    print(f"{game.title}, seed {args.seed}\n{state}")
    for ply in range(1, args.moves + 1):
        moves = [] if state.is_over() else state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        state.apply(move)
        print(f"\n{ply}. {move}\n{state}")
    print(f"\nResult: {state.outcome.name.lower()}, score {state.score}, "
          f"{len(state.moves_played)} moves played")
    return 0
