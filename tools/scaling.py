"""Weak scaling of `simulate`: the same work per worker (--games-per-worker games each) on 1, 2,
4, ... workers, with the process pool and with Ray; efficiency = T(1 worker) / T(W workers), 1.0
being perfect (the issue's target is 0.9 or more at the machine's core count).

    python tools/scaling.py [--game duel] [--agents random] [--games-per-worker 600]
                            [--workers 1,2] [--backends process,ray] [--repeat 3] [--json]

Each point is the median of --repeat runs. A run is timed as `simulate` times it: from the first
batch sent to the last result back, so the process pool's start (spawning its processes, each
loading the game) is inside the time, and so is Ray's task scheduling; starting Ray itself
(ray.init, once per number of workers) is not. A warm-up run first compiles the game into the
on-disk cache. The `start-up` column is the median time of a run of one game per worker (the
fixed cost of a run: for the pool, spawning and loading; one worker plays in the calling process
and has none); `steady` is the efficiency with each run's start-up taken out,
(T(1) - S(1)) / (T(W) - S(W)), what a run long enough to hide its start-up would reach.
`machine ceiling` is the same efficiency for pure CPU work in a pool started beforehand (no game,
no start-up, no results to send): 1.0 on idle cores, less when others share them. On a shared or
busy machine every figure moves from run to run: compare the efficiency with the ceiling measured
beside it, and read the load averages printed with them.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def measure(game, agents, games, workers, backend, seed=1):
    from interpreter.cli.simulate import simulate

    seeds = list(range(seed, seed + games))
    t0 = time.perf_counter()
    res = simulate(game, agents, seeds, {}, [], None, workers=workers, backend=backend)
    dt = time.perf_counter() - t0
    assert len(res) == games
    return dt


def _spin(n: int) -> int:
    """Pure CPU work, no memory traffic, no I/O: what a core gives at the moment."""
    x = 0
    for i in range(n):
        x = (x * 31 + i) % 1_000_003
    return x


def ceiling(workers: int, repeat: int, n: int = 2_000_000) -> float:
    """The efficiency the machine itself allows now: T(one process spinning) / T(`workers`
    processes spinning at once), in a pool started beforehand. 1.0 on idle cores; less when other
    work shares them (a shared machine), whatever our code does."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    if workers == 1:
        return 1.0
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as ex:
        list(ex.map(_spin, [1000] * workers))

        def run(k):
            t0 = time.perf_counter()
            list(ex.map(_spin, [n] * k))
            return time.perf_counter() - t0

        one = statistics.median(run(1) for _ in range(repeat))
        many = statistics.median(run(workers) for _ in range(repeat))
    return one / many


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="duel")
    ap.add_argument("--agents", default="random", help="one agent for every seat, or one per seat")
    ap.add_argument("--games-per-worker", type=int, default=600)
    ap.add_argument("--workers", default=None, help="comma-separated worker counts (default 1, 2, 4, ... up to the cores)")
    ap.add_argument("--backends", default="process,ray")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)

    from interpreter import load_game

    cores = os.cpu_count() or 1
    if a.workers:
        counts = [int(x) for x in a.workers.split(",")]
    else:
        counts, w = [], 1
        while w <= cores:
            counts.append(w)
            w *= 2
        if counts[-1] != cores:
            counts.append(cores)
    game = load_game(a.game)
    seated = game.seating(None)
    agents = a.agents.split(",")
    agents = agents * len(seated) if len(agents) == 1 else agents
    backends = [b for b in a.backends.split(",") if b]
    if "ray" in backends:
        try:
            import ray
        except ImportError:
            print("Ray is not installed: measuring the process pool only", file=sys.stderr)
            backends = [b for b in backends if b != "ray"]
    before = os.getloadavg() if hasattr(os, "getloadavg") else None
    measure(game, agents, min(50, a.games_per_worker), 1, "process")  # warm-up: the compiled game is cached
    rows = []
    for backend in backends:
        base = None
        for w in counts:
            if backend == "ray":
                import ray

                ray.init(num_cpus=w, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
                measure(game, agents, 2 * w, w, "ray")  # warm the workers (they load the game once)
            times = [measure(game, agents, a.games_per_worker * w, w, backend) for _ in range(a.repeat)]
            start = statistics.median(measure(game, agents, w, w, backend) for _ in range(a.repeat))
            if backend == "ray":
                ray.shutdown()
            t = statistics.median(times)
            ceil = ceiling(w, a.repeat)
            base = (t, start) if base is None else base
            rows.append({"backend": backend, "workers": w, "games": a.games_per_worker * w,
                         "seconds": round(t, 3), "runs": [round(x, 3) for x in times],
                         "games_per_second": round(a.games_per_worker * w / t, 1),
                         "efficiency": round(base[0] / t, 3), "start_up": round(start, 3),
                         "steady": round((base[0] - base[1]) / max(1e-9, t - start), 3),
                         "machine_ceiling": round(ceil, 3)})
            if not a.json:
                r = rows[-1]
                print(f"{backend:8s} {w:3d} workers  {r['games']:6d} games  {t:7.2f} s  "
                      f"{r['games_per_second']:8.1f} games/s  efficiency {r['efficiency']:.2f}  "
                      f"start-up {start:.2f} s  steady {r['steady']:.2f}  machine ceiling {ceil:.2f}  "
                      f"(runs {r['runs']})", flush=True)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None  # others' work shows here
    out = {"game": a.game, "agents": agents, "games_per_worker": a.games_per_worker, "cores": cores,
           "load_average_before": [round(x, 2) for x in before] if before else None,
           "load_average_after": [round(x, 2) for x in load] if load else None, "rows": rows}
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{cores} cores; load average (1, 5, 15 min) before the runs {out['load_average_before']}, "
              f"after {out['load_average_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
