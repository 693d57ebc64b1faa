"""The checker against a corpus of broken rule files (tests/bad_rules/<case>/).

Each case folder is a tiny valid game (a copy of tests/bad_rules/_base) with one deliberate
defect (two for the multi-file cases) and an expect.yaml naming the diagnostic the checker
must report: code, file, line, optional col, message substring and hint substring; or a list
under `errors:`. A case marked `xfail: "reason"` documents a checker defect; it runs as a
strict xfail so it turns red once the checker is fixed.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from interpreter import Diagnostic, check_game
from interpreter.errors import CODES

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "bad_rules"
BASE = CASES_DIR / "_base"
DUEL = HERE.parent / "games" / "duel"

LINE_RE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[EW]\d{3})\]: "
                     r"(?P<message>.+)$")


def _case_dirs():
    return sorted(p for p in CASES_DIR.iterdir() if p.is_dir() and (p / "expect.yaml").is_file())


def _expect(case: Path) -> dict:
    return yaml.safe_load((case / "expect.yaml").read_text(encoding="utf-8"))


def _params():
    out = []
    for case in _case_dirs():
        reason = _expect(case).get("xfail")
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out


def _same_file(diag_path: str, case: Path, file: str) -> bool:
    """Compare by path ending: <case folder>/<file>."""
    return Path(diag_path).as_posix().endswith(f"{case.name}/{file}")


def _matches(d: Diagnostic, case: Path, e: dict) -> bool:
    return (d.code == e["code"] and _same_file(d.path, case, e["file"]) and d.line == e["line"]
            and ("col" not in e or d.col == e["col"])
            and e.get("message", "") in d.message
            and e.get("hint", "") in d.hint)


def _check_format(d: Diagnostic):
    first, *rest = str(d).split("\n")
    m = LINE_RE.match(first)
    assert m, f"bad diagnostic format: {first!r}"
    assert (m["path"], int(m["line"]), int(m["col"]), m["code"], m["message"], m["sev"]) == \
        (d.path, d.line, d.col, d.code, d.message, d.severity)
    assert d.line >= 1 and d.col >= 1
    if d.hint:
        assert rest == [f"    hint: {d.hint}"]
    else:
        assert rest == []


def test_corpus_is_big_enough():
    cases = _case_dirs()
    assert len(cases) >= 30
    assert any(len(_expect(c).get("errors") or []) >= 2 for c in cases)


def test_base_game_is_valid():
    assert check_game(str(BASE)) == []


@pytest.mark.parametrize("case", _params())
def test_bad_rules(case: Path):
    exp = _expect(case)
    wanted = exp.get("errors") or [exp]
    diags = check_game(str(case), mods=[str(case / m) for m in exp.get("mods") or []])
    assert diags, "no diagnostics for a broken game"
    for d in diags:
        _check_format(d)
    shown = "\n".join(str(d) for d in diags)
    for e in wanted:
        assert e["code"] in CODES, f"unknown code in expect.yaml: {e['code']}"
        assert any(_matches(d, case, e) for d in diags), \
            f"expected {e['code']} at {e['file']}:{e['line']}:{e.get('col', '*')}; the checker said:\n{shown}"


def test_check_game_never_raises():
    """Every case comes back as a list of diagnostics, never a traceback."""
    for case in _case_dirs():
        try:
            diags = check_game(str(case))
        except Exception as exc:  # pragma: no cover - the failure is the point
            pytest.fail(f"check_game raised on {case.name}: {exc!r}")
        assert isinstance(diags, list), case.name
        assert all(isinstance(d, Diagnostic) for d in diags), case.name


def test_duel_is_valid():
    assert check_game(str(DUEL)) == []


def test_duel_misspelled_region(tmp_path):
    game = tmp_path / "duel"
    shutil.copytree(DUEL, game)
    card_file = game / "cards" / "chapter1.yaml"
    text = card_file.read_text(encoding="utf-8")
    good, bad = "muster(1, gondor, rohan)", "muster(1, gondr, rohan)"
    assert text.count(good) == 1
    text = text.replace(good, bad)
    card_file.write_text(text, encoding="utf-8")
    i = text.index(bad) + len("muster(1, ")
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1

    diags = check_game(str(game))
    hits = [d for d in diags if d.code == "E301" and Path(d.path).as_posix().endswith("cards/chapter1.yaml")]
    assert hits, "\n".join(map(str, diags))
    d = hits[0]
    assert (d.line, d.col) == (line, col)
    assert "gondr" in d.message
    assert d.hint == "did you mean 'gondor'?"
    _check_format(d)


def _base_with_vars(tmp_path, extra: str) -> Path:
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    f = game / "game.yaml"
    text = f.read_text(encoding="utf-8")
    assert "vars:\n  current: north\n" in text
    f.write_text(text.replace("vars:\n  current: north\n", "vars:\n" + extra + "  current: north\n"), encoding="utf-8")
    return game


def test_a_bad_variable_does_not_hide_the_others(tmp_path):
    """One malformed first value is one error: the variables declared after it still exist
    (it once made every later variable 'unknown', hundreds of E301s for one typo)."""
    game = _base_with_vars(tmp_path, "  bad: {per: players, init: {a: 1}}\n")
    diags = check_game(str(game))
    assert [d.code for d in diags] == ["E101"], "\n".join(map(str, diags))
    assert "vars/bad" in diags[0].message


def test_a_variable_may_start_as_a_list(tmp_path):
    game = _base_with_vars(tmp_path, "  seen: {per: players, init: []}\n  order: [a, b]\n")
    assert check_game(str(game)) == []
