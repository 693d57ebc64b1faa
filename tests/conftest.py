import pytest

from interpreter import load_game

_games = {}


@pytest.fixture(scope="session")
def duel():
    if "duel" not in _games:
        _games["duel"] = load_game("duel")
    return _games["duel"]
