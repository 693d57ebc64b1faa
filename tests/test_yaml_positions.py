"""Where a diagnostic points in a rule file (interpreter/loading/yamlsrc.py): a path through
the file's mappings and lists, walked as far as it leads."""
import shutil
from pathlib import Path

from interpreter import check_game
from interpreter.loading.yamlsrc import Source

BASE = Path(__file__).resolve().parent / "bad_rules" / "_base"


def test_a_path_is_walked_as_far_as_it_leads_and_points_there():
    s = Source("f", "a:\n  b: 1\nseq: [p, q]\nm:\n  1: one\n  True: yes\n")
    assert s.pos(("a", "b")) == (2, 6)
    assert s.pos(("a", "missing", "b")) == (2, 3)  # a's mapping: not a.b, which the path never named
    assert s.pos(("seq", 5, 0)) == (3, 6)  # the list: its fifth element does not exist
    assert s.pos(("seq", -1)) == (3, 10)  # (the last element, as Python counts)
    assert s.pos(("m", True)) == (6, 9) and s.pos(("m", 1)) == (5, 6) and s.pos(("m", True)) == (6, 9)
    s.forget_positions()  # (composed again when asked)
    assert s.pos(("a", "b")) == (2, 6) and s.pos(("a", "b"), key=True) == (2, 3)


def test_an_error_in_a_card_merged_from_another_points_at_the_card_that_merges_it(tmp_path):
    game = tmp_path / "g"
    shutil.copytree(BASE, game)
    (game / "cards.yaml").write_text(
        "kind: cards\ntype: card\ndefaults: {at: deck, cost: 0}\nitems:\n"
        "  - {id: scout, name: Scout, color: red, effect: gain(1)}\n"
        "  - &riders\n    id: riders\n    name: Riders\n    color: blue\n"
        "    effects:\n      combat:\n        if: score[me] >= nope\n        do: gain(1)\n"
        "  - <<: *riders\n    id: banner\n    name: Banner\n    color: red\n    if: score[me] > 0\n")
    where = sorted((d.line, d.col) for d in check_game(str(game)) if d.code == "E301")
    assert where == [(12, 26), (15, 6)]  # riders' own condition; banner's, which it took from riders


def test_a_load_that_finds_every_file_in_the_cache_imports_no_yaml_yet_finds_positions(tmp_path):
    """PyYAML is a fifth of a warm load: imported (loading/yamlread.py) only when a text is
    parsed or a position asked."""
    import os
    import subprocess
    import sys

    code = ("import sys, interpreter; interpreter.load_game('duel'); print('yaml' in sys.modules)\n"
            "from interpreter.loading.loader import load_spec\n"
            "s = load_spec('duel').sources[0]; print(s.pos(('kind',)), 'yaml' in sys.modules)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    root = Path(__file__).resolve().parents[1]
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=root)
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=root)
    assert first.stdout.splitlines() == ["True", "(13, 7) True"]
    assert again.stdout.splitlines() == ["False", "(13, 7) True"]
