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
