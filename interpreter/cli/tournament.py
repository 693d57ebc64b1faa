"""`lotr-rules tournament GAME --agents a,b,c --games N`: every pair of agents plays N games, shared
equally between the sides, on the same seeds (a pair's games are paired: seed k is played with the
first agent on each side in turn). A side is a seat, or a team where the game has teams: the first
agent plays every seat of one side and the second all the others (two players: both ways round;
a team game: team against team; three or more sides: one agent alone against the other at every
other seat, the lone side going round the table).

A game counts as a win for the agent whose side wins alone, a loss when another side wins, a
draw when the victory is shared or nobody wins. Printed: the standings (an Elo rating fitted to
all the games by maximum likelihood, Bradley-Terry with a draw as half a win, its 95% interval
from 400 parametric bootstrap refits; score and record), then each pair (the first agent's score
with a 95% Wilson interval, its score from each side). The games run like `simulate`'s: in a
process pool (--workers, every core by default) or on Ray (--backend ray).

Search budget: `mcts` and `ismcts` named without a number search --budget iterations a move (30),
not their own defaults (150, 200): a Duel game with either at its default takes 4 to 8 s, so the
600 games of `--agents random,greedy,mcts,ismcts --games 100` would take most of an hour on two
cores. `mcts:N` and `ismcts:N` name their budget outright.
"""
from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from itertools import combinations

from .common import UsageError, agent_names, console as _console, load, options as _options, seats
from .simulate import check_backend, make_tasks, run_tasks
from .stats import side_won, wilson


DEFAULT_BUDGET = 30            # iterations a move for a bare `mcts` or `ismcts` in a tournament
SEARCHERS = ("mcts", "ismcts")  # the agents --budget applies to


def add_arguments(p) -> None:
    """The arguments of `tournament` (cli/__init__.py may add --option, --players and --mod)."""
    p.add_argument("game")
    p.add_argument("--agents", required=True,
                   help="two or more agents, comma-separated: random, greedy, mcts, ismcts, greedy:DEPTH, "
                        "mcts:ITERATIONS, ismcts:ITERATIONS")
    p.add_argument("--games", type=int, default=100,
                   help="games per pair of agents, shared equally between the sides (default 100)")
    p.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="N",
                   help=f"iterations a move for mcts and ismcts named without a number (default {DEFAULT_BUDGET}, "
                        f"less than their own defaults so that a tournament takes minutes; mcts:N and "
                        f"ismcts:N name their own)")
    p.add_argument("--workers", type=int,
                   help="processes to play in, or CPUs of the local Ray (default: all cores)")
    p.add_argument("--backend", choices=["process", "ray"], default="process",
                   help="process (default) or ray (pip install 'lotr-rules[ray]')")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: a Ray cluster to join (auto, HOST:PORT or ray://HOST:PORT)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--progress", action="store_true", help="show the progress bar even without a terminal")


def _seatings(seated, teams: dict, a: str, b: str) -> list:
    """Line-ups for a pair, one per side: `a` in every seat of that side, `b` in all the others
    (two players: a then b, b then a; a team game: a plays one team, b the other; more sides: a
    alone against b in every other seat)."""
    return [(side, [a if p in members else b for p in seated]) for side, members in teams.items()]


def run(args) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    mods = getattr(args, "mod", None) or []
    players = getattr(args, "players", None)
    game = load(args.game, mods=mods)
    seated = seats(game, players)
    if args.games < 1:
        raise UsageError(f"--games must be 1 or more, not {args.games}")
    budget = getattr(args, "budget", DEFAULT_BUDGET)
    if budget < 1:
        raise UsageError(f"--budget must be 1 or more, not {budget}")
    workers = check_backend(args.backend, args.address,
                            args.workers if args.workers is not None else (os.cpu_count() or 1))
    names = [a.strip() for a in str(args.agents).split(",") if a.strip()]
    if len(names) < 2:
        raise UsageError("--agents needs two or more agents, comma-separated")
    for a in names:  # each a known agent
        agent_names(game, a, seated)
    names = [f"{a}:{budget}" if a in SEARCHERS else a for a in names]
    if len(set(names)) != len(names):
        raise UsageError(f"--agents names an agent twice ({', '.join(names)})")
    options = _options(game, getattr(args, "option", None))
    try:
        game.new_game(seed=args.seed, options=options, players=players)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    teams = game.teams(players)
    per = max(1, math.ceil(args.games / len(teams)))
    seeds = list(range(args.seed, args.seed + per))
    jobs = []   # (pair, the side of the first agent, line-up, number of tasks)
    tasks = []
    for a, b in combinations(names, 2):
        for side, lineup in _seatings(seated, teams, a, b):
            t = make_tasks(game, lineup, seeds, options, mods, players, workers)
            jobs.append(((a, b), side, lineup, len(t)))
            tasks += t
    t0 = time.perf_counter()
    show = not args.json and sys.stderr.isatty() or args.progress
    with Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=_console(stderr=True), disable=not show) as prog:
        job = prog.add_task("games", total=sum(len(t[2]) for t in tasks))
        results = run_tasks(tasks, workers, args.backend, args.address,
                            advance=lambda k: prog.update(job, advance=k))
    wall = time.perf_counter() - t0
    # each pair's record, from the first agent's side of the table
    pairs = {}
    i = 0
    for (a, b), side, lineup, k in jobs:
        games = [r for batch in results[i:i + k] for r in batch]
        i += k
        rec = pairs.setdefault((a, b), {"a": a, "b": b, "games": 0, "a_wins": 0, "draws": 0, "b_wins": 0,
                                        "by_side": {}})
        a_side = teams[side]
        sw = sl = sd = 0
        for r in games:
            if side_won(r["winners"], a_side):
                sw += 1
            elif any(side_won(r["winners"], ms) for ms in teams.values()):
                sl += 1
            else:
                sd += 1
        rec["games"] += len(games)
        rec["a_wins"] += sw
        rec["b_wins"] += sl
        rec["draws"] += sd
        rec["by_side"][side] = {"games": len(games), "a_wins": sw, "draws": sd, "b_wins": sl,
                                        "a_score": round((sw + sd / 2) / len(games), 4) if games else 0.0}
    for rec in pairs.values():
        n = rec["games"]
        score = rec["a_wins"] + rec["draws"] / 2
        lo, hi = wilson(score, n)
        rec.update({"a_score": round(score / n, 4), "ci_low": round(lo, 4), "ci_high": round(hi, 4)})
    elo, ci = _elo(names, list(pairs.values()), random.Random(args.seed))
    standings = []
    for name in names:
        w = d = l = 0
        for rec in pairs.values():
            if rec["a"] == name:
                w, d, l = w + rec["a_wins"], d + rec["draws"], l + rec["b_wins"]
            elif rec["b"] == name:
                w, d, l = w + rec["b_wins"], d + rec["draws"], l + rec["a_wins"]
        n = w + d + l
        standings.append({"agent": name, "elo": round(elo[name], 1), "elo_low": round(ci[name][0], 1),
                          "elo_high": round(ci[name][1], 1), "games": n, "wins": w, "draws": d, "losses": l,
                          "score": round((w + d / 2) / n, 4) if n else 0.0})
    standings.sort(key=lambda s: -s["elo"])
    out = {"game": game.name, "seats": list(seated), "games_per_pair": per * len(teams),
           "seed": args.seed, "options": options, "standings": standings, "pairs": list(pairs.values()),
           "seconds": round(wall, 2), "workers": workers, "backend": args.backend, "budget": budget}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    _print(out, game)
    return 0


def _print(out, game) -> None:
    from rich.table import Table

    from .common import escape

    console = _console()
    t = Table(title=f"{escape(game.rules.title)}: tournament, {out['games_per_pair']} games a pair")
    for c in ("agent", "Elo", "95% interval", "games", "W-D-L", "score"):
        t.add_column(c, justify="left" if c in ("agent", "95% interval") else "right")
    for s in out["standings"]:
        t.add_row(escape(s["agent"]), f"{s['elo']:+.0f}", f"{s['elo_low']:+.0f}..{s['elo_high']:+.0f}", str(s["games"]),
                  f"{s['wins']}-{s['draws']}-{s['losses']}", f"{s['score']:.1%}")
    console.print(t)
    p = Table(title="pairs (score of the first agent: a win 1, a draw 1/2; 95% Wilson interval)")
    for c in ("agent", "against", "games", "W-D-L", "score", "interval", "by side"):
        p.add_column(c, justify="right" if c in ("games", "W-D-L", "score") else "left")
    for r in out["pairs"]:
        seats_txt = ", ".join(f"{escape(game.rules.display(k))} {v['a_score']:.0%}" for k, v in r["by_side"].items())
        p.add_row(escape(r["a"]), escape(r["b"]), str(r["games"]), f"{r['a_wins']}-{r['draws']}-{r['b_wins']}",
                  f"{r['a_score']:.1%}", f"{r['ci_low']:.1%}..{r['ci_high']:.1%}", seats_txt)
    console.print(p)
    console.print(f"seeds from {out['seed']}; {out['seconds']} s on {out['workers']} worker(s), {out['backend']}; "
                  f"mcts and ismcts named without a number search {out['budget']} iterations a move (--budget)")


def _fit(names, results, start=None, tol=1e-10, max_iters=20_000) -> dict:
    """Bradley-Terry strengths by minorisation-maximisation (a draw is half a win each way), with
    a little prior (one drawn game against a virtual player of strength 1) so that a perfect
    record stays finite; iterated until no strength moves by more than `tol` (relative), from
    `start` (a previous fit's strengths) when given. Returned: (Elo ratings with mean 0, strengths)."""
    s = dict(start) if start else {n: 1.0 for n in names}
    wins = {n: 0.5 for n in names}  # the prior's half point
    games = {}
    for a, b, wa, wb in results:
        wins[a] += wa
        wins[b] += wb
        games[(a, b)] = games.get((a, b), 0) + wa + wb
    for _ in range(max_iters):
        new = {}
        for n in names:
            denom = 1.0 / (s[n] + 1.0)  # the virtual opponent
            for (a, b), g in games.items():
                if n in (a, b):
                    denom += g / (s[a] + s[b])
            new[n] = wins[n] / denom
        moved = max(abs(new[n] - s[n]) / s[n] for n in names)
        s = new
        if moved < tol:
            break
    logs = {n: 400 * math.log10(v) for n, v in s.items()}
    mean = sum(logs.values()) / len(logs)
    return {n: v - mean for n, v in logs.items()}, s


def _elo(names, pairs, rng, boots=400):
    """Elo ratings and their 95% intervals: refits on `boots` tournaments drawn from each pair's
    observed win, draw and loss rates (a parametric bootstrap), each refit starting from the fit."""
    def points(recs):
        return [(r["a"], r["b"], r["a_wins"] + r["draws"] / 2, r["b_wins"] + r["draws"] / 2) for r in recs]

    elo, strengths = _fit(names, points(pairs))
    samples = {n: [] for n in names}
    for _ in range(boots):
        fake = []
        for r in pairs:
            n = r["games"]
            pw, pd = r["a_wins"] / n, r["draws"] / n
            w = d = 0
            for _ in range(n):
                u = rng.random()
                if u < pw:
                    w += 1
                elif u < pw + pd:
                    d += 1
            fake.append({**r, "a_wins": w, "draws": d, "b_wins": n - w - d})
        for n_, v in _fit(names, points(fake), start=strengths, tol=1e-7)[0].items():
            samples[n_].append(v)
    ci = {}
    for n_, vs in samples.items():
        vs.sort()
        ci[n_] = (vs[int(0.025 * len(vs))], vs[min(len(vs) - 1, int(0.975 * len(vs)))])
    return elo, ci
