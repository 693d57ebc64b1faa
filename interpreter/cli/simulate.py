"""`lotr-rules simulate GAME`: many games between agents; win rates, victory types, game length,
speed, and with --stats the balance statistics of cli/stats.py.

Where the games run (--backend): `process` (the default) plays batches of seeds in a pool of
--workers processes (one: in this process); `ray` sends the same batches to Ray as tasks, on a
local Ray started for the run (--workers CPUs, every core by default) or on the cluster at
--address (checked first: a bad or silent address is a usage error, not minutes of retries). A batch of seeds is
the unit of work and each worker keeps its loaded game, so the per-task cost of either backend is
small beside a batch; only the results travel back. A game's seed fixes its dice, its shuffles
and its agents' seeds, so every backend and every number of workers gives the same games.
"""
from __future__ import annotations

import json
import os
import socket
import sys
import time
from collections import Counter
from pathlib import Path

from .common import UsageError, agent_names, console as _console, load, options as _options, seats, writable_file

_LOADED: dict = {}  # a worker process's loaded games, kept between its batches
_IN_WORKER = False  # set in pool and Ray workers: this process plays batches only
ADDRESS_TIMEOUT = 3.0  # seconds a Ray --address has to answer


def add_arguments(p) -> None:
    """The arguments of `simulate` (cli/__init__.py adds --option, --players and --mod)."""
    p.add_argument("game")
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--agents", help="one per seat, or one for all: random, greedy, mcts, ismcts, greedy:DEPTH, "
                                    "mcts:ITERATIONS, ismcts:ITERATIONS (default: the game's default agent, else random)")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    p.add_argument("--workers", type=int,
                   help="processes to play in (default 1), or CPUs of the local Ray (default: all cores)")
    p.add_argument("--backend", choices=["process", "ray"], default="process",
                   help="process: a local pool of processes (default); ray: Ray tasks (pip install 'lotr-rules[ray]')")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: a Ray cluster to join (auto, HOST:PORT or ray://HOST:PORT); "
                        "default: start a local Ray for this run")
    p.add_argument("--stats", action="store_true",
                   help="balance statistics: items and choices per side, with win rates and intervals; "
                        "game length; first-mover advantage")
    p.add_argument("--top", type=int, default=20, help="with --stats: rows shown per table (default 20)")
    p.add_argument("--csv", metavar="FILE", help="write the balance statistics as CSV (implies --stats)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw win rates, the game-length histogram and the most played items "
                        "(implies --stats; pip install 'lotr-rules[plot]')")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--progress", action="store_true", help="show the progress bar even without a terminal")


def _loaded(game_name, mods):
    """The game, loaded once per worker process (in the calling process: loaded afresh, as rule
    files may change between two runs of a long-lived process)."""
    from .. import load_game

    if not _IN_WORKER:
        return load_game(game_name, mods=mods)
    key = (game_name, tuple(mods or ()))
    g = _LOADED.get(key)
    if g is None:
        g = _LOADED[key] = load_game(game_name, mods=mods)
    return g


def _mark_worker():
    global _IN_WORKER
    _IN_WORKER = True


def _ray_batch(task):
    _mark_worker()
    return _sim_batch(task)


def _sim_batch(task):
    """Play a batch of seeds in one worker; only the results travel back (without timings, so
    that every backend returns the same)."""
    game_name, agents, seeds, agent_seed, options, mods, players = task[:7]
    want_stats = len(task) > 7 and task[7]
    from ..agents import make_agent
    from .playout import playout

    game = _loaded(game_name, mods)
    out = []
    seated = game.seating(players)
    for seed in seeds:
        seat = {p: make_agent(a, seed * 7919 + agent_seed + i) for i, (p, a) in enumerate(zip(seated, agents))}
        rec = None
        if want_stats:
            from .stats import Recorder

            rec = Recorder(game, players)
        res = playout(game, seat, seed, options, players, on_action=rec)
        del res["state"]
        del res["seconds"]
        if rec is not None:
            res["stats"] = rec.result()
        out.append(res)
    return out


def _run_process(tasks, workers, advance):
    out = []
    if workers > 1:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn"), initializer=_mark_worker) as ex:
            for res in ex.map(_sim_batch, tasks):
                out.append(res)
                advance(len(res))
    else:  # in this process: the game is loaded once for the run, and forgotten after it
        global _IN_WORKER
        was = _IN_WORKER
        _IN_WORKER = True
        try:
            for task in tasks:
                res = _sim_batch(task)
                out.append(res)
                advance(len(res))
        finally:
            _IN_WORKER = was
            if not was:
                _LOADED.clear()
    return out


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def check_backend(backend: str, address, workers) -> int:
    """Check --backend, --address and --workers before anything runs; the number of workers
    (default: 1 process, or every local core for a local Ray)."""
    if workers is None:
        workers = (os.cpu_count() or 1) if backend == "ray" else 1
    if workers < 1:
        raise UsageError(f"--workers must be 1 or more, not {workers}")
    if address is not None and backend != "ray":
        raise UsageError("--address is for --backend ray")
    if backend == "ray" and not ray_available():
        raise UsageError("--backend ray needs Ray: pip install 'lotr-rules[ray]'")
    if address is not None:
        check_address(address)
    return workers


def check_address(address: str) -> None:
    """--address is `auto` (the cluster this machine is in), HOST:PORT (a head node's GCS port) or
    ray://HOST:PORT (Ray Client). A HOST:PORT must answer within a few seconds: Ray itself would
    retry for minutes, printing warnings."""
    text = str(address).strip()
    if text == "auto":
        return
    scheme, sep, rest = text.partition("://")
    if not sep:
        rest = text
    elif scheme != "ray":
        raise UsageError(f"--address {address!r}: write auto, HOST:PORT or ray://HOST:PORT")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--address {address!r}: write auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host, int(port)), timeout=ADDRESS_TIMEOUT).close()
    except OSError as exc:
        raise UsageError(f"--address {address!r}: no Ray answers there "
                         f"({exc.strerror or type(exc).__name__})") from None


def check_output(path, what: str, plot: bool = False) -> None:
    """An output file can be written where asked, checked before any game is played."""
    if path is None:
        return
    writable_file(path, what)
    folder = Path(path).parent
    if not folder.is_dir():
        raise UsageError(f"{what} {path!r}: {str(folder)!r} is not a folder")
    if not os.access(folder, os.W_OK) or (Path(path).exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{what} {path!r} cannot be written (permission denied)")
    if plot:
        try:
            from matplotlib.figure import Figure
        except ImportError:
            raise UsageError(f"{what} needs matplotlib: pip install 'lotr-rules[plot]'") from None
        kinds = Figure().canvas.get_supported_filetypes()
        suffix = Path(path).suffix.lower().lstrip(".")
        if suffix and suffix not in kinds:
            raise UsageError(f"{what} {path!r}: matplotlib cannot write .{suffix} files; "
                             f"use one of {', '.join('.' + k for k in sorted(kinds))}")


def _run_ray(tasks, workers, address, advance):
    """The batches as Ray tasks; results in task order whatever order they finish in. A Ray
    already started in this process (ray.init) is used as it is; else one is started for the
    run (local with `workers` CPUs, or joining `address`) and shut down after."""
    if not ray_available():
        raise UsageError("--backend ray needs Ray: pip install 'lotr-rules[ray]'")
    import ray

    started = False
    if not ray.is_initialized():
        kw = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
        if address:
            kw["address"] = address
        else:
            kw["num_cpus"] = workers
        try:
            ray.init(**kw)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise UsageError(f"cannot start or reach Ray{' at ' + address if address else ''}: "
                             f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=1)(_ray_batch)
        refs = [remote.remote(t) for t in tasks]
        index = {r: i for i, r in enumerate(refs)}
        out = [None] * len(refs)
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for r in ready:
                try:
                    res = ray.get(r)
                except ray.exceptions.RayTaskError as exc:  # the worker's own error (a rule failing)
                    cause = getattr(exc, "cause", None)
                    raise (cause if isinstance(cause, Exception) else RuntimeError(str(exc).splitlines()[0])) from None
                out[index[r]] = res
                advance(len(res))
        return out
    finally:
        if started:
            ray.shutdown()


def make_tasks(game, agents, seeds, options, mods, players, workers=1, stats=False) -> list:
    """Batches of seeds for one line-up of agents (one per seat). A game's agents are seeded from
    its seed and the first seed of the run, as they always were."""
    batch = max(1, min(50, len(seeds) // max(1, workers * 4)))
    first = seeds[0] if seeds else 0
    return [(str(game.rules.root), list(agents), seeds[i:i + batch], first, options, list(mods), players, stats)
            for i in range(0, len(seeds), batch)]


def run_tasks(tasks, workers=1, backend="process", address=None, advance=lambda n: None) -> list:
    """Each task's results (a list per task, in task order), on the backend asked for."""
    if backend == "ray":
        return _run_ray(tasks, workers, address, advance)
    return _run_process(tasks, workers, advance)


def simulate(game, agents, seeds, options, mods, players, workers=1, backend="process", address=None,
             stats=False, advance=lambda n: None) -> list:
    """Play the games of `seeds` and return their results in seed order (each: seed, winners,
    victory, scores, actions; with stats, what each side did)."""
    tasks = make_tasks(game, agents, seeds, options, mods, players, workers, stats)
    return [r for batch in run_tasks(tasks, workers, backend, address, advance) for r in batch]


def run(args) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    backend = getattr(args, "backend", "process") or "process"
    address = getattr(args, "address", None)
    csv_path, plot_path = getattr(args, "csv", None), getattr(args, "plot", None)
    want_stats = bool(getattr(args, "stats", False) or csv_path or plot_path)
    top = getattr(args, "top", 20)
    game = load(args.game, mods=args.mod)
    seated = seats(game, args.players)
    if args.games < 1:
        raise UsageError(f"--games must be 1 or more, not {args.games}")
    workers = check_backend(backend, address, args.workers)
    if top < 1:
        raise UsageError(f"--top must be 1 or more, not {top}")
    check_output(csv_path, "--csv")
    check_output(plot_path, "--plot", plot=True)
    agents = agent_names(game, args.agents or game.rules.default_agents or "random", seated)
    options = _options(game, args.option)
    try:
        game.new_game(seed=args.seed, options=options, players=args.players)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    seeds = list(range(args.seed, args.seed + args.games))
    t0 = time.perf_counter()
    show = not args.json and sys.stderr.isatty() or args.progress
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=_console(stderr=True), disable=not show) as prog:
        job = prog.add_task("games", total=len(seeds))
        results = simulate(game, agents, seeds, options, args.mod, args.players, workers, backend, address,
                           want_stats, advance=lambda k: prog.update(job, advance=k))
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
        "actions_per_second": round(total_actions / wall, 1), "workers": workers, "backend": backend,
    }
    stats = None
    if want_stats:
        from . import stats as stats_mod

        stats = stats_mod.aggregate(results, game, args.players)
        summary["stats"] = stats
        if csv_path:
            _write(lambda: stats_mod.write_csv(stats, csv_path), csv_path)
        if plot_path:
            title = f"{game.rules.title}: {n} games, {', '.join(agents)}, seeds {args.seed}..{args.seed + n - 1}"
            _write(lambda: stats_mod.plot(stats, lengths, plot_path, title), plot_path)
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
                  f"({workers} worker(s), {backend}, {wall:.1f} s)")
    if stats is not None:
        from .stats import print_stats

        print_stats(stats, console, f"balance statistics of {game.rules.title}", top)
        for path, what in ((csv_path, "CSV"), (plot_path, "plot")):
            if path:
                console.print(f"{what} written to {path}")
    return 0


def _write(fn, path):
    try:
        fn()
    except OSError as exc:
        raise UsageError(f"cannot write {path!r}: {exc.strerror or exc}") from None
