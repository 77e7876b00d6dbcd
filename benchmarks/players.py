"""Auto-player benchmark: thoughtful, greedy and pimc (or any players) on the same Aisleriot seeds.

    python benchmarks/players.py [--games yukon,ten-across,zebra] [--seeds 1-1000]
        [--pimc-seeds 1-300] [--players thoughtful,greedy,pimc,study] [--samples K] [--budget N]
        [--param PLAYER:NAME=VALUE] [--option NAME=VALUE] [--jobs N] [--json PATH]

For each game and player: games won with a 95% Wilson interval, the median (and p90) seconds per
game on one core, for the no-peek players the share of the thoughtfully winnable deals (among
the seeds both played) that they convert, and each against pimc on the seeds both played (the
paired difference of win rates with its 95% interval).  ``thoughtful`` peeks at every hidden
card: its rate is the solver's winnability under its node budget, the upper bound (a deal whose
solve hit the budget counts both ways in its interval).  Ten Across is played with its temporary
spots on (the default; ``--option spots=off`` turns them off).  Every won game is replayed by the
game's referee (outside the timed play; a bad one stops the run).  ``--jobs`` plays games in that
many processes; each game runs on one core.  Prints a table and writes JSON (per-seed rows
included).
"""
import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules import AisleError, get_game  # noqa: E402
from solvers.cli.common import parse_options  # noqa: E402
from solvers.players import get_player, play_game  # noqa: E402
from solvers.studies.seeds import parse_seeds  # noqa: E402
from solvers.studies.stats import paired_difference, win_rate, wilson_interval  # noqa: E402
import machine  # noqa: E402  (benchmarks/machine.py)

GAMES = ("yukon", "ten-across", "zebra")


def play_one(task):
    """One game: ``(game, options, player, params, seed) -> row`` (a dict, JSON-ready)."""
    game, options, name, params, seed = task
    player = get_player(name, seed=0, **params)
    state = get_game(game).deal(seed, **options)
    record = play_game(state, player)
    if record.won:
        record.verify()
    row = {"game": game, "player": name, "seed": seed, "won": record.won, "result": record.result,
           "reason": record.reason, "moves": len(record.moves), "seconds": round(record.seconds, 4)}
    if name == "thoughtful":
        row["verdict"] = player.last_verdict
    return row


def _warm(games):
    """Load every solver's kernels in this process before any game is timed."""
    from solvers import get_solver

    for game in games:
        get_solver(game).ready()


def run(tasks, jobs, games):
    if jobs <= 1:
        _warm(games)
        return [_progress(i, len(tasks), play_one(t)) for i, t in enumerate(tasks)]
    with mp.get_context("spawn").Pool(jobs, initializer=_warm, initargs=(games,)) as pool:
        return [_progress(i, len(tasks), row)
                for i, row in enumerate(pool.imap_unordered(play_one, tasks, chunksize=1))]


def _progress(i, total, row):
    print(f"\r{i + 1}/{total} {row['game']} {row['player']} seed {row['seed']}: {row['result']}   ",
          end="", file=sys.stderr, flush=True)
    return row


def summarise(rows, games, players):
    """Per game and player: counts, interval, timing, and the conversion of winnable deals."""
    out = []
    for game in games:
        mine = [r for r in rows if r["game"] == game]
        winnable = {r["seed"] for r in mine if r["player"] == "thoughtful" and r["won"]}
        thought = {r["seed"] for r in mine if r["player"] == "thoughtful"}
        for name in players:
            group = [r for r in mine if r["player"] == name]
            if not group:
                continue
            won = sum(r["won"] for r in group)
            n = len(group)
            if name == "thoughtful":
                unknown = sum(r.get("verdict") == "unknown" for r in group)
                rate = win_rate(won, n - won - unknown, unknown)
                low, high = rate.low, rate.high
            else:
                unknown = 0
                low, high = wilson_interval(won, n)
            secs = sorted(r["seconds"] for r in group)
            item = {"game": game, "player": name, "deals": n, "won": won, "unknown": unknown,
                    "rate": won / n, "low": low, "high": high,
                    "median_seconds": statistics.median(secs),
                    "p90_seconds": secs[min(n - 1, int(0.9 * n))]}
            if name != "thoughtful" and thought:
                both = [r for r in group if r["seed"] in thought]
                base = [r for r in both if r["seed"] in winnable]
                conv = sum(r["won"] for r in base)
                c_low, c_high = wilson_interval(conv, len(base))
                item.update({"winnable_deals": len(base), "converted": conv,
                             "conversion": conv / len(base) if base else None,
                             "conversion_low": c_low, "conversion_high": c_high})
            out.append(item)
    return out


def paired(rows, games, players, baseline="pimc"):
    """Each other no-peek player against ``baseline`` on the seeds both played: the difference
    of their win rates with Newcombe's paired 95% interval (the same deals, so luck of the deal
    cancels)."""
    out = []
    for game in games:
        won = {}
        for r in rows:
            if r["game"] == game:
                won.setdefault(r["player"], {})[r["seed"]] = r["won"]
        base = won.get(baseline, {})
        for name in players:
            if name in (baseline, "thoughtful") or name not in won:
                continue
            common = sorted(set(base) & set(won[name]))
            if not common:
                continue
            d = paired_difference([won[name][s] for s in common], [base[s] for s in common])
            out.append({"game": game, "player": name, "baseline": baseline, "deals": d.deals,
                        "only_player": d.only_a, "only_baseline": d.only_b,
                        "difference": d.difference, "low": d.low, "high": d.high,
                        "text": f"{game}: {name} - {baseline} on {d.deals} common seeds: {d.text()} "
                                f"(won by {name} alone {d.only_a}, by {baseline} alone {d.only_b})"})
    return out


def table(summary):
    lines = [f"{'game':<11} {'player':<11} {'deals':>5} {'won':>5} {'rate':>7}  {'95% interval':<17} "
             f"{'median s':>9} {'p90 s':>7}  converts thoughtful wins"]
    for s in summary:
        conv = ""
        if s.get("winnable_deals"):
            conv = (f"{s['converted']}/{s['winnable_deals']} = {100 * s['conversion']:.1f}% "
                    f"[{100 * s['conversion_low']:.1f}%, {100 * s['conversion_high']:.1f}%]")
        peek = "*" if s["player"] == "thoughtful" else ""
        lines.append(f"{s['game']:<11} {s['player'] + peek:<11} {s['deals']:>5} {s['won']:>5} "
                     f"{100 * s['rate']:>6.1f}%  [{100 * s['low']:5.1f}%, {100 * s['high']:5.1f}%]  "
                     f"{s['median_seconds']:>9.3f} {s['p90_seconds']:>7.3f}  {conv}")
    lines.append("* thoughtful peeks at every hidden card: the upper bound, not a fair player")
    return "\n".join(lines)


def player_params(ap, players, args):
    """Each listed player's parameters from ``--param PLAYER:NAME=VALUE`` (and pimc's from
    ``--samples``/``--budget``), checked by making the player: bad input stops the run (exit 2)
    before any game is played."""
    params = {name: {} for name in players}
    params.setdefault("pimc", {}).update(
        {k: v for k, v in (("samples", args.samples), ("budget", args.budget)) if v})
    for item in args.param:
        who, _, rest = item.partition(":")
        key, eq, value = rest.partition("=")
        if who not in players or not eq or not key:
            ap.error(f"--param {item!r}: expected PLAYER:NAME=VALUE for a player of --players")
        # a value that is no number is passed on as it is: the player's own check quotes it
        params[who][key] = int(value) if value.strip().lstrip("-").isdigit() else value
    for name in players:
        try:
            get_player(name, **params[name])     # unknown names and values fail here
        except AisleError as err:
            ap.error(str(err))
    return params


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--seeds", default="1-20", help="seeds for thoughtful and greedy (e.g. 1-1000)")
    ap.add_argument("--pimc-seeds", default=None, help="seeds for pimc (default: --seeds)")
    ap.add_argument("--players", default="thoughtful,greedy,pimc", help="comma-separated players")
    ap.add_argument("--samples", type=int, default=None, help="pimc samples (default: its own)")
    ap.add_argument("--budget", type=int, default=None, help="pimc budget (default: its own)")
    ap.add_argument("--option", action="append", metavar="NAME=VALUE", default=[],
                    help="game option for every game listed, e.g. spots=off for ten-across")
    ap.add_argument("--param", action="append", metavar="PLAYER:NAME=VALUE", default=[],
                    help="a player's parameter, e.g. quick:extend=1 (--samples and --budget "
                         "set pimc's)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (each game on one core)")
    ap.add_argument("--json", default="players.json", help="where to write the results")
    args = ap.parse_args(argv)
    games = [get_game(g).name for g in args.games.split(",")]
    options = parse_options(args.option)
    for game in games:
        get_game(game).resolve_options(options)     # an unknown option fails before any game
    players = [p for p in args.players.split(",") if p]
    params = player_params(ap, players, args)
    seeds = parse_seeds(args.seeds)
    pimc_seeds = parse_seeds(args.pimc_seeds) if args.pimc_seeds else seeds
    tasks = []
    for game in games:
        for name in players:
            for seed in (pimc_seeds if name == "pimc" else seeds):
                tasks.append((game, options, name, params[name], int(seed)))
    t0 = time.perf_counter()
    rows = run(tasks, args.jobs, games)
    wall = time.perf_counter() - t0
    print(file=sys.stderr)
    rows.sort(key=lambda r: (r["game"], r["player"], r["seed"]))
    summary = summarise(rows, games, players)
    print(table(summary))
    pairs = paired(rows, games, players)
    for item in pairs:
        print(item["text"])
    print(f"{len(rows)} games in {wall:.1f} s wall with {args.jobs} job(s); {machine.header()}")
    meta = {"seeds": args.seeds, "pimc_seeds": args.pimc_seeds or args.seeds, "options": options,
            "pimc_params": get_player("pimc", **params.get("pimc", {})).params,
            "params": {name: get_player(name, **params[name]).params for name in players},
            "jobs": args.jobs,
            "wall_seconds": round(wall, 1), **machine.describe()}
    with open(args.json, "w") as fh:
        json.dump({"meta": meta, "summary": summary, "paired": pairs, "games": rows}, fh, indent=1)
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
