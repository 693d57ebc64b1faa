"""Teams: seats forming sides that win together, a default seating, the language's team
functions, and agents and simulate counting a side's win as a win (tests/games/teams)."""
import json
from pathlib import Path

from interpreter import check_game, load_game
from interpreter.agents import GreedyAgent, MCTSAgent, outcome
from interpreter.cli import main

TEAMS = str(Path(__file__).parent / "games" / "teams")


def _holds(game, st, text):
    return game.expression(text)(st, {"me": st.current_player})


def test_the_default_seating_and_the_sides_of_each():
    assert check_game(TEAMS) == []
    g = load_game(TEAMS)
    assert g.default_players == 2 and g.new_game(seed=1).seats == ("north", "south")
    assert g.teams() == {"north": ["north"], "south": ["south"]}
    assert g.teams(3) == {"sun": ["north"], "moon": ["south", "east"]}
    st = g.new_game(seed=1, players=4)
    assert _holds(g, st, "teams() == [sun, moon]")
    assert _holds(g, st, "team_of(north) == sun and team_of(west) == moon")
    assert _holds(g, st, "teammates(north) == [south] and opponents(north) == [east, west]")
    assert _holds(g, st, "members(moon) == [east, west]")


def test_a_side_wins_together_and_shares_its_total():
    st = load_game(TEAMS).new_game(seed=1, players=4)
    for a in ["add:2", "add:1", "add:2", "add:1", "add:2"]:   # north, east, south, west, north
        st.apply(a)
    assert st.vars["total.sun"] == 6 and st.vars["total.moon"] == 2
    st.apply("add:1")                                          # east
    st.apply("add:1")                                          # south: sun reaches 7
    assert st.over and sorted(st.winners) == ["north", "south"]
    assert outcome(st, "north") == outcome(st, "south") == 1.0 and outcome(st, "east") == -1.0


def test_agents_take_a_win_for_their_side():
    g = load_game(TEAMS)
    st = g.new_game(seed=1, players=4)
    for a in ["add:2", "add:2", "add:2", "add:2", "add:1", "add:2"]:  # sun 5, moon 6, south to move
        st.apply(a)
    assert st.current_player == "south" and st.vars["total.sun"] == 5 and st.vars["total.moon"] == 6
    # add:2 wins for south's side now; anything else lets west win for the other side
    assert GreedyAgent(seed=1, depth=1).act(st).id == "add:2"     # 7 for the side: a win, not "shared"
    assert MCTSAgent(seed=1, iterations=60).act(st).id == "add:2"


def test_simulate_reports_wins_per_side(capsys):
    assert main(["simulate", TEAMS, "--games", "20", "--players", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["team_wins"]) == {"sun", "moon", "shared", "none"}
    assert out["team_wins"]["sun"] + out["team_wins"]["moon"] == 20
    assert out["wins"]["north"] == out["wins"]["south"] == out["team_wins"]["sun"]
    assert main(["simulate", TEAMS, "--games", "5", "--json"]) == 0    # 2 players: no sides table
    assert json.loads(capsys.readouterr().out)["team_wins"] is None
