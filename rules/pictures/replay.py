"""A whole game as one self-contained HTML page that steps through every position.

:func:`replay_html` plays the moves on copies of the start :class:`rules.game.State`, draws each
position with :func:`rules.pictures.svg.state_to_svg` (the last move's cards highlighted) and embeds the
pictures as data; the page's small script only chooses which one to show.  Buttons, a slider,
the move list and the keyboard (left/right, Home/End, space to play or pause) move through them,
and the last position shows the result.  The move list reads each move in words (``A♣ home``,
:meth:`rules.game.State.describe_move`) beside its notation and Aisleriot action.

The page asks for nothing over the network: no images, fonts or scripts from elsewhere, and a
Content-Security-Policy of ``default-src 'none'`` that allows only its own inline style and its
one script (by hash), so it works opened from a file, offline.
"""
import base64
import hashlib
import html
import json

from rules.errors import AisleError, IllegalMoveError, InvalidOptionError
from rules.game import State
from rules.pictures.svg import picture_size, state_to_svg

PLAY_INTERVAL_MS = 700

_PAGE_STYLE = """
body{font-family:system-ui,'DejaVu Sans',Arial,sans-serif;margin:16px;background:#f4f4f0;color:#222}
h1{font-size:20px;margin:0 0 8px}
#main{display:flex;gap:16px;align-items:flex-start}
#board svg{max-width:100%;height:auto;display:block}
#controls{margin:8px 0;display:flex;gap:6px;align-items:center;flex-wrap:wrap}
#controls button{font-size:16px;min-width:40px;padding:4px 8px}
#slider{flex:1;min-width:200px}
#status{margin:4px 0;font-weight:bold}
#result{margin:4px 0;padding:6px 10px;background:#fff3c4;border:1px solid #d9b84a}
#moves{position:relative;max-height:640px;overflow-y:auto;min-width:170px;margin:0;padding:4px 4px 4px 44px;
  background:#fff;border:1px solid #ccc;font-family:'DejaVu Sans Mono',monospace;font-size:13px}
#moves li{cursor:pointer;padding:1px 4px;white-space:nowrap}
#moves li.current{background:#ffb300;color:#000}
#moves .action{color:#777;margin-left:8px}
#moves li.current .action{color:#333}
.help{color:#666;font-size:13px}
"""

_PAGE_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("frames").textContent);
  var lines = data.lines, pictures = data.pictures, frames = data.frames;
  var last = frames.length - 1, index = 0, timer = null;
  var board = document.getElementById("board"), slider = document.getElementById("slider");
  var status = document.getElementById("status"), result = document.getElementById("result");
  var play = document.getElementById("play");
  var items = document.querySelectorAll("#moves li");
  function show(i) {
    index = Math.max(0, Math.min(last, i));
    board.innerHTML = pictures[frames[index].picture].map(function (n) { return lines[n]; }).join("\n");
    board.setAttribute("data-index", String(index));
    slider.value = String(index);
    status.textContent = frames[index].status;
    result.hidden = index !== last;
    for (var k = 0; k < items.length; k++) {
      items[k].classList.toggle("current", k + 1 === index);
    }
    if (index > 0) { reveal(items[index - 1]); }
    if (index === last) { stop(); }
  }
  function reveal(item) {          // scroll the move list only, never the page
    var list = item.parentNode;
    if (item.offsetTop < list.scrollTop) { list.scrollTop = item.offsetTop; }
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
    }
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = "\u25B6 Play";
  }
  function toggle() {
    if (timer !== null) { stop(); return; }
    if (index === last) { show(0); }
    play.textContent = "Pause";
    timer = setInterval(function () { show(index + 1); }, INTERVAL);
  }
  function button(id, action) {
    document.getElementById(id).addEventListener("click", function (e) { action(); e.currentTarget.blur(); });
  }
  button("first", function () { stop(); show(0); });
  button("prev", function () { stop(); show(index - 1); });
  button("next", function () { stop(); show(index + 1); });
  button("last", function () { stop(); show(last); });
  button("play", toggle);
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  for (var k = 0; k < items.length; k++) {
    items[k].addEventListener("click", function (e) { stop(); show(Number(e.currentTarget.dataset.index)); });
  }
  document.addEventListener("keydown", function (e) {
    var keys = {ArrowRight: 1, ArrowLeft: -1};
    if (e.key in keys) { stop(); show(index + keys[e.key]); }
    else if (e.key === "Home") { stop(); show(0); }
    else if (e.key === "End") { stop(); show(last); }
    else if (e.key === " " || e.key === "Spacebar") { toggle(); }
    else { return; }
    e.preventDefault();
  });
  show(0);
})();
"""


def play_moves(start, moves):
    """The positions of a game: ``start`` then one per move, each a new State.

    Raises :class:`IllegalMoveError` naming the first move the rules refuse.
    """
    states = [start.copy()]
    for number, move in enumerate(moves, 1):
        states.append(_apply(states[-1].copy(), move, number))
    return states


def move_label(state, move):
    """A move as the player reads it: the game's standard notation where it has one, then the
    Aisleriot action (``8a  drag 8 1 0``); ``state`` is the position before the move."""
    action = str(state.parse_move(move))
    try:
        notation = state.format_move(move, "standard")
    except AisleError:                      # no such notation for this game, or for this move
        return action
    return action if notation == action else f"{notation}  {action}"


def outcome_text(state, verdict=None, n_moves=None):
    """The result line of a finished replay, e.g. ``won, score 52, 97 moves`` (``n_moves``:
    the moves played, by default those in ``state``'s history)."""
    n = len(state.moves_played) if n_moves is None else n_moves
    if state.is_won():
        text = "won"
    elif state.is_over():
        text = "lost (the game is over)"
    else:
        text = "not finished"
    if verdict is not None:
        text += f" (solver: {verdict})"
    if state.game.keeps_score:
        text += f", score {state.score}"
    return f"{text}, {n} move{'s' if n != 1 else ''}"


def replay_html(start, moves, *, title=None, verdict=None):
    """The HTML page (text) that steps through the game from ``start`` playing ``moves``.

    ``start`` is a :class:`rules.game.State`; ``moves`` are Moves, codes or move text.
    ``title`` heads the page (default: the game's title); ``verdict`` is a solver's word to
    show with the result (``"unsolvable"`` with no moves, say).

    Positions are made one at a time and kept without history (never a list of States: a
    47,000-move replay held 90 KB a move so); a first pass finds the tallest picture and the
    result.  A picture is indexes into one table of distinct lines (a card is a line), and
    each distinct picture is stored once: a frame names its picture (moves back and forth
    repeat two pictures however long they go on).
    """
    moves = list(moves)
    height, end = _first_pass(start, moves)
    result = outcome_text(end, verdict, n_moves=len(moves))
    line_index, picture_index, frames, labels, words = {}, {}, [], [], []
    state, before = _fresh(start), None
    for i in range(len(moves) + 1):
        if i:
            before = state.game.array_to_layout(state.array)
            labels.append(move_label(state, moves[i - 1]))
            words.append(_words(state, moves[i - 1]))
            state = _play(state, moves[i - 1], i)
        svg = state_to_svg(state, previous=before, highlight=i > 0, min_height=height)
        if i == 0:
            status = f"Start position ({len(moves)} moves)"
        else:
            status = f"Move {i} of {len(moves)}: {labels[i - 1]}"
        if i == len(moves):
            status += f" \u2014 {result}"
        picture = tuple(line_index.setdefault(line, len(line_index)) for line in svg.split("\n"))
        frames.append({"picture": picture_index.setdefault(picture, len(picture_index)),
                       "status": status})
    data = {"lines": list(line_index), "pictures": list(picture_index), "frames": frames}
    return _page(title or f"{start.game.title} replay", data, list(zip(words, labels)), result)


def _words(state, move):
    """``move`` in words from ``state`` (``A♣ home``); None for an illegal move, which
    :func:`_play` then refuses, naming its number."""
    try:
        return state.describe_move(move)
    except AisleError:
        return None


def _fresh(state):
    """A copy of ``state`` without its move history (a replay needs only the position)."""
    return State.trusted(state.game, state.array.copy())


def _apply(state, move, number):
    """``state`` after ``move`` (played in place); the refusal names the move's number."""
    try:
        state.apply(move)
    except AisleError as exc:
        raise IllegalMoveError(f"move {number} ({str(move)!r}) cannot be played: {exc}") from None
    return state


def _play(state, move, number):
    """``state`` after ``move``, as a State without history (see :func:`_apply`)."""
    return State.trusted(state.game, _apply(state, move, number).array)


def _first_pass(start, moves):
    """The tallest picture's table height over the game's positions, and the last position."""
    state = _fresh(start)
    height = picture_size(state)[1]
    for number, move in enumerate(moves, 1):
        state = _play(state, move, number)
        height = max(height, picture_size(state)[1])
    return height, state


def write_replay(path, start, moves, **kwargs):
    """Write :func:`replay_html` to ``path`` (UTF-8)."""
    text = replay_html(start, moves, **kwargs)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InvalidOptionError(f"cannot write replay page {str(path)!r}: {exc.strerror}") from None
    return path


def _page(title, data, moves, result):
    """The page; ``moves`` are ``(words, label)`` pairs, one per move, for the move list."""
    script = _PAGE_SCRIPT.replace("INTERVAL", str(PLAY_INTERVAL_MS))
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    policy = (f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'; "
              f"img-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'")
    n_frames = len(data["frames"])
    data = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    items = "\n".join(f'<li data-index="{i}">{html.escape(words)} '
                      f'<span class="action">{html.escape(label)}</span></li>'
                      for i, (words, label) in enumerate(moves, 1))
    esc = html.escape
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{esc(policy, quote=False)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<style>{_PAGE_STYLE}</style>
</head>
<body>
<h1>{esc(title)}</h1>
<div id="controls">
<button id="first" title="first position (Home)">|&#x25C0;</button>
<button id="prev" title="previous move (left arrow)">&#x25C0;</button>
<button id="play" title="play or pause (space)">&#x25B6; Play</button>
<button id="next" title="next move (right arrow)">&#x25B6;</button>
<button id="last" title="last position (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="{n_frames - 1}" value="0" aria-label="position">
</div>
<div id="status"></div>
<div id="result" hidden>Result: {esc(result)}</div>
<div id="main">
<div id="board" data-index="0"></div>
<ol id="moves">
{items}
</ol>
</div>
<p class="help">Keys: &#x2190; / &#x2192; step, space plays or pauses, Home / End jump. Click a move to go there.</p>
<script type="application/json" id="frames">{data}</script>
<script>{script}</script>
</body>
</html>
"""
