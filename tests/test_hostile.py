"""Hostile rule files: the effect language reaches nothing outside the game state, and a rule
that loops forever stops at once with an error naming its file and line (a mod included)."""
import shutil
import time
from pathlib import Path

import pytest

from interpreter import EngineError, check_game, load_game

TOY = Path(__file__).resolve().parent / "games" / "toy"


def _toy_with(tmp_path, game_text=None, mod=None):
    game = tmp_path / "toy"
    shutil.copytree(TOY, game, ignore=shutil.ignore_patterns("mods"))
    if game_text:
        text = (game / "game.yaml").read_text()
        old, new = game_text
        assert old in text
        (game / "game.yaml").write_text(text.replace(old, new))
    if mod:
        (game / "mods" / "evil").mkdir(parents=True)
        for name, body in mod.items():
            (game / "mods" / "evil" / name).write_text(body)
    return game


@pytest.mark.parametrize("effect, code", [
    ("__import__('os')", "E302"),                         # no Python built-ins
    ("__import__('os').system('echo pwned')", "E201"),   # nor calls on what a call returns
    ("open('/etc/passwd')", "E302"),                      # no files
    ("score[me] = chip.__class__", "E303"),               # no Python attributes
    ("score[me] = chip.__dict__", "E303"),
    ("score[me] = time()", "E302"),                       # no clock
    ("eval('1')", "E302"),
])
def test_the_language_reaches_nothing_outside_the_game(tmp_path, effect, code):
    game = _toy_with(tmp_path, ("      move(chip, table)\n", f"      move(chip, table)\n      {effect}\n"))
    diags = check_game(str(game))
    assert any(d.code == code for d in diags), "\n".join(map(str, diags))
    with pytest.raises(Exception):
        load_game(str(game))


def test_an_endless_loop_in_a_mod_stops_at_once_naming_its_line(tmp_path):
    mod = {
        "mod.yaml": "kind: mod\nname: evil\nversion: '1.0'\ngame: toy\ninclude: [chips.yaml]\n",
        "chips.yaml": ("kind: cards\ntype: chip\nitems:\n"
                       "  - id: c9\n    suit: cups\n    value: 9\n    at: table\n"),
        }
    mod["mod.yaml"] += ("replace:\n  moves:\n    pass:\n      do: |\n"
                        "        while true { log_order += 1 }\n")
    game = _toy_with(tmp_path, mod=mod)
    g = load_game(str(game), mods=[str(game / "mods" / "evil")])
    st = g.new_game(seed=1)
    before = st.to_json()
    t = time.perf_counter()
    with pytest.raises(EngineError) as err:
        st.apply("pass", atomic=True)
    assert time.perf_counter() - t < 5, "the step budget stops a loop quickly"
    assert "step budget" in str(err.value)
    assert st.to_json() == before                          # and the state is as it was


def test_a_loop_inside_a_trigger_chain_is_stopped_too(tmp_path):
    game = _toy_with(tmp_path, ("events:\n", "events:\n  ping: {by: player}\n"))
    text = (game / "game.yaml").read_text()
    text = text.replace("listeners:\n", "listeners:\n  - event: ping\n    do: emit ping(by=me)\n", 1)
    text = text.replace("  pass:\n    do: log('{} passes', me)", "  pass:\n    do: emit ping(by=me)")
    (game / "game.yaml").write_text(text)
    g = load_game(str(game))
    st = g.new_game(seed=1)
    with pytest.raises(EngineError) as err:
        st.apply("pass", atomic=True)
    assert "game.yaml" in str(err.value) or "step budget" in str(err.value)


def test_yaml_tags_cannot_build_python_objects(tmp_path):
    """Rule files are read with a safe loader: a python/object tag is an error, never a call."""
    marker = tmp_path / "pwned"
    game = _toy_with(tmp_path, ("  log_order: 0\n",
                                f"  log_order: !!python/object/apply:os.system ['touch {marker}']\n"))
    diags = check_game(str(game))
    assert any(d.code == "E001" for d in diags), "\n".join(map(str, diags))
    assert not marker.exists()
