"""``aisle hint``, ``aisle analyze`` and ``aisle deals``: the auto-players on the command line.

* ``hint GAME (SEED | --layout TEXT | --file FILE) [--player ...]`` prints the move the player
  would make now: the Aisleriot action, two spaces and the move in words in parentheses
  (``drag 4 1 0  (A♣ home)``, :meth:`rules.game.State.describe_move`); ``--format aisleriot``
  prints the action alone, ``--format notation`` the game's own notation (Freecell's).
* ``analyze GAME (SEED | --layout | --file) [--timeout S]`` lists every move, with its words,
  and the thoughtful verdict of the position it leads to (winnable / lost / unknown; the solver
  sees every card) and, where cards are hidden, the share of sampled worlds in which the move
  wins: which moves keep this game winnable, as far as a player can tell.
* ``deals GAME --winnable [--difficulty easy|medium|hard] [--count N] [--from SEED]`` prints
  seeds the thoughtful solver proved winnable (its line replayed by the referee), each graded by
  the share of no-peek games won on it (:mod:`solvers.players.grading`).

The work is the library's: :mod:`solvers.players.analysis` (the move a player makes, every
move's verdicts) and :mod:`solvers.studies.deal_book` (winnable deals, graded, in the results
store); this module parses, calls them and prints.

Also the player helpers ``aisle play`` shares (:func:`make_player`, :func:`describe_start`, ...).
Register with ``cli_player.register(sub)`` in ``solvers/cli/main.py``.
"""
import json
import sys

from rules import get_game
from rules.deals import MAX_AISLERIOT_SEED, MAX_MICROSOFT_DEAL
from rules.errors import InvalidOptionError
from solvers.cli.common import (EXIT_UNSOLVABLE, Formatter, add_game_arg, add_numbering_args,
                         add_player_args, add_position_args, parse_options, positive, start_state)
from solvers.cli.winrate import DEFAULT_DB
from solvers.players.analysis import ANALYZE_BUDGET, ANALYZE_SAMPLES, analyze, choose_now
from solvers.studies.seeds import parse_seeds

EXIT_NO_MOVE = EXIT_UNSOLVABLE

MAX_GAMES = 1000                 # deals --games: one stored run per player seed
SEED_SPACE_END = {"aisleriot": MAX_AISLERIOT_SEED, "microsoft": MAX_MICROSOFT_DEAL}


# ---- shared with ``aisle play`` ------------------------------------------------------------
def make_player(args, game):
    """The player the arguments name, for ``game`` (its default player when none is named)."""
    from solvers.players import default_player, get_player

    name = args.player or default_player(game)
    params = {key: value for key, value in (("samples", args.samples), ("budget", args.budget))
              if value is not None}
    return get_player(name, seed=args.player_seed, **params)


def describe_start(args, game):
    if args.seed is not None:
        return f"seed {args.seed}"
    return "from --layout" if args.layout is not None else f"from {args.file}"


def start_fields(args, game, state):
    """The JSON fields that say where a command started, as ``aisle solve --format json`` has them."""
    seeded = args.seed is not None
    return {"game": game.name, "seed": int(args.seed) if seeded else None,
            "numbering": (args.numbering or game.default_numbering) if seeded else None,
            "start": state.layout()}


def move_text(state, move, notation="aisleriot"):
    """``move`` as text in the position ``state`` it is played from."""
    return state.format_move(move, notation)


def move_line(state, move, notation="aisleriot"):
    """``move`` as a person reads it in the position ``state`` it is played from: the action
    (``notation``), two spaces, then its words in parentheses: ``drag 4 1 0  (A♣ home)``.
    A script takes the action as the text before the first ``"  ("``."""
    return f"{move_text(state, move, notation)}  ({state.describe_move(move)})"


def _no_move(state):
    """True, with a line on stderr, when the game is over or a player at the table has no move
    (a hand-made layout can leave moves only a peek at hidden cards allows)."""
    if state.is_over() or not state.observation().legal_moves(distinct=True):
        print(f"# no move: the game is {state.outcome.name.lower()}"
              f"{'' if state.is_over() else ' (no legal move left)'}", file=sys.stderr)
        return True
    return False


# ---- hint ----------------------------------------------------------------------------------
def cmd_hint(args):
    game, state = start_state(args)
    if _no_move(state):
        return EXIT_NO_MOVE
    player = make_player(args, game)
    move = choose_now(player, state)
    if args.format == "text":
        print(move_line(state, move))
    else:
        notation = game.notations[-1] if args.format == "notation" else "aisleriot"
        print(move_text(state, move, notation))
    detail = ""
    if getattr(player, "last_worlds", 0):
        detail = f"; it wins {player.last_wins.get(move, 0)} of {player.last_worlds} sampled worlds"
    peek = " (PEEKS at hidden cards)" if player.peeks and state.observation().hidden_count else ""
    print(f"# {game.name} {describe_start(args, game)}: {player.label()}{peek}{detail}",
          file=sys.stderr)
    return 0


# ---- analyze -------------------------------------------------------------------------------
def cmd_analyze(args):
    game, state = start_state(args)
    if _no_move(state):
        return EXIT_NO_MOVE
    rows = analyze(state, args.timeout, args.samples, args.budget, args.player_seed)
    words = {m: state.describe_move(m) for m, _, _, _ in rows}
    if args.format == "json":
        print(json.dumps({**start_fields(args, game, state), "timeout": args.timeout,
                          "moves": [{"move": str(m), "readable": words[m], "thoughtful": verdict,
                                     "worlds_won": won if n else None, "worlds": n or None}
                                    for m, verdict, won, n in rows]}, indent=2))
        return 0
    hidden = rows[0][3] > 0
    width = max(len("readable"), *(len(text) for text in words.values()))
    header = (f"{'move':<16} {'readable':<{width}} {'thoughtful (peeks)':<19}"
              + (" no-peek: sampled worlds won" if hidden else ""))
    print(header)
    for move, verdict, won, n in rows:
        share = f" {won:>3}/{n} ({100 * won / n:.0f}%)" if n else ""
        print(f"{str(move):<16} {words[move]:<{width}} {verdict:<19}{share}")
    keep = sum(1 for row in rows if row[1] == "winnable")
    print(f"# {game.name} {describe_start(args, game)}: {len(rows)} moves, {keep} keep the deal "
          f"winnable for the solver (it sees every card)", file=sys.stderr)
    return 0


# ---- deals ---------------------------------------------------------------------------------
def cmd_deals(args):
    from solvers.atlas import find as find_atlas
    from solvers.studies.deal_book import DealBook

    if not args.winnable:
        raise InvalidOptionError("aisle deals lists winnable deals only: add --winnable")
    for name, value in (("--count", args.count), ("--games", args.games), ("--max-seeds", args.max_seeds)):
        if value < 1:
            raise InvalidOptionError(f"{name} {value} must be 1 or more")
    if args.games > MAX_GAMES:
        raise InvalidOptionError(f"--games {args.games} is too large: at most {MAX_GAMES}")
    if args.no_db and args.db is not None:
        raise InvalidOptionError("--db and --no-db contradict each other")
    game = get_game(args.game)
    numbering = args.numbering or game.default_numbering
    parse_seeds(args.from_seed, numbering)               # --from within the seed space
    last = min(args.from_seed + args.max_seeds - 1, SEED_SPACE_END[numbering])
    atlas = None if args.no_atlas else find_atlas(game.name, numbering, options=parse_options(args.option))
    found = checked = from_atlas = 0
    db = None if args.no_db else (args.db or DEFAULT_DB)
    with DealBook(args.game, db=db, numbering=args.numbering, options=parse_options(args.option),
                  timeout=args.timeout, games=args.games) as book:
        for seed in range(args.from_seed, last + 1):
            checked += 1
            entry = atlas.entry(seed) if atlas is not None and atlas.covers(seed) else None
            if entry is not None and entry.verdict == "unsolvable":
                continue                                  # proven by the atlas: nothing to solve
            deal = _graded(entry, args.games)
            if deal is not None:
                from_atlas += 1
            else:
                deal = book.grade(seed)
            if deal is None:
                continue
            print(f"# seed {seed}: winnable, no-peek games won {deal.won}/{deal.games}: {deal.grade}",
                  file=sys.stderr, flush=True)
            if args.difficulty and deal.grade != args.difficulty:
                continue
            print(f"{seed} {deal.grade} {deal.won}/{deal.games}", flush=True)
            found += 1
            if found >= args.count:
                break
    if found < args.count and last == SEED_SPACE_END[numbering]:
        print(f"# the {numbering} seeds end at {last}", file=sys.stderr)
    kind = f"{args.difficulty} " if args.difficulty else ""
    source = (f"; {from_atlas} graded seeds read from the atlas ({atlas.header['grades']['by']})"
              if from_atlas else "")
    print(f"# {found} winnable {kind}{book.game.name} deals among {checked} seeds from {args.from_seed} "
          f"(grade: share of {args.games} {book.player} games won; verdicts and games "
          f"{'not kept' if args.no_db else 'kept in ' + book.where}{source})", file=sys.stderr)
    return 0 if found >= args.count else EXIT_NO_MOVE


def _graded(entry, games):
    """The GradedDeal of an atlas entry graded there with ``games`` games, else None."""
    from solvers.studies.deal_book import GradedDeal

    if entry is None or entry.grade is None or entry.games != games:
        return None
    return GradedDeal(entry.seed, entry.won, entry.games, entry.grade)


# ---- registration --------------------------------------------------------------------------
def register(sub):
    p = sub.add_parser("hint", formatter_class=Formatter,
                       help="the move an auto-player would make now, with its words",
                       description="Print the move the player would make in this position "
                                   "(exit 3 when there is none): by default one line with the "
                                   "Aisleriot action, two spaces and the move in words in "
                                   "parentheses (drag 4 1 0, two spaces, (A\u2663 home)); the "
                                   "action is the text before the '(', stripped.  --format "
                                   "aisleriot prints the action alone, as the default did before.")
    add_game_arg(p)
    add_position_args(p)
    add_player_args(p)
    p.add_argument("--format", choices=("text", "aisleriot", "notation"), default="text",
                   help="text: the Aisleriot action and the move in words; aisleriot: the action "
                        "alone, as the default was before words were added (for scripts); "
                        "notation: standard notation (freecell)")
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser("analyze", formatter_class=Formatter,
                       help="every move, in words too, with its thoughtful verdict and sampled-world wins",
                       description="List every legal move, in words too, with the thoughtful "
                                   "verdict of the position it leads to (winnable / lost / "
                                   "unknown; the solver sees every card) and, for games with "
                                   "hidden cards, the share of sampled worlds in which it wins "
                                   "(what a player can know).")
    add_game_arg(p)
    add_position_args(p)
    p.add_argument("--timeout", type=positive(float), default=5.0,
                   help="seconds for each thoughtful solve (unknown when hit)")
    p.add_argument("--samples", type=positive(int, "a positive whole number"), default=ANALYZE_SAMPLES,
                   help="worlds sampled from what the player has seen")
    p.add_argument("--budget", type=positive(int, "a positive whole number"), default=ANALYZE_BUDGET,
                   help="solver nodes per sampled world")
    p.add_argument("--player-seed", type=int, default=0, help="seed of the world sampling")
    p.add_argument("--format", choices=("text", "json"), default="text", help="table or JSON")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("deals", formatter_class=Formatter,
                       help="winnable deals graded by difficulty",
                       description="Print seeds the thoughtful solver proves winnable (its line "
                                   "replayed by the referee), graded easy / medium / hard by the "
                                   "share of no-peek pimc games won on the deal (docs/players.md). "
                                   "Lines: SEED GRADE WON/GAMES.  Exit 3 when the seed range ends "
                                   "before --count deals are found.")
    add_game_arg(p)
    p.add_argument("--winnable", action="store_true", help="list winnable deals (required)")
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"), default=None,
                   help="only deals of this grade")
    p.add_argument("--count", type=int, default=10, help="how many deals to print")
    p.add_argument("--from", dest="from_seed", type=int, default=1,
                   help="first seed to try (aisleriot numbering: from 0)")
    p.add_argument("--max-seeds", type=int, default=1000, help="give up after trying this many seeds")
    p.add_argument("--games", type=int, default=4, help="no-peek games played to grade a deal")
    p.add_argument("--db", default=None, help=f"SQLite results store read and filled (default: {DEFAULT_DB})")
    p.add_argument("--no-db", action="store_true", help="keep nothing: solve and play every deal afresh")
    p.add_argument("--no-atlas", action="store_true",
                   help="grade every deal afresh instead of reading the shipped atlas where it covers the seeds")
    p.add_argument("--timeout", type=positive(float), default=10.0,
                   help="seconds for the thoughtful solve of each deal")
    add_numbering_args(p)
    p.set_defaults(func=cmd_deals)
