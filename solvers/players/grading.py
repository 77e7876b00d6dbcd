"""Difficulty grades for winnable deals, from a measured quantity.

A deal's grade is read from the share of ``GAMES`` independent no-peek games the game's default
player (``pimc`` at its default settings; player seeds 0, 1, ...) wins on it:

* ``easy``   -- at least 3/4 of the games won;
* ``medium`` -- at least 1/4, less than 3/4;
* ``hard``   -- less than 1/4: winnable by the thoughtful solver (it sees every card), rarely
  or never by a player who does not.

Only deals the thoughtful solver proved winnable (its line replayed by the referee) are graded.
The games differ only by the player's seed, i.e. by which worlds it samples, so the share
measures how often a good no-peek player's sampling leads it to a win on this deal.  Where no
card is hidden (Freecell) or there is no choice (Clock) every game is the same and every
winnable deal is ``easy``.
"""
from solvers.players.play import play_game

GAMES = 4
EASY_SHARE, MEDIUM_SHARE = 0.75, 0.25
GRADES = ("easy", "medium", "hard")


def grade_of(won, games):
    """The grade of a deal won in ``won`` of ``games`` no-peek games."""
    share = won / games
    if share >= EASY_SHARE:
        return "easy"
    return "medium" if share >= MEDIUM_SHARE else "hard"


def grade_deal(state, games=GAMES, player=None, **params):
    """``(grade, won, records)`` for the deal ``state``: ``games`` games of ``player`` (default:
    the game's default player) with player seeds 0 .. games-1.  Every win is replayed by the
    referee before it counts."""
    from solvers.players import default_player, get_player

    name = player or default_player(state.game)
    records = []
    for seed in range(games):
        record = play_game(state, get_player(name, seed=seed, **params))
        if record.won:
            record.verify()
        records.append(record)
    won = sum(r.won for r in records)
    return grade_of(won, games), won, records
