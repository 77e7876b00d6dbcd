"""Replay a trace recorded from real Aisleriot and compare, position by position.

A trace (``../shared/conformance/README.md``) lists, for every position of random games, the
complete set of actions Aisleriot accepts and the position each leads to, plus its OVER/WON
verdict.  The runner replays the games through the engine from each ``NEW`` deal, following
the ``DO`` actions (so hidden state such as Freecell's ``high[]`` evolves as in the real game),
and checks at every ``STATE``: the position itself, the verdicts, the accepted action set, and
each resulting position exactly.
"""
import os
from dataclasses import dataclass, field

from rules.errors import AisleError, InvalidTraceError, clip, shorten
from rules.game import Outcome
from rules.layout import parse_layout
from rules.moves import Move
from rules.registry import all_games, get_game
from rules.textfile import read_text


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


MAX_TRACE_BYTES = 1 << 28     # 256 MiB decompressed; the recorded traces are about 10 MB at most
_VERDICT = ("#t", "#f")


def read_trace_lines(path):
    """The lines of the trace at ``path`` (``.gz`` decompressed); InvalidTraceError if unreadable."""
    return read_text(path, "trace", MAX_TRACE_BYTES, InvalidTraceError).splitlines()


def _games_by_slots():
    """``{slot count: game name}`` over the registered games; each has its own number of slots,
    so a layout's slot count says which game it is."""
    games = {game.n_slots: game.name for game in all_games()}
    assert len(games) == len(all_games()), "two registered games have the same number of slots"
    return games


def detect_game(lines, path="trace"):
    """The game a trace is for, from the slot count of its first ``NEW`` layout."""
    by_slots = _games_by_slots()
    for lineno, line in enumerate(lines, 1):
        if line.startswith("NEW "):
            try:
                slots = len(parse_layout(line[4:]).slots)
            except AisleError as exc:
                raise InvalidTraceError(f"{_name(path)} line {lineno}: {clip(exc)}") from None
            if slots not in by_slots:
                raise InvalidTraceError(f"{_name(path)} line {lineno}: a layout with {slots} slots, "
                                        f"which matches no known game")
            return by_slots[slots]
    raise InvalidTraceError(f"{_name(path)} has no 'NEW <layout>' line")


def _name(path):
    return shorten(os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else path, 120)


def run_trace(path, game=None, options=None, keep=20):
    """Replay the trace at ``path``; returns a :class:`Report`.

    A malformed trace (unreadable, a record out of place or garbled) raises
    :class:`InvalidTraceError` naming the file and line; positions where the engine and the
    trace disagree are mismatches in the report.
    """
    lines = read_trace_lines(path)
    game = get_game(game or detect_game(lines, path))
    opts = game.resolve_options(options or {})
    report = Report(game.name)
    state = None
    expected_actions = None
    where = ""
    lineno = 0

    def malformed(problem):
        return InvalidTraceError(f"{_name(path)} line {lineno}: {problem}")

    def position(text):
        try:
            return game.from_layout(text, **opts)
        except AisleError as exc:
            raise malformed(clip(exc)) from None

    def action(text):
        try:
            return Move.parse(text)
        except AisleError:
            raise malformed(f"bad action {shorten(text)}") from None

    def finish_position():
        nonlocal expected_actions
        if state is None or expected_actions is None:
            return
        ours = {}
        for move in state.legal_moves():
            child = state.copy()
            child.apply(move)
            ours[str(move)] = child.layout()
        for act, after in expected_actions.items():
            if act not in ours:
                report.add(f"{where}: Aisleriot accepts {act!r}, engine refuses it")
            elif ours[act] != after:
                report.add(f"{where}: {act!r} gives\n    engine    {ours[act]}\n    aisleriot {after}")
        for act in ours:
            if act not in expected_actions:
                report.add(f"{where}: engine accepts {act!r}, Aisleriot refuses it")
        report.actions += len(expected_actions)
        expected_actions = None

    for lineno, line in enumerate(lines, 1):
        kind, _, rest = line.partition(" ")
        if kind == "NEW":
            finish_position()
            report.games += 1
            state = position(rest)
        elif kind == "STATE":
            finish_position()
            if state is None:
                raise malformed("STATE before any NEW")
            report.positions += 1
            where = f"line {lineno} (game {report.games})"
            if state.layout() != rest:
                report.add(f"{where}: position differs\n    engine    {state.layout()}\n    aisleriot {rest}")
                state = position(rest)  # resynchronise and go on
            expected_actions = {}
        elif kind == "OVER":
            parts = rest.split()
            if len(parts) != 3 or parts[1] != "WON" or parts[0] not in _VERDICT or parts[2] not in _VERDICT:
                raise malformed(f"expected 'OVER #t|#f WON #t|#f', got {shorten(line)}")
            if expected_actions is None:
                raise malformed("OVER outside a position (it follows a STATE line)")
            over, won = parts[0] == "#t", parts[2] == "#t"
            our_over = state.outcome != Outcome.ONGOING
            our_won = state.is_won()
            if (over, won) != (our_over, our_won):
                report.add(f"{where}: verdict OVER {over} WON {won}, engine says over={our_over} "
                           f"won={our_won} ({state.outcome.name})")
        elif kind == "ACT":
            act, arrow, after = rest.partition(" => ")
            if not arrow:
                raise malformed(f"expected 'ACT <action> => <layout>', got {shorten(line)}")
            if expected_actions is None:
                raise malformed("ACT outside a position (it follows a STATE line)")
            action(act)
            expected_actions[act] = after
        elif kind == "DO":
            finish_position()
            if state is None:
                raise malformed("DO before any NEW")
            move = action(rest)
            try:
                state.apply(move)
            except AisleError as exc:
                report.add(f"line {lineno}: cannot play {rest!r}: {clip(exc)}")
        elif line.strip():
            raise malformed(f"not a trace record: {shorten(line)}")
    finish_position()
    return report
