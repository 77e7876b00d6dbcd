"""``aisle play``: a whole game played by an auto-player, Clock's forced game, or random moves.

``aisle play GAME (SEED | --layout TEXT | --file FILE) [--player greedy|pimc|study|quick|thoughtful] ...``
prints the moves on stdout, one per line (``--show``: each followed by its words in parentheses,
``drag 4 1 0  (A♣ home)``, and the position after it, as the player sees it), and one summary
line on stderr.  Exit 0 when the game was won, 3 when it was lost or stuck, 2 on
bad input (``--random``: 0 also while the walk's game goes on).  Without ``--player`` a game that
plays itself (Clock) keeps its forced-play report and ``--random`` its random walk; other games
use the default player (``pimc``; where nothing is hidden, as in Freecell, the solver).
``--format json`` prints one document in every mode: ``moves`` the actions, ``readable`` the
same moves in words.
"""
import json
import random
import sys

from rules.errors import InvalidOptionError
from solvers.cli.common import (EXIT_OK, EXIT_UNSOLVABLE, Formatter, add_game_arg, add_player_args,
                                add_position_args, start_state)
from solvers.cli.player import describe_start, make_player, move_line, move_text, start_fields

EXIT_WON, EXIT_LOST = 0, EXIT_UNSOLVABLE
MAX_MOVES = 100_000        # --max-moves and --moves: each move is kept (history, visited positions)


def register(sub):
    p = sub.add_parser(
        "play", formatter_class=Formatter,
        help="play a whole game with an auto-player (exit 0 won, 3 lost or stuck)",
        description="Play a whole game automatically.  The no-peek players (pimc, study, greedy) see only "
                    "what a person at the table sees; thoughtful plays the solver's line and peeks "
                    "at hidden cards (an upper bound).  Moves on stdout, a summary line on stderr.  "
                    "Exit 0: won; 3: lost or stuck; 2: bad input.")
    add_game_arg(p)
    add_position_args(p)
    add_player_args(p)
    p.add_argument("--show", action="store_true",
                   help="print each move with its words, e.g. 'drag 4 1 0  (A\u2663 home)', and the "
                        "position after it")
    p.add_argument("--format", choices=("aisleriot", "notation", "json"), default="aisleriot",
                   help="moves as Aisleriot actions, in standard notation (freecell; Aisleriot "
                        "actions otherwise), or one JSON document")
    p.add_argument("--max-moves", type=int, default=1000,
                   help="stop a game that has not ended after this many moves (stuck)")
    p.add_argument("--random", action="store_true",
                   help="instead: play uniformly random legal moves and show each position")
    p.add_argument("--moves", type=int, default=20, help="with --random: maximum number of moves")
    p.add_argument("--rng-seed", type=int, default=0, help="with --random: seed of the move picker")
    p.set_defaults(func=cmd_play)


def cmd_play(args):
    game, state = start_state(args)
    if args.random:
        return _play_random(game, state, args)
    if game.plays_itself and args.player is None:
        return _play_forced(game, state, args)
    if not 1 <= args.max_moves <= MAX_MOVES:
        raise InvalidOptionError(f"--max-moves {args.max_moves} must be from 1 to {MAX_MOVES}")
    return _play_auto(game, state, args)


def _play_auto(game, state, args):
    from solvers.players import play_game

    player = make_player(args, game)
    notation = game.notations[-1] if args.format == "notation" else "aisleriot"
    shown = []

    def on_move(move, after):
        before = after.copy()
        before.undo()
        if args.format == "json":
            shown.append((move_text(before, move, notation), before.describe_move(move),
                          after.layout() if args.show else None))
            return
        if not args.show:
            print(move_text(before, move, notation))
            return
        view = after if player.peeks else after.observation()
        print(f"{move_line(before, move, notation)}\n{view}\n", flush=True)

    if args.show and args.format != "json":
        print(f"{state if player.peeks else state.observation()}\n")
    record = play_game(state, player, max_moves=args.max_moves, on_move=on_move)
    if record.won:
        record.verify()                     # the referee replays every win before it is reported
    if args.format == "json":
        out = {**start_fields(args, game, state), "player": record.player, "peeked": record.peeked,
               "result": record.result, "reason": record.reason or None,
               "moves": [text for text, _, _ in shown], "readable": [words for _, words, _ in shown],
               "length": len(record.moves), "seconds": round(record.seconds, 3)}
        if args.show:
            out["positions"] = [layout for _, _, layout in shown]
        print(json.dumps(out, indent=2))
    kind = "PEEKS at hidden cards" if record.peeked else "no peeking"
    why = f" ({record.reason})" if record.reason else ""
    print(f"# {game.name} {describe_start(args, game)}: {record.result}{why} after {len(record.moves)} "
          f"moves, {record.seconds:.2f} s; player {player.label()}, {kind}", file=sys.stderr)
    return EXIT_WON if record.won else EXIT_LOST


def _play_forced(game, state, args):
    start = state.copy()
    moves = game.play_forced(state)
    verdict = "won" if state.is_won() else "lost"
    if args.format == "json":
        _print_json(args, start, state, verdict, moves)
    else:
        title = f"Aisleriot seed {args.seed}" if args.seed is not None else "given position"
        print(f"{game.title}, {title}\n{start}\n")
        if args.show:                       # each move with its words, and the position after it
            walk = start.copy()
            for ply, move in enumerate(moves, 1):
                line = move_line(walk, move)
                walk.apply(move)
                print(f"{ply}. {line}\n{walk}\n")
        else:
            print("Play: " + " ".join(str(m) for m in moves))
            print(f"\n{state}\n")
        print(f"Result: {verdict}, score {state.score}, {len(moves)} moves")
    return EXIT_WON if state.is_won() else EXIT_LOST


def _play_random(game, state, args):
    if not 0 <= args.moves <= MAX_MOVES:
        raise InvalidOptionError(f"--moves {args.moves} must be from 0 to {MAX_MOVES}")
    rng = random.Random(args.rng_seed)
    start, played = state.copy(), []
    title = f"seed {args.seed}" if args.seed is not None else "given position"
    if args.format != "json":
        print(f"{game.title}, {title}\n{state}")
    for ply in range(1, args.moves + 1):
        moves = [] if state.is_over() else state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        line = move_line(state, move)
        state.apply(move)
        played.append(move)
        if args.format != "json":
            print(f"\n{ply}. {line}\n{state}")
    result = state.outcome.name.lower()
    if args.format == "json":
        _print_json(args, start, state, result, played)
    else:
        print(f"\nResult: {result}, score {state.score}, {len(state.moves_played)} moves played")
    return EXIT_WON if state.is_won() else (EXIT_LOST if state.is_over() else EXIT_OK)


def _print_json(args, start, end, result, moves):
    """Clock's forced play and the random walk as JSON: the fields of the players' JSON
    (``moves`` the actions, ``readable`` the same moves in words)."""
    walk, readable = start.copy(), []
    for move in moves:
        readable.append(walk.describe_move(move))
        walk.apply(move)
    out = {**start_fields(args, start.game, start), "player": "random" if args.random else "forced",
           "result": result, "moves": [str(m) for m in moves], "readable": readable,
           "length": len(moves), "score": int(end.score), "end": end.layout()}
    print(json.dumps(out, indent=2))
