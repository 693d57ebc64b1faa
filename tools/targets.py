"""Every speed target of the engine in one run, as one table: what it is now, the goal, met or not.

    python tools/targets.py [--baseline COMMIT] [--rounds N] [--quick] [--json]

The targets are those of the engine's redesign (issue 16); each figure comes from the tool
that measures it, run here as a child process so that one failing tool leaves the others:

  Duel, War of the Ring playouts   tools/bench.py GAME --compare BASELINE: random playouts of
                                   this checkout and of the baseline commit, interleaved in
                                   fresh processes; the ratio of their actions/s (goal >= 2)
  War of the Ring clone            state.clone() over states sampled from the same playouts,
                                   this checkout and the baseline interleaved (goal <= 0.5)
  Duel instructions per action     tools/bench_reference.py --callgrind: the engine against the
                                   hand-written reference Duel (goal <= 1.5; needs valgrind)
  tic-tac-toe, Kuhn poker          tools/bench_vs_openspiel.py: playouts/s of our YAML games over
                                   OpenSpiel's Python games (goal >= 1.5; needs open_spiel), and
                                   beside it their instructions per playout over ours (valgrind)
  first load, empty caches         a fresh process loading the game with an empty cache directory
                                   (parse, check, write and compile its module; goal < 300 ms);
                                   beside it its CPU instructions and the baseline's (valgrind)
  load with caches                 a fresh process loading it again (goal < 80 ms): the load
                                   right after a first one, and a load among later ones

This machine is shared and its speed varies from minute to minute: only ratios measured side
by side in the same minutes, and instruction counts, mean much. --quick runs fewer rounds
(a first look, not a figure to report).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

BASELINE = "80fca1a"  # the engine before its redesign (issue 16 measures against it)

CLONES = r"""
import json, random, sys, time
sys.path.insert(0, %r)
from interpreter import load_game
g = load_game(%r)
rng = random.Random(1); samples = []
for s in range(1, 1 + %d):
    st = g.new_game(seed=s)
    while not st.over:
        a = st.legal_actions(); st.apply(a[rng.randrange(len(a))])
        if rng.random() < 0.02 and len(samples) < 400:
            samples.append(st.clone())
best = None
for _ in range(5):
    t = time.perf_counter()
    for _ in range(20):
        for x in samples:
            x.clone()
    us = (time.perf_counter() - t) / (20 * len(samples)) * 1e6
    best = us if best is None else min(best, us)
print(json.dumps({"clone_us": best}))
"""


def _tool(args: list) -> dict:
    """Run a tool of tools/ with --json; its JSON, or {"error": its last line of stderr}."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / args[0]), *args[1:], "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        lines = (out.stderr or out.stdout).strip().splitlines()
        return {"error": lines[-1] if lines else f"exit code {out.returncode}"}


def _clone_ratio(baseline: str, games: int, rounds: int) -> dict:
    """War of the Ring clone cost, this checkout and the baseline interleaved (best of each)."""
    import statistics

    from bench import worktree

    with worktree(baseline) as (_, tmp):
        costs = {"this": [], "baseline": []}
        for _ in range(rounds):
            for name, tree in (("this", ROOT), ("baseline", tmp)):
                out = subprocess.run([sys.executable, "-c", CLONES % (str(tree), "war-of-the-ring", games)],
                                     capture_output=True, text=True, check=True)
                costs[name].append(json.loads(out.stdout)["clone_us"])
        this, old = min(costs["this"]), min(costs["baseline"])
        return {"clone_us_this": round(this, 2), "clone_us_baseline": round(old, 2),
                "ratio": round(this / old, 3), "median_this": round(statistics.median(costs["this"]), 2)}


def _load_instructions(game: str, baseline: str, quick: bool) -> str:
    """Beside a first load's time, what does not depend on the machine: its CPU instructions,
    and the baseline's (bench.load_instructions; not with --quick, nor without valgrind)."""
    from bench import load_instructions

    if quick or shutil.which("valgrind") is None:
        return ""
    try:
        r = load_instructions(game, baseline)
    except (RuntimeError, subprocess.CalledProcessError):
        return ""
    old = next(v for k, v in r.items() if k.startswith("first_load_instructions_") and not k.endswith("_this"))
    return f" (instructions: {r['first_load_instructions_this'] / 1e6:,.0f} M, {r['compared_with']} {old / 1e6:,.0f} M)"


def measure(baseline: str, rounds: int, quick: bool) -> list[dict]:
    from bench import cold_load, compare

    rows = []

    def row(target, now, goal, met, how):
        rows.append({"target": target, "now": now, "goal": goal, "met": met, "how": how})

    for game, games in (("duel", 100), ("war-of-the-ring", 6)):
        try:
            r = compare(game, baseline, games if not quick else max(1, games // 3), rounds)
            row(f"{game} random playouts vs {r['compared_with']}", f"{r['ratio']:.3f}x", ">= 2x",
                r["ratio"] >= 2, f"tools/bench.py {game} --compare {baseline} --rounds {rounds}")
        except (subprocess.CalledProcessError, SystemExit) as exc:
            row(f"{game} random playouts vs {baseline}", f"failed: {exc}", ">= 2x", None, "tools/bench.py")

    try:
        c = _clone_ratio(baseline, 2 if quick else 4, max(2, rounds // 2))
        row(f"war-of-the-ring clone vs {baseline}",
            f"{c['clone_us_this']} us vs {c['clone_us_baseline']} us = {c['ratio']:.3f}", "<= 0.5", c["ratio"] <= 0.5,
            "tools/targets.py (clone of sampled states, interleaved)")
    except subprocess.CalledProcessError as exc:
        row(f"war-of-the-ring clone vs {baseline}", f"failed: {exc}", "<= 0.5", None, "tools/targets.py")

    ref = _tool(["bench_reference.py", "--games", "50" if quick else "200", "--rounds", "1" if quick else "3",
                 "--callgrind", "--cg-games", "5" if quick else "20"])
    cg = ref.get("callgrind")
    if isinstance(cg, dict):
        row("duel instructions/action vs the reference Duel",
            f"{cg['engine']['instructions_per_action']:,} vs {cg['reference']['instructions_per_action']:,} "
            f"= {cg['ratio']:.2f}x", "<= 1.5x", cg["ratio"] <= 1.5, "tools/bench_reference.py --callgrind")
    else:
        row("duel instructions/action vs the reference Duel", str(cg or ref.get("error")), "<= 1.5x", None,
            "tools/bench_reference.py --callgrind")

    spiel = _tool(["bench_vs_openspiel.py", "--rounds", "3" if quick else "9"]
                  + ([] if quick else ["--callgrind", "--cg-playouts", "1000"]))
    counts = spiel.get("callgrind") if isinstance(spiel.get("callgrind"), dict) else {}
    found = False
    for r in spiel.get("results", []):
        if r["engine"] == "OpenSpiel Python":
            found = True
            x = r["ours_over_theirs_playouts"]
            cg = counts.get(r["game"], {})
            also = f" (instructions: theirs/ours {cg['python'] / cg['ours']:.2f})" if "python" in cg else ""
            row(f"{r['game']} vs OpenSpiel Python", f"{x:.3f}x{also}", ">= 1.5x", x >= 1.5,
                "tools/bench_vs_openspiel.py --callgrind")
    if not found:
        row("small games vs OpenSpiel Python", spiel.get("note") or spiel.get("error", "no result"), ">= 1.5x",
            None, "tools/bench_vs_openspiel.py")

    runs = 3 if quick else 5
    for game in ("duel", "war-of-the-ring"):
        first = cold_load(game, runs=runs, fresh_cache=True)
        row(f"{game} first load, empty caches", f"{first:.0f} ms{_load_instructions(game, baseline, quick)}",
            "< 300 ms", first < 300, "tools/bench.py (a fresh process, an empty cache directory; median)")
        after = cold_load(game, runs=runs, second=True)
        row(f"{game} load after the first", f"{after:.0f} ms", "< 80 ms", after < 80,
            "tools/bench.py (a fresh process after one first load, in its caches; median)")
        cached = cold_load(game, runs=runs)
        row(f"{game} load with caches", f"{cached:.0f} ms", "< 80 ms", cached < 80,
            "tools/bench.py (a fresh process after earlier loads; median)")
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default=BASELINE, help=f"the commit the speed-ups are measured against "
                    f"(default {BASELINE})")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds of each comparison (default 5)")
    ap.add_argument("--quick", action="store_true", help="fewer games and rounds: a first look")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = measure(args.baseline, 2 if args.quick else args.rounds, args.quick)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    mark = {True: "met", False: "NOT met", None: "not measured"}
    head = ["target", "now", "goal", "", "measured by"]
    table = [head] + [[r["target"], r["now"], r["goal"], mark[r["met"]], r["how"]] for r in rows]
    widths = [max(len(t[i]) for t in table) for i in range(len(head))]
    for t in table:
        print("  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
