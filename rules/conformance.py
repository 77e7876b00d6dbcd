"""Replay a trace recorded from real Aisleriot and compare, position by position.

A trace (``../shared/conformance/README.md``) lists, for every position of random games, the
complete set of actions Aisleriot accepts and the position each leads to, plus its OVER/WON
verdict.  The runner replays the games through the engine from each ``NEW`` deal, following
the ``DO`` actions (so hidden state such as Freecell's ``high[]`` evolves as in the real game),
and checks at every ``STATE``: the position itself, the verdicts, the accepted action set, and
each resulting position exactly.
"""
import gzip
from dataclasses import dataclass, field

from .errors import AisleError, InvalidDealError
from .game import Outcome
from .layout import parse_layout
from .moves import Move
from .registry import get_game

# Slot counts identify the game: each of the five has a different number of slots.
_GAME_BY_SLOTS = {13: "clock", 16: "freecell", 11: "yukon", 12: "ten-across", 18: "zebra"}


@dataclass
class Report:
    game: str
    games: int = 0
    positions: int = 0
    actions: int = 0
    mismatches: list = field(default_factory=list)
    mismatch_count: int = 0

    def add(self, text, keep=20):
        self.mismatch_count += 1
        if len(self.mismatches) < keep:
            self.mismatches.append(text)

    @property
    def ok(self):
        return self.mismatch_count == 0 and self.positions > 0

    def summary(self):
        return (f"{self.game}: {self.games} games, {self.positions} positions, {self.actions} actions, "
                f"{self.mismatch_count} mismatches")


def read_trace_lines(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            return fh.read().splitlines()
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise InvalidDealError(f"cannot read trace {str(path)!r}: {exc}") from None


def detect_game(lines):
    for line in lines:
        if line.startswith("NEW "):
            slots = len(parse_layout(line[4:]).slots)
            if slots not in _GAME_BY_SLOTS:
                raise InvalidDealError(f"trace layout has {slots} slots, which matches no known game")
            return _GAME_BY_SLOTS[slots]
    raise InvalidDealError("trace has no 'NEW <layout>' line")


def run_trace(path, game=None, options=None, keep=20):
    """Replay the trace at ``path``; returns a :class:`Report`."""
    lines = read_trace_lines(path)
    game = get_game(game or detect_game(lines))
    opts = game.resolve_options(options or {})
    report = Report(game.name)
    state = None
    expected_actions = None
    where = ""

    def finish_position():
        nonlocal expected_actions
        if state is None or expected_actions is None:
            return
        ours = {}
        for move in state.legal_moves():
            child = state.copy()
            child.apply(move)
            ours[str(move)] = child.layout()
        for action, after in expected_actions.items():
            if action not in ours:
                report.add(f"{where}: Aisleriot accepts {action!r}, engine refuses it")
            elif ours[action] != after:
                report.add(f"{where}: {action!r} gives\n    engine    {ours[action]}\n    aisleriot {after}")
        for action in ours:
            if action not in expected_actions:
                report.add(f"{where}: engine accepts {action!r}, Aisleriot refuses it")
        report.actions += len(expected_actions)
        expected_actions = None

    for lineno, line in enumerate(lines, 1):
        kind, _, rest = line.partition(" ")
        if kind == "NEW":
            finish_position()
            report.games += 1
            state = game.from_layout(rest, **opts)
        elif kind == "STATE":
            finish_position()
            report.positions += 1
            where = f"line {lineno} (game {report.games})"
            if state is None:
                raise InvalidDealError(f"trace line {lineno}: STATE before any NEW")
            if state.layout() != rest:
                report.add(f"{where}: position differs\n    engine    {state.layout()}\n    aisleriot {rest}")
                state = game.from_layout(rest, **opts)  # resynchronise and go on
            expected_actions = {}
        elif kind == "OVER":
            parts = rest.split()
            over, won = parts[0] == "#t", parts[2] == "#t"
            our_over = state.outcome != Outcome.ONGOING
            our_won = state.is_won()
            if (over, won) != (our_over, our_won):
                report.add(f"{where}: verdict OVER {over} WON {won}, engine says over={our_over} "
                           f"won={our_won} ({state.outcome.name})")
        elif kind == "ACT":
            action, _, after = rest.partition(" => ")
            expected_actions[action] = after
        elif kind == "DO":
            finish_position()
            try:
                state.apply(Move.parse(rest))
            except AisleError as exc:
                report.add(f"line {lineno}: cannot play {rest!r}: {exc}")
        elif line.strip():
            raise InvalidDealError(f"trace line {lineno} is not a trace record: {line[:60]!r}")
    finish_position()
    return report
