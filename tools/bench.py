"""Benchmark the engine on one game: cold load, random playouts, clone, legal actions, JSON.

    python tools/bench.py [GAME] [--mod M ...] [--option name=value ...] [--games N] [--seed S] [--json]
    python tools/bench.py GAME --compare COMMIT [--rounds R]   # speed against another commit
    python tools/bench.py GAME --compare COMMIT --callgrind [--cg-games N]   # ... in CPU instructions
    python tools/bench.py GAME --load-instructions [--compare COMMIT]   # a first load's instructions

Figures (one core, this process):
  load+validate   a fresh interpreter process loading and checking the rule files: "first"
                  with empty caches, "cold" with the parse/validation caches of an earlier load
  playouts        random agents: games/s and actions/s (legal_actions + apply per action)
  clone           mean cost of state.clone() over states sampled from playouts
  legal_actions   mean cost of enumerating legal actions from scratch (cache cleared)
  apply           mean cost of one apply: running the rules to the next decision, and
                  listing the legal actions there (apply checks some action is legal)
  to_json/from    mean cost of a save and a restore
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cold_load(game: str, mods=(), runs: int = 5, fresh_cache: bool = False, second: bool = False) -> float:
    """Median wall time of load_game in a fresh process (import of the package excluded), in ms.

    fresh_cache: with an empty cache directory (first load ever: parse every effect, validate
    every file); second: the load after such a first one (which is not timed), in the caches
    it left; otherwise with the caches previous loads left."""
    import os
    import tempfile

    code = ("import time,sys; sys.path.insert(0, %r); import interpreter; t=time.perf_counter(); "
            "interpreter.load_game(%r, mods=%r); print((time.perf_counter()-t)*1000)" % (str(ROOT), game, list(mods)))
    times = []
    for _ in range(runs):
        # (as a user's Python runs: writing and reading .pyc files of the libraries a load imports)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        with tempfile.TemporaryDirectory() as tmp:
            if fresh_cache or second:
                env["XDG_CACHE_HOME"] = tmp
            if second:
                subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
        times.append(float(out.stdout.strip()))
    return statistics.median(times)


PLAYOUT = r"""
import json, random, sys, time
sys.path.insert(0, %r)
from interpreter import load_game
g = load_game(%r, mods=%r)
def play(seeds):
    rng = random.Random(1); n = 0
    for s in seeds:
        st = g.new_game(seed=s)
        while not st.over:
            a = st.legal_actions(); st.apply(a[rng.randrange(len(a))]); n += 1
    return n
play(range(10**6, 10**6 + %d))  # warm-up, untimed: a game's blocks are compiled when first run
t = time.perf_counter()
n = play(range(1, 1 + %d))
print(json.dumps({"actions": n, "seconds": time.perf_counter() - t}))
"""

WARM_UP = 3  # games each process plays before the timed ones (PLAYOUT)
MIN_SECONDS = 1.0  # --compare plays more games than asked when they would take less than this


@contextlib.contextmanager
def worktree(ref: str):
    """(short sha, folder) of another commit checked out in a temporary git worktree, removed after."""
    import shutil
    import tempfile

    sha = subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix=f"lotr-bench-{sha}-"))
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tmp), sha], cwd=ROOT, check=True)
    try:
        yield sha, tmp
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tmp)], cwd=ROOT)
        shutil.rmtree(tmp, ignore_errors=True)


def callgrind_instructions(argv: list, fresh_cache: bool = False) -> tuple:
    """(CPU instructions, standard output) of `python argv...` run under valgrind's callgrind:
    a count that does not depend on how busy the machine is (the child's hash seed is fixed,
    or two runs differ by a few hundred thousand). The same child is first run twice without
    valgrind, so that the caches it leaves (the chunks it compiles, kept at its exit) are there
    before anything is counted; with fresh_cache, each run has an empty cache directory of its
    own (a first load), and the runs before write only the .pyc files of what it imports. RuntimeError if the child
    fails."""
    import os
    import re
    import tempfile

    cmd = [sys.executable, *map(str, argv)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if fresh_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(2):
        with tempfile.TemporaryDirectory() as cache:
            subprocess.run(cmd, capture_output=True, env={**env, "XDG_CACHE_HOME": cache} if fresh_cache else env)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        if fresh_cache:
            env["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        res = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                             capture_output=True, text=True, env=env)
        if res.returncode != 0:
            tail = " | ".join(res.stderr.strip().splitlines()[-3:])
            raise RuntimeError(f"{Path(cmd[1]).name} {' '.join(cmd[2:])} failed under callgrind: {tail}")
        m = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.M)
        if not m:
            raise RuntimeError("no instruction total in callgrind's output")
        return int(m.group(1)), res.stdout


def compare(game: str, ref: str, games: int, rounds: int, mods=()) -> dict:
    """Random playouts of this checkout and of another commit (a temporary git worktree),
    interleaved in fresh processes: actions/s of each and their ratio (this machine is shared:
    only the ratio, measured in the same minutes, means much). Each process plays WARM_UP
    games untimed first; a batch shorter than MIN_SECONDS is made longer (same seeds for both)."""
    with worktree(ref) as (sha, tmp):
        rates = {"this": [], sha: []}

        def run(name, tree, n, warm=WARM_UP):
            out = subprocess.run([sys.executable, "-c", PLAYOUT % (str(tree), game, list(mods), warm, n)],
                                 capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(f"{name}: {out.stderr.strip().splitlines()[-1]}")
            return json.loads(out.stdout)

        for name, tree in (("this", ROOT), (sha, tmp)):  # (each tree's caches made first: loads are timed apart, by cold_load)
            run(name, tree, 0, 0)
        first = run("this", ROOT, games)  # too short a batch measures the clock: a small game plays more
        if first["seconds"] < MIN_SECONDS:
            games = math.ceil(games * MIN_SECONDS / max(first["seconds"], 1e-3))
        for _ in range(rounds):
            for name, tree in (("this", ROOT), (sha, tmp)):
                r = run(name, tree, games)
                rates[name].append(r["actions"] / r["seconds"])
        this, old = statistics.median(rates["this"]), statistics.median(rates[sha])
        return {"game": game, "compared_with": sha, "rounds": rounds, "games": games,
                "actions_per_s_this": round(this), f"actions_per_s_{sha}": round(old), "ratio": round(this / old, 3)}


def compare_instructions(game: str, ref: str, games: int, mods=()) -> dict:
    """CPU instructions per action of random playouts (the same seeds) of this checkout and of
    another commit, counted by callgrind (callgrind_instructions): the same comparison as
    `compare`, in a figure that does not depend on how busy the machine is. Each side's count
    is that of `games` playouts less that of none (the load and the warm-up games)."""
    with worktree(ref) as (sha, tmp):
        per = {}
        for name, tree in (("this", ROOT), (sha, tmp)):
            counts = []
            for n in (games, 0):
                script = PLAYOUT % (str(tree), game, list(mods), WARM_UP, n)
                total, out = callgrind_instructions(["-c", script])
                counts.append((total, json.loads(out)["actions"]))
            (full, actions), (base, _) = counts
            per[name] = round((full - base) / actions)
        return {"game": game, "compared_with": sha, "games": games, "instructions_per_action_this": per["this"],
                f"instructions_per_action_{sha}": per[sha], "ratio": round(per[sha] / per["this"], 3)}


LOAD = "import sys; sys.path.insert(0, %r); import interpreter\nif %r: interpreter.load_game(%r, mods=%r)"


def load_instructions(game: str, ref: str | None = None, mods=()) -> dict:
    """CPU instructions of a first load (empty caches) of this checkout, and of another commit
    with ref: a process that loads the game, less one that only imports the package."""
    def count(tree):
        full, base = (callgrind_instructions(["-c", LOAD % (str(tree), load, game, list(mods))], fresh_cache=True)[0]
                      for load in (True, False))
        return full - base

    res = {"game": game, "first_load_instructions_this": count(ROOT)}
    if ref:
        with worktree(ref) as (sha, tmp):
            res["compared_with"] = sha
            res[f"first_load_instructions_{sha}"] = count(tmp)
            res["ratio"] = round(res[f"first_load_instructions_{sha}"] / res["first_load_instructions_this"], 3)
    return res


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="duel")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--mod", action="append", default=[])
    ap.add_argument("--option", action="append", default=[], help="name=value (a YAML scalar)")
    ap.add_argument("--compare", metavar="COMMIT", help="compare playout speed with another commit, "
                    "interleaved in fresh processes (prints the ratio)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of --compare (default 5)")
    ap.add_argument("--callgrind", action="store_true", help="with --compare: CPU instructions per action "
                    "instead of time (valgrind; the ratio is theirs over ours)")
    ap.add_argument("--cg-games", type=int, default=20, help="games per side under --callgrind (default 20)")
    ap.add_argument("--load-instructions", action="store_true", help="CPU instructions of a first load "
                    "(empty caches; valgrind), and of --compare COMMIT's")
    args = ap.parse_args(argv)
    if args.load_instructions:
        if args.callgrind:
            ap.error("--load-instructions counts a load, --callgrind playouts: give one of them")
        res = load_instructions(args.game, args.compare, args.mod)
        line = f"{res['game']}: first load {res['first_load_instructions_this'] / 1e6:,.0f} M instructions"
        if args.compare:
            old = res["compared_with"]
            line += f", {old} {res['first_load_instructions_' + old] / 1e6:,.0f} M: {res['ratio']}x fewer"
        print(json.dumps(res, indent=1) if args.json else line)
        return
    if args.callgrind and not args.compare:
        ap.error("--callgrind counts instructions against another commit: give --compare COMMIT")
    if args.compare and args.callgrind:
        res = compare_instructions(args.game, args.compare, args.cg_games, args.mod)
        old = res["compared_with"]
        print(json.dumps(res, indent=1) if args.json else
              f"{res['game']}: this checkout {res['instructions_per_action_this']:,} instructions/action, {old} "
              f"{res['instructions_per_action_' + old]:,}: {res['ratio']}x fewer")
        return
    if args.compare:
        res = compare(args.game, args.compare, min(args.games, 100), args.rounds, args.mod)
        old = res["compared_with"]
        print(json.dumps(res, indent=1) if args.json else
              f"{res['game']}: this checkout {res['actions_per_s_this']} actions/s, {old} "
              f"{res['actions_per_s_' + old]} actions/s: ratio {res['ratio']}")
        return
    import yaml

    options = {k: yaml.safe_load(v) for k, _, v in (o.partition("=") for o in args.option)}

    from interpreter import load_game

    res = {"game": args.game, "mods": args.mod, "options": options, "python": sys.version.split()[0]}
    res["load_validate_ms_first"] = round(cold_load(args.game, args.mod, fresh_cache=True), 1)
    res["load_validate_ms_cold"] = round(cold_load(args.game, args.mod), 1)
    t = time.perf_counter()
    game = load_game(args.game, mods=args.mod)
    res["load_validate_ms_warm"] = round((time.perf_counter() - t) * 1000, 1)

    # Playouts in 3 rounds over the same seeds; this machine is shared, so the best round is
    # the figure (the median is shown too).
    rates, grates = [], []
    for rnd in range(3):
        rng = random.Random(args.seed)
        samples = []
        actions = 0
        t = time.perf_counter()
        for s in range(args.seed, args.seed + args.games):
            st = game.new_game(seed=s, options=options)
            while not st.over:
                acts = st.legal_actions()
                st.apply(acts[rng.randrange(len(acts))])
                actions += 1
                if rng.random() < 0.02:
                    samples.append(st.clone())
        dt = time.perf_counter() - t
        rates.append(actions / dt)
        grates.append(args.games / dt)
    res["games"] = args.games
    res["games_per_s"] = round(max(grates), 1)
    res["actions_per_s"] = round(max(rates))
    res["actions_per_s_median"] = round(statistics.median(rates))
    res["actions_per_game"] = round(actions / args.games, 1)

    samples = [s for s in samples if not s.over][:400]

    def best(fn, n):
        out = []
        for _ in range(3):
            t = time.perf_counter()
            fn()
            out.append((time.perf_counter() - t) / n * 1e6)
        return round(min(out), 2)

    def clones():
        for _ in range(50):
            for s in samples:
                s.clone()
    res["clone_us"] = best(clones, 50 * len(samples))

    def legal():
        for _ in range(10):
            for s in samples:
                s._legal = None  # enumerate from scratch (memoised game functions stay warm)
                s.legal_actions()
    res["legal_actions_us"] = best(legal, 10 * len(samples))

    def applies():
        copies = [(s.clone(), s.legal_actions()) for s in samples for _ in range(3)]
        t = time.perf_counter()
        for c, acts in copies:
            c.apply(acts[rng.randrange(len(acts))])
        return time.perf_counter() - t
    res["apply_us"] = round(min(applies() for _ in range(3)) / (3 * len(samples)) * 1e6, 2)

    t = time.perf_counter()
    texts = [s.to_json() for s in samples]
    res["to_json_us"] = round((time.perf_counter() - t) / len(samples) * 1e6, 1)
    t = time.perf_counter()
    for x in texts:
        game.state_from_json(x)
    res["from_json_us"] = round((time.perf_counter() - t) / len(samples) * 1e6, 1)

    if args.json:
        print(json.dumps(res, indent=1))
    else:
        w = max(map(len, res))
        for k, v in res.items():
            print(f"{k:<{w}}  {v}")


if __name__ == "__main__":
    main()
