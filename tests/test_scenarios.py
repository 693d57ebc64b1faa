"""Every YAML rule scenario under games/<game>/scenarios/ (and games/<game>/mods/<mod>/scenarios/)
runs as one test.

Each scenario cites the rulebook file and section it checks (see interpreter/scenario.py
for the format). A scenario fails with the file, line and what differed.
"""
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.scenario import ScenarioFailure, load_scenarios, run_scenario

GAMES = Path(__file__).resolve().parents[1] / "games"
CASES = []
# a game's own scenarios, and those of its mods (which name their mods at the top of the file)
FILES = [(f, f.parts[-3], f.parts[-3]) for f in sorted(GAMES.glob("*/scenarios/*.yaml"))]
FILES += [(f, f.parts[-5], f"{f.parts[-5]}+{f.parts[-3]}") for f in sorted(GAMES.glob("*/mods/*/scenarios/*.yaml"))]
for f, game, label in FILES:
    try:
        for sc, src, path in load_scenarios(f):
            CASES.append(pytest.param(game, sc, src, path, id=f"{label}/{f.stem}/{sc.get('name', '?')}"))
    except ScenarioFailure as exc:  # an unreadable scenario file is one failing test, not a crash
        CASES.append(pytest.param(game, {"unreadable": str(exc)}, None, (), id=f"{label}/{f.stem}"))

_loaded = {}


@pytest.mark.parametrize("game,sc,src,path", CASES)
def test_scenario(game, sc, src, path):
    if game not in _loaded:
        _loaded[game] = load_game(game)
    if "unreadable" in sc:
        pytest.fail(sc["unreadable"], pytrace=False)
    assert sc.get("cites"), "every scenario cites the rulebook section it checks"
    try:
        run_scenario(_loaded[game], sc, src, path)
    except ScenarioFailure as exc:
        pytest.fail(str(exc), pytrace=False)


def test_log_lines_are_found_in_the_order_given():
    """A scenario's `log:` lists texts the public log holds in that order (a text may be in the
    same line as the one before it): a rule writing its lines in the wrong order fails, as a
    list of texts found anywhere could not tell."""
    game = load_game("duel")
    sc = {"name": "quest", "seed": 1, "cites": "003 Quest of the Ring",
          "setup": {"vars": {"current": "fellowship", "chapter": 2, "quest.fellowship": 2}, "to_act": "fellowship",
                    "items": {"c2_12": "layout2.E1", "c2_01": "layout2.E2", "c1_03": "area.fellowship",
                              "c2_03": "area.fellowship"}},
          "actions": ["take:c2_12:play", "choose:quest_coin:yes"]}
    moves, coin = "Fellowship moves 2 step(s) on the quest, to step 4", "Fellowship takes 1 coin(s)"
    run_scenario(game, {**sc, "log": [moves, "to step 4", coin]})
    with pytest.raises(ScenarioFailure, match="has 'Fellowship moves 2 step.* before 'Fellowship takes 1 coin"):
        run_scenario(game, {**sc, "log": [coin, moves]})
    with pytest.raises(ScenarioFailure, match="no line of the public log contains 'Fellowship takes 2 coin"):
        run_scenario(game, {**sc, "log": [moves, "Fellowship takes 2 coin(s)"]})
