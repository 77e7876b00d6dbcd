"""README.md is the user's manual, so it must not contradict the code.

* every fenced ``python`` block runs;
* every ``aisle ...`` command it shows, in code blocks or inline code, names an existing
  subcommand and only flags (and flag values) that subcommand's parser defines; a command with
  no placeholders (``SEED``, ``[...]``, ``a|b``) must also parse;
* every ``$ aisle ...`` example prints exactly the output shown under it;
* every ``python benchmarks/NAME.py ...`` command names a script and flags it defines, and
  docs/benchmarks.md has a section for every benchmark;
* every relative link, and every inline path such as ``rules/_jit.py``, exists (a link's
  ``#heading`` too);
* the pages under docs/ are held to the same checks for the commands, links and paths they show;
* the README stays within 300 lines.
"""
import argparse
import ast
import contextlib
import io
import re
import shlex
from functools import lru_cache
from pathlib import Path

import pytest

from rules import GAME_NAMES
from solvers.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BENCHMARKS_DOC = ROOT / "docs" / "benchmarks.md"

FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*(\.\w+)?|\.\.\.")
PATH_SPAN = re.compile(r"(docs|rules|solvers|benchmarks|tests)/[\w./-]*")


def fenced(text):
    """``[(language, body)]`` of the fenced code blocks."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def inline_spans(text):
    """Inline code spans outside fenced blocks."""
    return INLINE.findall(FENCE.sub("", text))


def shown_commands(text, program):
    """Every command line that starts with ``program`` (e.g. ``"aisle"``): lines of the
    non-Python code blocks (a leading ``$ `` dropped) and inline code spans."""
    found = []
    for lang, body in fenced(text):
        if lang == "python":
            continue
        for line in body.splitlines():
            line = line.strip()
            if line.startswith("$ "):
                line = line[2:]
            if line == program or line.startswith(program + " "):
                found.append(line)
    found += [span for span in inline_spans(text) if span == program or span.startswith(program + " ")]
    return found


# ---------------------------------------------------------------------------------- aisle commands

def subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    raise AssertionError("the aisle parser has no subcommands")


def _nested(parser):
    """A subcommand's own subcommands (``aisle atlas build``), or an empty dict."""
    return next((a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {})


def is_placeholder(token):
    return bool(PLACEHOLDER.fullmatch(token)) or any(c in token for c in "[]|") \
        or token.startswith("(") or token.endswith(")") and not token.startswith("$(")


def check_aisle_command(line, parser=None):
    """The problems with one shown ``aisle ...`` command: a list of strings, empty when it is fine."""
    parser = parser or build_parser()
    commands = subparsers(parser)
    try:
        tokens = shlex.split(line, comments=True)[1:]
    except ValueError as exc:
        return [f"{line!r}: cannot split it ({exc})"]
    if not tokens:
        return []
    name = tokens[0]
    if PLACEHOLDER.fullmatch(name):                     # aisle CMD --help
        flags = {"-h", "--help"}
        sub = None
    elif name not in commands:
        return [f"{line!r}: no subcommand {name!r} (there are {', '.join(commands)})"]
    else:
        sub = commands[name]
    rest = tokens[1:]
    while sub is not None and _nested(sub):             # aisle atlas build ...
        if not rest or rest[0] not in _nested(sub):
            return [f"{line!r}: 'aisle {name}' needs one of {', '.join(_nested(sub))}"]
        name, sub, rest = f"{name} {rest[0]}", _nested(sub)[rest[0]], rest[1:]
    if sub is not None:
        flags = set(sub._option_string_actions)
    problems = []
    for i, token in enumerate(rest):
        for piece in token.strip("[](){}").split("|"):
            piece = piece.strip("[](){}")
            if not piece.startswith("-") or piece == "-" or re.fullmatch(r"-\d+(\.\d+)?", piece):
                continue
            flag = piece.split("=", 1)[0]
            if flag not in flags:
                problems.append(f"{line!r}: 'aisle {name}' has no option {flag}")
                continue
            action = sub._option_string_actions[flag] if sub else None
            value = rest[i + 1].strip("[](){}") if i + 1 < len(rest) else ""
            if action is not None and action.choices and value and not PLACEHOLDER.fullmatch(value):
                for choice in value.split("|"):
                    if choice not in action.choices:
                        problems.append(f"{line!r}: {flag} takes one of {', '.join(action.choices)}, "
                                        f"not {choice!r}")
    # ``aisle winrate`` alone names a subcommand in prose; anything more must be a whole command.
    concrete = sub is not None and rest and not any(is_placeholder(t) for t in rest)
    if concrete and not problems:
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                args = build_parser().parse_args(tokens)
        except SystemExit:
            return [f"{line!r}: does not parse: {err.getvalue().strip()}"]
        if getattr(args, "game", None) is not None and args.game not in GAME_NAMES:
            problems.append(f"{line!r}: no game {args.game!r}")
    return problems


README_TEXT = README.read_text(encoding="utf-8")
AISLE_LINES = shown_commands(README_TEXT, "aisle")
DOCS = sorted((ROOT / "docs").glob("*.md"))
DOC_AISLE_LINES = [(doc.name, line) for doc in DOCS
                   for line in shown_commands(doc.read_text(encoding="utf-8"), "aisle")]


def test_readme_shows_commands():
    # The parser below must have something to check: the README's command table and examples.
    assert len(AISLE_LINES) >= 20
    shown = {shlex.split(line, comments=True)[1] for line in AISLE_LINES if len(line.split()) > 1}
    assert set(subparsers(build_parser())) <= shown | {"CMD"}, "every subcommand is in the README"


@pytest.mark.parametrize("line", AISLE_LINES)
def test_aisle_command_exists(line):
    assert check_aisle_command(line) == []


@pytest.mark.parametrize("doc, line", DOC_AISLE_LINES)
def test_aisle_command_in_docs_exists(doc, line):
    assert check_aisle_command(line) == [], doc


@pytest.mark.parametrize("line, fragment", [
    ("aisle solve yukon 3 --made-up-flag 5", "has no option --made-up-flag"),
    ("aisle solve yukon 3 [--made-up-flag N]", "has no option --made-up-flag"),
    ("aisle frobnicate yukon 3", "no subcommand 'frobnicate'"),
    ("aisle atlas build yukon --seeds 1-9 --made-up 3", "'aisle atlas build' has no option --made-up"),
    ("aisle atlas frobnicate yukon", "needs one of build"),
    ("aisle deal GAME SEED [--format text|svg]", "not 'svg'"),
    ("aisle solve spider 1", "no game 'spider'"),
    ("aisle solve yukon 3 --timeout -1", "does not parse"),
])
def test_checker_catches_what_the_code_lacks(line, fragment):
    # The check itself can fail: a made-up flag, subcommand, choice, game or value is reported.
    problems = check_aisle_command(line)
    assert any(fragment in p for p in problems), problems


def output_examples(text):
    """``[(argv, expected stdout)]`` of the code blocks that start with ``$ aisle ...``."""
    out = []
    for lang, body in fenced(text):
        first, _, rest = body.partition("\n")
        if lang != "python" and first.startswith("$ aisle "):
            out.append((shlex.split(first[2:])[1:], rest))
    return out


@pytest.mark.parametrize("argv, expected", output_examples(README_TEXT),
                         ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_shown_output_is_what_the_command_prints(capsys, monkeypatch, tmp_path, argv, expected):
    monkeypatch.chdir(tmp_path)
    code = main(argv)
    out = capsys.readouterr().out
    assert code in (0, 3)                      # a result (won / lost), not an error
    strip = lambda s: [line.rstrip() for line in s.rstrip().splitlines()]   # noqa: E731
    assert strip(out) == strip(expected)


def test_readme_has_output_examples():
    assert len(output_examples(README_TEXT)) >= 2


# --------------------------------------------------------------------------------- Python snippets

SNIPPETS = [body for lang, body in fenced(README_TEXT) if lang == "python"]


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_python_snippet_runs(index, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)                     # a snippet that writes files writes them here
    exec(compile(SNIPPETS[index], f"README.md python block {index + 1}", "exec"), {"__name__": "readme"})


def test_readme_has_snippets_of_the_public_api():
    code = "\n".join(SNIPPETS)
    for name in ("from rules import get_game", "from solvers import get_solver",
                 "from solvers.players import get_player, play_game", "from solvers import estimate_win_rate",
                 ".legal_moves()", ".apply(", ".undo()", ".observation()", ".to_svg()",
                 ".solve(", ".solve_many(", ".verify()"):
        assert name in code, f"the README's snippets no longer show {name}"


# ------------------------------------------------------------------------------------- benchmarks

BENCH_SCRIPTS = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.stem != "machine")


@lru_cache(maxsize=None)
def benchmark_flags(script):
    """The option strings a benchmark script's argparse defines, read from its source."""
    tree = ast.parse((ROOT / "benchmarks" / f"{script}.py").read_text(encoding="utf-8"))
    flags = {"-h", "--help"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument":
            flags |= {a.value for a in node.args if isinstance(a, ast.Constant)
                      and isinstance(a.value, str) and a.value.startswith("-")}
    return flags


def check_benchmark_command(line):
    tokens = shlex.split(line, comments=True)
    match = re.fullmatch(r"benchmarks/(\w+)\.py", tokens[1]) if len(tokens) > 1 else None
    if not match or not (ROOT / tokens[1]).is_file():
        return [f"{line!r}: no benchmark script {tokens[1:2]}"]
    flags = benchmark_flags(match.group(1))
    problems = []
    for token in tokens[2:]:
        for piece in token.strip("[](){}").split("|"):
            piece = piece.strip("[](){}").split("=", 1)[0]
            if piece.startswith("--") and piece not in flags:
                problems.append(f"{line!r}: {tokens[1]} has no option {piece}")
    return problems


BENCH_TEXT = BENCHMARKS_DOC.read_text(encoding="utf-8") if BENCHMARKS_DOC.exists() else ""

def benchmark_commands(text):
    """The ``python benchmarks/NAME.py ...`` commands shown (``NAME`` itself is no command)."""
    return [line for line in shown_commands(text, "python")
            if line.startswith("python benchmarks/") and not line.startswith("python benchmarks/NAME.py")]


BENCH_LINES = benchmark_commands(README_TEXT) + [
    line for doc in DOCS for line in benchmark_commands(doc.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("line", BENCH_LINES)
def test_benchmark_command_exists(line):
    assert check_benchmark_command(line) == []


def test_benchmark_checker_catches_a_made_up_flag():
    assert check_benchmark_command("python benchmarks/solvability.py --game yukon --made-up 3")
    assert check_benchmark_command("python benchmarks/no_such_bench.py")


def test_every_benchmark_has_a_section():
    assert BENCH_TEXT, "docs/benchmarks.md is missing"
    sections = re.split(r"^## ", BENCH_TEXT, flags=re.M)[1:]
    for script in BENCH_SCRIPTS:
        assert any(f"benchmarks/{script}.py" in s for s in sections), f"no section runs {script}.py"
    for line in benchmark_commands(README_TEXT):
        assert line in BENCH_TEXT, f"the README's {line!r} is not a command docs/benchmarks.md gives"


# ------------------------------------------------------------------------------------------ links

def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}


def link_problems(doc):
    text = FENCE.sub("", doc.read_text(encoding="utf-8"))
    problems = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue                                 # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            problems.append(f"{doc.name}: link to missing {target}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            problems.append(f"{doc.name}: {file.name} has no heading #{anchor}")
    for span in inline_spans(doc.read_text(encoding="utf-8")):
        if PATH_SPAN.fullmatch(span) and not (ROOT / span).exists():
            problems.append(f"{doc.name}: names a missing path {span}")
    return problems


@pytest.mark.parametrize("doc", ["README.md"] + [f"docs/{doc.name}" for doc in DOCS])
def test_links_and_paths_exist(doc):
    assert link_problems(ROOT / doc) == []


def test_link_checker_catches_a_missing_page(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n[a](docs/none.md) [b](#title) [c](#nowhere)\n", encoding="utf-8")
    problems = link_problems(page)
    assert len(problems) == 2 and "docs/none.md" in problems[0] and "#nowhere" in problems[1]


def test_readme_is_short():
    assert len(README_TEXT.splitlines()) <= 300


def test_setup_commands_are_what_ci_runs():
    # The README's two set-up commands, byte for byte, and CI's script runs the second one.
    assert "```\npip install . && aisle play clock 1\n```" in README_TEXT
    assert '```\npip install ".[test]" && python -m pytest -q -n auto\n```' in README_TEXT
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r'pip install --quiet "\.\[test[],]', ci) and "\npython3 -m pytest -q -n auto\n" in ci
