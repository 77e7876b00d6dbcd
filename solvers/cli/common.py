"""What every ``aisle`` subcommand shares: the parser class, the help formatter, the exit codes,
game options, and reading the start position (a seed, layout text, or a file).

Bad input prints one line on stderr and exits 2, never a traceback.
"""
import argparse
import json
import os
import sys

from rules import GAME_NAMES, get_game
from rules.errors import InvalidOptionError, InvalidSeedError

# One meaning of the exit code in every command, kept behind a closed pipe (``| head``):
# 0 won / solved / done; 3 lost, unsolvable, stuck or no move; 4 unknown (a limit was hit);
# 2 bad input (one line on stderr); 1 a check failed (verify, conformance) or a worker died.
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_UNKNOWN = 0, 3, 4
MAX_MESSAGE = 300


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one short line and exit code 2."""

    def error(self, message):
        sys.stderr.write(one_line(f"{self.prog}: error: {message}") + "\n")
        raise SystemExit(EXIT_BAD_INPUT)


class Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Defaults in ``--help``, except where the help text already says them or there is none."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text or action.default in (None, False, [], argparse.SUPPRESS):
            return text
        return super()._get_help_string(action)


def one_line(text, limit=MAX_MESSAGE):
    """``text`` on one line, cut to ``limit`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def positive(kind, what="a positive number"):
    """An argparse type: ``kind(text)`` that must be > 0."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r:.60}") from None
        if not value > 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r:.60}")
        return value
    return parse


def parse_options(pairs):
    """``['spots=off']`` -> ``{'spots': 'off'}``."""
    out = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError(f"option {pair!r:.60} must look like NAME=VALUE (e.g. spots=off)")
        out[key.strip()] = value.strip()
    return out


def add_game_arg(p):
    p.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")


def add_numbering_args(p):
    p.add_argument("--numbering", choices=("aisleriot", "microsoft"), default=None,
                   help="seed numbering (default: microsoft for freecell, aisleriot otherwise)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", default=[],
                   help="game option, e.g. spots=off for ten-across (repeatable)")


def add_player_args(p, player_help="pimc (default; no peeking); quick (pimc's settings in about a "
                    "quarter of its time) and study (cheaper still), which keep to their plans, for "
                    "win-rate studies; greedy (one ply, no peeking); thoughtful (the solver's line: "
                    "PEEKS at hidden cards, an upper bound).  Freecell's default is thoughtful, which "
                    "sees nothing hidden there"):
    """``--player`` and its parameters (``aisle play``, ``hint``, ``winrate``)."""
    from solvers.players import PLAYER_NAMES

    p.add_argument("--player", choices=PLAYER_NAMES, default=None, help=player_help)
    p.add_argument("--player-seed", type=int, default=0, help="seed of the player's random choices")
    p.add_argument("--samples", type=positive(int, "a positive whole number"), default=None,
                   help="pimc, quick, study: worlds sampled per decision (default 10, 10, 5)")
    p.add_argument("--budget", type=positive(int, "a positive whole number"), default=None,
                   help="pimc, quick, study: solver nodes per world (default 2000, 2000, 1000); "
                        "thoughtful: nodes for its solve (default 3000000)")


def add_progress_args(p, what="the progress bar"):
    """``--progress`` / ``--no-progress``: ``args.progress`` is True, False or None (show it
    when stderr is a terminal: see :func:`show_progress`)."""
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                     help=f"always show {what} (default: when stderr is a terminal)")
    bar.add_argument("--no-progress", dest="progress", action="store_false", default=None, help="never show it")


def show_progress(args):
    """Whether to show progress: as asked, or when stderr is a terminal."""
    return sys.stderr.isatty() if args.progress is None else args.progress


def add_position_args(p, seed_help="Aisleriot seed (Freecell: Microsoft deal number by default)"):
    """``SEED | --layout TEXT | --file FILE`` and the options that shape a deal."""
    p.add_argument("seed", nargs="?", default=None, help=seed_help)
    p.add_argument("--layout", metavar="TEXT", default=None,
                   help="start from this Aisleriot layout text instead of a seed")
    p.add_argument("--file", metavar="FILE", default=None,
                   help="start from a file: Aisleriot layout text (freecell: also Freecell Solver's board format)")
    add_numbering_args(p)


def start_state(args):
    """``(game, state)`` from a seed, ``--layout`` or ``--file`` (exactly one of them)."""
    game, make = checked_start(args)
    return game, make()


def checked_start(args):
    """``(game, make)``: the seed, ``--layout`` or ``--file`` of ``args`` checked (a layout is
    parsed), and ``make()`` the position.  Dealing may compile a kernel: a solve warms up
    first (:meth:`solvers.core.solver.Solver.warm_start`) once the input is known good."""
    game = get_game(args.game)
    given = [name for name, value in (("SEED", args.seed), ("--layout", args.layout), ("--file", args.file))
             if value is not None]
    if len(given) != 1:
        raise InvalidSeedError(f"give exactly one of SEED, --layout TEXT or --file FILE, not "
                               f"{' and '.join(given) or 'none'}")
    options = parse_options(args.option)
    if args.seed is None and args.numbering is not None:
        raise InvalidOptionError("--numbering applies to a SEED, not to --layout or --file")
    if args.seed is not None:
        seed, numbering = game.check_seed(args.seed, args.numbering)
        game.resolve_options(options)
        return game, lambda: game.deal(seed, numbering, **options)
    text = args.layout if args.layout is not None else read_text(args.file, "position")
    state = game.from_text(text, **options)
    return game, lambda: state


def read_text(path, what):
    """A user's text file, checked: see :func:`rules.textfile.read_text`."""
    from rules.textfile import read_text as read

    return read(path, what)


def read_solution(path, game=None, seed=None, numbering=None):
    """Moves from a solution file: the JSON ``solve --format json`` writes, or one move per line
    (``#`` starts a comment).  A JSON file that names another game, seed or numbering is
    refused before any move is played."""
    text = read_text(path, "solution")
    if not text.lstrip().startswith("{"):
        return [line.split("#")[0].strip() for line in text.splitlines() if line.split("#")[0].strip()]
    try:
        data = json.loads(text)
    except ValueError:
        raise InvalidOptionError(f"solution file {path!r} is not valid JSON") from None
    moves = data.get("moves") if isinstance(data, dict) else None
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidOptionError(f"solution file {path!r}: 'moves' must be a list of move strings "
                                 f"(the JSON 'aisle solve --format json' writes)")
    if game is not None and data.get("game") not in (None, game):
        raise InvalidOptionError(f"solution file {path!r} is for {data['game']!r}, not {game!r}")
    if seed is not None and data.get("seed") is not None and str(data["seed"]) != str(seed):
        raise InvalidOptionError(f"solution file {path!r} is for seed {data['seed']!r}, not {seed!r}")
    if numbering is not None and data.get("numbering") not in (None, numbering):
        raise InvalidOptionError(f"solution file {path!r} is for {data['numbering']!r} numbering, not "
                                 f"{numbering!r} (add --numbering {data['numbering']})")
    return moves


def keep_suits_printable(stream):
    """Make ``stream`` write the suit symbols of readable moves (``A♣ home``) as backslash
    escapes when its encoding has none (``PYTHONIOENCODING=ascii``, a Latin-1 locale), rather
    than fail; a stream that can print them, or cannot be reconfigured, is left as it is."""
    try:
        "\u2663\u2666\u2665\u2660".encode(stream.encoding or "ascii")
    except (LookupError, UnicodeEncodeError, AttributeError, TypeError):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


class PipeSafe:
    """stdout that, once its reader has gone (``aisle ... | head``), sends the rest to
    /dev/null: the command then finishes and exits with its own code, not one a broken pipe
    chose."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._drop()
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._drop()

    def _drop(self):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)

    def __getattr__(self, name):
        return getattr(self._stream, name)
