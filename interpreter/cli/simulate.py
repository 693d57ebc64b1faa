"""`lotr-rules simulate GAME`: many games between agents, in a pool of processes; statistics."""
from __future__ import annotations

import json
import sys
import time
from collections import Counter

from .common import UsageError, agent_names, console as _console, load, options as _options, seats


def _sim_batch(task):
    """Play a batch of seeds in one worker; only the results travel back."""
    game_name, agents, seeds, agent_seed, options, mods, players = task
    from .. import load_game
    from ..agents import make_agent
    from .playout import playout

    game = load_game(game_name, mods=mods)
    out = []
    seated = game.seating(players)
    for seed in seeds:
        seat = {p: make_agent(a, seed * 7919 + agent_seed + i) for i, (p, a) in enumerate(zip(seated, agents))}
        res = playout(game, seat, seed, options, players)
        del res["state"]
        out.append(res)
    return out


def run(args) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    game = load(args.game, mods=args.mod)
    seated = seats(game, args.players)
    if args.games < 1:
        raise UsageError(f"--games must be 1 or more, not {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be 1 or more, not {args.workers}")
    agents = agent_names(game, args.agents or game.rules.default_agents or "random", seated)
    options = _options(game, args.option)
    try:
        game.new_game(seed=args.seed, options=options, players=args.players)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    seeds = list(range(args.seed, args.seed + args.games))
    batch = max(1, min(50, args.games // max(1, args.workers * 4)))
    tasks = [(str(game.rules.root), agents, seeds[i:i + batch], args.seed, options, args.mod, args.players)
             for i in range(0, len(seeds), batch)]
    results = []
    t0 = time.perf_counter()
    show = not args.json and sys.stderr.isatty() or args.progress
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=_console(stderr=True), disable=not show) as prog:
        job = prog.add_task("games", total=len(seeds))
        if args.workers > 1:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(args.workers, mp_context=mp.get_context("spawn")) as ex:
                for res in ex.map(_sim_batch, tasks):
                    results.extend(res)
                    prog.update(job, advance=len(res))
        else:
            for task in tasks:
                res = _sim_batch(task)
                results.extend(res)
                prog.update(job, advance=len(res))
    wall = time.perf_counter() - t0
    n = len(results)
    teams = game.teams(args.players)
    wins, team_wins = Counter(), Counter()
    for r in results:  # a game won by the players of one side alone is a win for each of them
        side = next((t for t, ms in teams.items() if r["winners"] and set(r["winners"]) <= set(ms)), None)
        if side is not None:
            team_wins[side] += 1
            for w in r["winners"]:
                wins[w] += 1
        else:
            key = "shared" if r["winners"] else "none"
            wins[key] += 1
            team_wins[key] += 1
    victories = Counter(r["victory"] for r in results)
    lengths = sorted(r["actions"] for r in results)
    total_actions = sum(lengths)
    summary = {
        "game": game.name, "games": n, "players": len(seated), "agents": dict(zip(seated, agents)),
        "seed": args.seed, "options": options,
        "wins": {k: wins.get(k, 0) for k in [*seated, "shared", "none"]},
        "win_rate": {k: round(wins.get(k, 0) / n, 4) for k in [*seated, "shared", "none"]},
        "team_wins": ({k: team_wins.get(k, 0) for k in [*teams, "shared", "none"]}
                      if any(len(ms) > 1 for ms in teams.values()) else None),
        "victory_types": dict(victories.most_common()),
        "length": {"mean": round(total_actions / n, 2), "min": lengths[0], "median": lengths[n // 2],
                   "max": lengths[-1]},
        "mean_scores": ({p: round(sum((r["scores"] or {}).get(p, 0) for r in results) / n, 4) for p in seated}
                        if any(r["scores"] for r in results) else None),
        "seconds": round(wall, 3), "games_per_second": round(n / wall, 2),
        "actions_per_second": round(total_actions / wall, 1), "workers": args.workers,
    }
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    from rich.table import Table

    console = _console()
    t = Table(title=f"{game.rules.title}: {n} games, agents {', '.join(agents)}, seeds {args.seed}..{args.seed + n - 1}")
    t.add_column("outcome")
    t.add_column("games", justify="right")
    t.add_column("rate", justify="right")
    if summary["mean_scores"]:
        t.add_column("mean score", justify="right")
    for k in [*seated, "shared", "none"]:
        extra = [str(summary["mean_scores"][k]) if k in seated else ""] if summary["mean_scores"] else []
        t.add_row(k, str(wins.get(k, 0)), f"{wins.get(k, 0) / n:.1%}", *extra)
    console.print(t)
    if summary["team_wins"]:
        tt = Table(title="wins by side")
        tt.add_column("side")
        tt.add_column("players")
        tt.add_column("games", justify="right")
        tt.add_column("rate", justify="right")
        for k, c in summary["team_wins"].items():
            tt.add_row(game.rules.display(k), ", ".join(teams.get(k, [])), str(c), f"{c / n:.1%}")
        console.print(tt)
    v = Table(title="victory types")
    v.add_column("type")
    v.add_column("games", justify="right")
    for k, c in victories.most_common():
        v.add_row(str(k), str(c))
    console.print(v)
    L = summary["length"]
    console.print(f"game length (actions): mean {L['mean']}, min {L['min']}, median {L['median']}, max {L['max']}")
    console.print(f"{summary['games_per_second']} games/s, {summary['actions_per_second']} actions/s "
                  f"({args.workers} worker(s), {wall:.1f} s)")
    return 0
