"""War of the Ring: seeded random playouts with every invariant of tests/test_war_of_the_ring.py
checked after every action (the issue's full check), and the outcomes.

    python tools/wotr_playouts.py                    # 200 games, seeds 0..199, all cores
    python tools/wotr_playouts.py --games 50 --workers 1 --first-seed 1000
    python tools/wotr_playouts.py --strict           # check the KNOWN_BUGS invariants too
    python tools/wotr_playouts.py --fp runner        # Free Peoples who walk the Ring to Mordor
    python tools/wotr_playouts.py --option mordor_pool=rulebook --no-check
    python tools/wotr_playouts.py --rulebook         # every option set to 002's reading
    python tools/wotr_playouts.py --agents greedy:1 --games 50   # the game's default agent on both sides
    python tools/wotr_playouts.py --players 4 --games 50         # 3 or 4 players (wins per side)

Prints wins per side, victory types, the mean game length (actions and turns) and actions/s
(with the checks, unless --no-check), how many Event cards each side played and in how many
games each card was played (--cards), how many Combat cards each side used and how often each
of the 38 Combat titles was played (issue 14), and every game that broke an invariant or raised
an EngineError: seed, action index and the message. Exit status 1 if any did.
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
    """One game: {'seed', 'winner', 'victory', 'actions', 'turns', 'seconds', 'error', 'cards'}."""
    seed, options, check, strict, fp_policy, agents, players = task
    import random

    import test_war_of_the_ring as W

    game = _load()
    skip = frozenset() if strict else frozenset(W.KNOWN_BUGS)
    rng = random.Random(seed)
    runner = W._runner_policy(game) if fp_policy == "runner" else None
    seats = None
    if agents:
        from interpreter.agents import make_agent

        names = agents.split(",")
        order = game.seating(players)  # one agent for all seats, or one per seat in order
        names = names * len(order) if len(names) == 1 else names
        seats = {p: make_agent(names[i], seed + i) for i, p in enumerate(order)}
    t = time.perf_counter()
    n = 0
    st = None
    try:
        st = game.new_game(seed=seed, options=options, players=players)
        tr = W.Tracker(st) if check else None
        if check:
            W.invariants(st, tr, skip)
        while not st.is_terminal():
            if seats is not None:
                a = seats[st.current_player].act(st)
            elif runner is not None:
                a = runner(st, rng)
            else:
                a = rng.choice(st.legal_actions())
            st.apply(a)
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
    # the Event cards played in the game (they lie among the played cards or on a table)
    cards = [] if st is None else [c for z in ("played.free_peoples", "played.shadow", "table.free_peoples",
                                               "table.shadow") for c in st.zones[z]]
    # the Event cards used as Combat cards (discarded face up once their round is over)
    combat = [] if st is None else [c for z in ("combat_played.free_peoples", "combat_played.shadow")
                                    for c in st.zones[z]]
    # the side that won (with 3 or 4 players a side's seats win together)
    side = None
    if st is not None and st.winners:
        side = next((t for t, ms in st.rules.teams_of(st.seats).items() if st.winners[0] in ms), st.winners[0])
    return {"seed": seed, "winner": side,
            "victory": st.victory if st is not None else None, "actions": n,
            "turns": st.vars.get("turn_no") if st is not None else None,
            "seconds": time.perf_counter() - t, "error": error, "cards": cards, "combat": combat,
            "played": {side: st.vars.get(f"played_count.{side}") for side in ("free_peoples", "shadow")}
            if st is not None else {}}


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
    ap.add_argument("--agents", default=None,
                    help="agents instead of random play: one for both sides or two (FP,Shadow), e.g. greedy:1")
    ap.add_argument("--cards", action="store_true", help="print in how many games each card was played")
    ap.add_argument("--players", type=int, default=None, help="2 (default), 3 or 4 players")
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    if args.rulebook:
        opts = _load().rules.options
        options = {**{k: "rulebook" for k, o in opts.items() if "rulebook" in (o.get("choices") or ())}, **options}
    options = options or None

    import test_war_of_the_ring as W

    tasks = [(s, options, not args.no_check, args.strict, args.fp, args.agents, args.players)
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
    who = f"agents {args.agents}" if args.agents else f"Free Peoples {args.fp}, Shadow random"
    print(f"War of the Ring, {args.players or 2} players: {len(results)} games (seeds {args.first_seed}..{args.first_seed + args.games - 1}), "
          f"{who}, options {options or 'default'}")
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
    if done:
        per_side = {side: statistics.mean(r["played"].get(side) or 0 for r in done) for side in ("free_peoples", "shadow")}
        games_with = Counter(c for r in done for c in set(r["cards"]))
        print(f"cards played:   {per_side['free_peoples']:.1f} by the Free Peoples, {per_side['shadow']:.1f} by the "
              f"Shadow per game; {len(games_with)} of 96 cards played at least once")
        if args.cards:
            every = sorted(_load().rules.item_type_of)
            cards = [c for c in every if _load().rules.item_type_of[c] == "event_card"]
            for c in sorted(cards, key=lambda c: (-games_with[c], c)):
                print(f"  {games_with[c]:4d} games  {c}")
    if done:
        _combat_report(done)
    for r in failed:
        print(f"FAILED seed {r['seed']}: {r['error']}")
    return 1 if failed else 0


def _combat_report(done):
    """How many Combat cards each side used per game, and each Combat title: how many times it
    was played in all the games and in how many games (the titles of FACTS 6.4, from the cards)."""
    rules = _load().rules
    cards = [c for c, t in rules.item_type_of.items() if t == "event_card"]
    title = {c: rules.props[c]["combat"] for c in cards}
    side = {c: ("free_peoples" if rules.start_zone[c].startswith("deck.fp_") else "shadow") for c in cards}
    per_side = Counter(side[c] for r in done for c in r["combat"])
    times = Counter(title[c] for r in done for c in r["combat"])
    games = Counter(t for r in done for t in {title[c] for c in r["combat"]})
    print(f"combat cards:   {per_side['free_peoples'] / len(done):.1f} by the Free Peoples, "
          f"{per_side['shadow'] / len(done):.1f} by the Shadow per game; "
          f"{len(times)} of {len(set(title.values()))} Combat titles played")
    for t in sorted(set(title.values()), key=lambda t: (-times[t], t)):
        who = "FP" if side[next(c for c in cards if title[c] == t)] == "free_peoples" else "SH"
        print(f"  {times[t]:5d} times in {games[t]:4d} games  {who}  {t}")


if __name__ == "__main__":
    sys.exit(main())
