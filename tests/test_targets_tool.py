"""tools/targets.py: every speed target in one table. The measuring is the other tools' (each
has its own tests or is run by hand); here, that a result becomes the right mark and that a
tool that fails or prints no JSON becomes a row saying so, never a traceback."""
from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))

import targets  # noqa: E402


def test_the_table_marks_each_target_met_not_met_or_not_measured(monkeypatch, capsys):
    rows = [{"target": "a game vs x", "now": "2.100x", "goal": ">= 2x", "met": True, "how": "t1"},
            {"target": "another", "now": "1.400x", "goal": ">= 2x", "met": False, "how": "t2"},
            {"target": "needs a tool", "now": "valgrind is not installed", "goal": "<= 1.5x", "met": None,
             "how": "t3"}]
    monkeypatch.setattr(targets, "measure", lambda baseline, rounds, quick: rows)
    assert targets.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["target", "now", "goal"]
    marks = {line.split("  ")[0]: line for line in lines[1:]}
    assert " met " in marks["a game vs x"] and "NOT" not in marks["a game vs x"]
    assert " NOT met " in marks["another"]
    assert " not measured " in marks["needs a tool"]


def test_a_tool_that_fails_becomes_its_error_line():
    out = targets._tool(["no_such_tool.py"])
    assert set(out) == {"error"} and "no_such_tool.py" in out["error"]


def test_instructions_per_playout_are_the_difference_over_the_playouts(monkeypatch):
    """bench_vs_openspiel --callgrind: each contestant's count with n playouts less its count
    with none (loading and warm-up), over n; the child it runs under callgrind plays."""
    import bench
    import bench_vs_openspiel

    seen = []

    def fake(argv):
        engine, n = argv[2], int(argv[4])
        seen.append((engine, argv[3], n))
        return (5_000 + 300 * n if engine == "ours" else 7_000 + 450 * n), ""

    monkeypatch.setattr(bench, "callgrind_instructions", fake)
    out = bench_vs_openspiel.callgrind_counts(("ours", "python"), 10, 1)
    assert out == {"tic-tac-toe": {"ours": 300, "python": 450}, "Kuhn poker": {"ours": 300, "python": 450}}
    assert ("ours", "kuhn_poker", 10) in seen and ("python", "kuhn_poker", 0) in seen
    bench_vs_openspiel.child("ours", "kuhn_poker", 3, 1)  # (what runs under callgrind: no error)


def test_every_target_gets_its_row_from_its_tool(monkeypatch):
    """measure(): each tool's figure lands in its row and its mark; the small games' row shows
    their instructions per playout over ours beside the timed ratio."""
    import bench

    monkeypatch.setattr(bench, "compare", lambda game, base, games, rounds: {"compared_with": "abc", "ratio": 2.5 if game == "duel" else 1.5})
    monkeypatch.setattr(bench, "cold_load", lambda game, runs, fresh_cache=False, second=False:
                        250.0 if fresh_cache else 90.0 if second and game == "duel" else 40.0)
    monkeypatch.setattr(targets, "_clone_ratio", lambda base, games, rounds: {"clone_us_this": 20, "clone_us_baseline": 50, "ratio": 0.4})

    def tool(args):
        if args[0] == "bench_reference.py":
            return {"callgrind": {"engine": {"instructions_per_action": 300}, "reference": {"instructions_per_action": 100}, "ratio": 3.0}}
        assert "--callgrind" in args
        return {"results": [{"game": "Kuhn poker", "engine": "lotr-rules (YAML)"},
                            {"game": "Kuhn poker", "engine": "OpenSpiel Python", "ours_over_theirs_playouts": 1.3}],
                "callgrind": {"Kuhn poker": {"ours": 150_000, "python": 255_000}}}

    monkeypatch.setattr(targets, "_tool", tool)
    monkeypatch.setattr(targets.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(bench, "load_instructions", lambda game, ref: {
        "game": game, "first_load_instructions_this": 378_400_000, "compared_with": ref,
        f"first_load_instructions_{ref}": 2_287_000_000, "ratio": 6.04})
    rows = {r["target"]: r for r in targets.measure("abc", 3, False)}
    assert rows["duel random playouts vs abc"]["met"] and not rows["war-of-the-ring random playouts vs abc"]["met"]
    assert rows["war-of-the-ring clone vs abc"]["met"]
    assert rows["duel instructions/action vs the reference Duel"]["now"] == "300 vs 100 = 3.00x"
    kuhn = rows["Kuhn poker vs OpenSpiel Python"]
    assert kuhn["now"] == "1.300x (instructions: theirs/ours 1.70)" and kuhn["met"] is False
    assert rows["duel first load, empty caches"]["met"] and rows["war-of-the-ring load with caches"]["met"]
    assert rows["duel first load, empty caches"]["now"] == "250 ms (instructions: 378 M, abc 2,287 M)"
    assert rows["duel load after the first"]["now"] == "90 ms" and not rows["duel load after the first"]["met"]
    assert rows["war-of-the-ring load after the first"]["met"]


def test_a_first_load_is_counted_as_a_load_less_an_import(monkeypatch, tmp_path):
    """bench.py --load-instructions: the count of a process that loads the game with an empty
    cache, less that of one that only imports the package; what runs under callgrind loads."""
    import os
    import subprocess

    import bench

    seen = []

    def fake(argv, fresh_cache=False):
        seen.append((argv[1], fresh_cache))
        return (9_000 if "load_game" in argv[1] and "if True" in argv[1] else 2_000), ""

    monkeypatch.setattr(bench, "callgrind_instructions", fake)
    assert bench.load_instructions("duel") == {"game": "duel", "first_load_instructions_this": 7_000}
    assert len(seen) == 2 and all(fresh for _, fresh in seen)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    for script, _ in seen:  # (the scripts themselves run: one loads, one imports)
        subprocess.run([sys.executable, "-c", script], check=True, env=env, capture_output=True)
    usage = subprocess.run([sys.executable, str(TOOLS / "bench.py"), "duel", "--load-instructions", "--callgrind"],
                           capture_output=True, text=True)
    assert usage.returncode == 2 and "give one of them" in usage.stderr


def test_the_load_after_the_first_is_timed_in_the_caches_a_first_load_left(monkeypatch):
    """cold_load(second=True): each run loads once untimed in an empty cache directory of its
    own, then times a load in it."""
    import types

    import bench

    calls = []

    def run(cmd, capture_output, text, check, env):
        calls.append(env["XDG_CACHE_HOME"])
        return types.SimpleNamespace(stdout=f"{10 * len(calls)}\n")

    monkeypatch.setattr(bench.subprocess, "run", run)
    assert bench.cold_load("duel", runs=3, second=True) == 40.0  # (the timed ones: 20, 40, 60)
    assert len(calls) == 6 and calls[0] == calls[1] != calls[2] == calls[3] != calls[4] == calls[5]
