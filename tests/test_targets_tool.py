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
