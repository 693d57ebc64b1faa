"""Time random Duel playouts: the engine (games/duel run by interpreter/) against the
hand-written reference (tools/reference_duel.py), in the same process, interleaved.

    python tools/bench_reference.py [--games 200] [--rounds 3] [--seed 0] [--callgrind] [--json]

Both sides play the very same games: seed s, random.Random(s), and at each step the action
at the same random index of the legal actions (the two list them in the same order; the
script checks that both played the same number of actions and reached the same result).
A playout counts new_game (setup and dealing chapter 1) plus, per action, listing the legal
actions and applying one. The mean cost of a clone (states sampled from the playouts) is
shown too. Rounds alternate which side runs first; the figure per side is
its best round (this machine is shared), the median is shown too.

--callgrind also counts CPU instructions per action with valgrind's callgrind (if
installed): each side runs in a child process under callgrind twice, with --cg-games games
and with none (imports and loading only); the difference divided by the actions played is
the figure. Instruction counts do not depend on the machine's load, so they compare runs
made at different times. By hand:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python tools/bench_reference.py --child engine --games 20
    grep -E '^(summary|totals):' /tmp/cg.out
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))


def engine_playouts(game, seeds) -> tuple[int, list]:
    actions = 0
    results = []
    for seed in seeds:
        rnd = random.Random(seed)
        st = game.new_game(seed=seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[int(rnd.random() * len(legal))])
            actions += 1
        results.append((tuple(st.winners), st.victory))
    return actions, results


def reference_playouts(ref, seeds) -> tuple[int, list]:
    actions = 0
    results = []
    legal_actions, apply = ref.legal_actions, ref.apply
    for seed in seeds:
        rnd = random.Random(seed)
        s = ref.new_game(seed)
        while not s.over:
            legal = legal_actions(s)
            apply(s, legal[int(rnd.random() * len(legal))])
            actions += 1
        results.append((tuple(ref.winners(s)), ref.victory(s)))
    return actions, results


def clone_costs(game, ref, seeds, every: int = 7) -> dict:
    """Mean microseconds of one clone, over states sampled from the same playouts."""
    eng, mine = [], []
    for seed in seeds:
        rnd = random.Random(seed)
        st, s = game.new_game(seed=seed), ref.new_game(seed)
        i = 0
        while not st.is_terminal():
            if i % every == 0:
                eng.append(st)
                mine.append(s)
            legal = st.legal_actions()
            a = legal[int(rnd.random() * len(legal))]
            st.apply(a)
            ref.apply(s, a.id)
            i += 1
    eng, mine = [x.clone() for x in eng], [ref.clone(x) for x in mine]
    out = {}
    for name, states, f in (("engine", eng, lambda x: x.clone()), ("reference", mine, ref.clone)):
        best = None
        for _ in range(3):
            t = time.perf_counter()
            for x in states:
                f(x)
            dt = (time.perf_counter() - t) / len(states) * 1e6
            best = dt if best is None else min(best, dt)
        out[name] = round(best, 2)
    return out


def child(side: str, games: int, seed: int) -> None:
    """Run one side's playouts (for callgrind) and print the number of actions."""
    seeds = range(seed, seed + games)
    if side == "engine":
        from interpreter import load_game

        game = load_game("duel")
        for b in range(len(game.rules.blocks)):  # (read each block's and function's code now, with or
            game.rules.statement(b, 0)           # without games: a one-time cost of loading, cancelled
        for f in game.rules.functions.values():  # like the rest)
            if hasattr(f, "load"):
                f.load()
        n, _ = engine_playouts(game, seeds)
    else:
        import reference_duel as ref

        n, _ = reference_playouts(ref, seeds)
    print(n)


def _callgrind_total(side: str, games: int, seed: int) -> tuple[int, int]:
    from bench import callgrind_instructions

    total, out = callgrind_instructions([Path(__file__).resolve(), "--child", side, "--games", games,
                                         "--seed", seed])
    return total, int(out.strip().splitlines()[-1])


def callgrind(games: int, seed: int) -> dict:
    out = {}
    for side in ("engine", "reference"):
        full, actions = _callgrind_total(side, games, seed)
        base, _ = _callgrind_total(side, 0, seed)
        out[side] = {"games": games, "actions": actions, "instructions": full - base,
                     "instructions_per_action": round((full - base) / actions)}
    out["ratio"] = round(out["engine"]["instructions_per_action"] / out["reference"]["instructions_per_action"], 2)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--callgrind", action="store_true", help="also count instructions per action (valgrind)")
    ap.add_argument("--cg-games", type=int, default=20, help="games per side under callgrind")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", choices=["engine", "reference"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.games, args.seed)
        return 0

    from interpreter import load_game

    import reference_duel as ref

    game = load_game("duel")
    seeds = range(args.seed, args.seed + args.games)
    rates = {"engine": [], "reference": []}
    counted = {}
    for rnd in range(args.rounds):
        order = ("engine", "reference") if rnd % 2 == 0 else ("reference", "engine")
        for side in order:
            t = time.perf_counter()
            if side == "engine":
                n, results = engine_playouts(game, seeds)
            else:
                n, results = reference_playouts(ref, seeds)
            dt = time.perf_counter() - t
            rates[side].append(n / dt)
            counted[side] = (n, results)
        if not args.json:
            print(f"round {rnd + 1}: engine {rates['engine'][-1]:>9,.0f} actions/s   "
                  f"reference {rates['reference'][-1]:>9,.0f} actions/s   "
                  f"ratio {rates['reference'][-1] / rates['engine'][-1]:.2f}")
    same = counted["engine"] == counted["reference"]
    res = {
        "games": args.games,
        "actions_per_round": counted["engine"][0],
        "same_games": same,
        "engine_actions_per_s": round(max(rates["engine"])),
        "engine_actions_per_s_median": round(statistics.median(rates["engine"])),
        "reference_actions_per_s": round(max(rates["reference"])),
        "reference_actions_per_s_median": round(statistics.median(rates["reference"])),
    }
    res["reference_over_engine"] = round(res["reference_actions_per_s"] / res["engine_actions_per_s"], 2)
    res["clone_us"] = clone_costs(game, ref, range(args.seed, args.seed + min(args.games, 50)))
    if args.callgrind:
        if shutil.which("valgrind"):
            try:
                res["callgrind"] = callgrind(args.cg_games, args.seed)
            except RuntimeError as exc:
                res["callgrind"] = str(exc)
        else:
            res["callgrind"] = "valgrind is not installed"
    if args.json:
        print(json.dumps(res, indent=2))
        return 0 if same else 1
    print(f"{args.games} games x {args.rounds} rounds, {res['actions_per_round']} actions per round"
          f"{'' if same else '  (WARNING: the two sides played different games)'}")
    print(f"engine     {res['engine_actions_per_s']:>9,} actions/s (best; median "
          f"{res['engine_actions_per_s_median']:,})")
    print(f"reference  {res['reference_actions_per_s']:>9,} actions/s (best; median "
          f"{res['reference_actions_per_s_median']:,})")
    print(f"the reference is {res['reference_over_engine']:.2f}x the engine's speed")
    print(f"clone: engine {res['clone_us']['engine']} us, reference {res['clone_us']['reference']} us")
    cg = res.get("callgrind")
    if isinstance(cg, dict):
        print(f"callgrind ({args.cg_games} games): engine {cg['engine']['instructions_per_action']:,} "
              f"instructions/action, reference {cg['reference']['instructions_per_action']:,}; "
              f"engine/reference {cg['ratio']:.2f}")
    elif cg:
        print(f"callgrind: {cg}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
