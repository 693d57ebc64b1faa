"""War of the Ring: seeded random playouts with every invariant of tests/test_war_of_the_ring.py
checked after every action (the issue's full check), and the outcomes.

    python tools/wotr_playouts.py                    # 200 games, seeds 0..199, all cores
    python tools/wotr_playouts.py --games 50 --workers 1 --first-seed 1000
    python tools/wotr_playouts.py --strict           # check the KNOWN_BUGS invariants too
    python tools/wotr_playouts.py --fp runner        # Free Peoples who walk the Ring to Mordor
    python tools/wotr_playouts.py --option mordor_pool=rulebook --no-check
    python tools/wotr_playouts.py --rulebook         # every option set to 002's reading

Prints wins per side, victory types, the mean game length (actions and turns) and actions/s
(with the checks, unless --no-check), and every game that broke an invariant or raised an
EngineError: seed, action index and the message. Exit status 1 if any did.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

_game = None


def _load():
    global _game
    if _game is None:
        from interpreter import load_game

        _game = load_game("war-of-the-ring")
    return _game


def play_one(task):
    """One game: {'seed', 'winner', 'victory', 'actions', 'turns', 'seconds', 'error'}."""
    seed, options, check, strict, fp_policy = task
    import random

    import test_war_of_the_ring as W

    game = _load()
    skip = frozenset() if strict else frozenset(W.KNOWN_BUGS)
    rng = random.Random(seed)
    runner = W._runner_policy(game) if fp_policy == "runner" else None
    t = time.perf_counter()
    n = 0
    st = None
    try:
        st = game.new_game(seed=seed, options=options)
        tr = W.Tracker(st) if check else None
        if check:
            W.invariants(st, tr, skip)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply(runner(st, rng) if runner else rng.choice(acts))
            n += 1
            if check:
                W.invariants(st, tr, skip)
            if n >= W.ACTION_CAP:
                raise AssertionError(f"no end after {n} actions")
        if check:
            W.final_checks(st)
        error = None
    except Exception as exc:  # an invariant (AssertionError) or the engine (EngineError)
        last = st.history[-1] if st is not None and st.history else None
        error = f"{type(exc).__name__} after action {n} ({last}): {exc}"
        if not isinstance(exc, AssertionError):
            error += "\n" + "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return {"seed": seed, "winner": st.winners[0] if st is not None and st.winners else None,
            "victory": st.victory if st is not None else None, "actions": n,
            "turns": st.vars.get("turn_no") if st is not None else None,
            "seconds": time.perf_counter() - t, "error": error}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--option", action="append", default=[], help="name=value, a game option")
    ap.add_argument("--rulebook", action="store_true",
                    help="every option offering 'rulebook' (002's reading) set to it")
    ap.add_argument("--no-check", action="store_true", help="play without the invariant checks")
    ap.add_argument("--strict", action="store_true", help="check the KNOWN_BUGS invariants too")
    ap.add_argument("--fp", choices=["random", "runner"], default="random",
                    help="the Free Peoples' play: random, or walking the Ring to Mordor")
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    if args.rulebook:
        opts = _load().rules.options
        options = {**{k: "rulebook" for k, o in opts.items() if "rulebook" in (o.get("choices") or ())}, **options}
    options = options or None

    import test_war_of_the_ring as W

    tasks = [(s, options, not args.no_check, args.strict, args.fp)
             for s in range(args.first_seed, args.first_seed + args.games)]
    t0 = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            results = list(ex.map(play_one, tasks, chunksize=max(1, len(tasks) // (4 * args.workers))))
    else:
        results = [play_one(t) for t in tasks]
    wall = time.perf_counter() - t0

    failed = [r for r in results if r["error"]]
    done = [r for r in results if not r["error"]]
    wins = Counter(r["winner"] for r in done)
    kinds = Counter(f"{r['winner']}/{r['victory']}" for r in done)
    actions = sum(r["actions"] for r in results)
    busy = sum(r["seconds"] for r in results)
    print(f"War of the Ring: {len(results)} games (seeds {args.first_seed}..{args.first_seed + args.games - 1}), "
          f"Free Peoples {args.fp}, Shadow random, options {options or 'default'}")
    if args.no_check:
        print("invariants: not checked")
    else:
        skipped = ""
        if W.KNOWN_BUGS and not args.strict:
            skipped = f" (known bugs not checked: {', '.join(sorted(W.KNOWN_BUGS))})"
        print(f"invariants checked after every action{skipped}: "
              f"{len(done)} games kept them all, {len(failed)} broke one or raised")
    print(f"wins per side:  {dict(wins)}")
    print(f"victory types:  {dict(kinds)}  (ring victories: {sum(1 for r in done if r['victory'] == 'ring')})")
    if done:
        print(f"game length:    {statistics.mean(r['actions'] for r in done):.0f} actions "
              f"(min {min(r['actions'] for r in done)}, max {max(r['actions'] for r in done)}), "
              f"{statistics.mean(r['turns'] for r in done):.1f} turns "
              f"(min {min(r['turns'] for r in done)}, max {max(r['turns'] for r in done)})")
    checks = "" if args.no_check else " with the checks"
    print(f"speed:          {actions / busy:.0f} actions/s per worker{checks}, "
          f"{len(results) / wall:.2f} games/s on {args.workers} worker(s), {wall:.1f} s wall")
    for r in failed:
        print(f"FAILED seed {r['seed']}: {r['error']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
