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
