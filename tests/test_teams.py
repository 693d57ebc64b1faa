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


def _team_decider_game(tmp_path, decider):
    text = (Path(TEAMS) / "game.yaml").read_text()
    old = "    ask add by current\n"
    assert old in text
    text = text.replace(old, old + "    choose b in [0, 1] by team_of(current) label bonus\n"
                        "    total[team_of(current)] += b\n", 1)
    text = text.replace("flow: |", f"team_decider: {decider}\nflow: |", 1)
    (tmp_path / "game.yaml").write_text(text)
    assert check_game(str(tmp_path)) == []
    return load_game(str(tmp_path))


def test_a_decision_owed_to_a_side_goes_to_the_seat_team_decider_names(tmp_path):
    """`by team_of(current)` names a side; with 4 players a side is no seat, so the game's
    team_decider (here: the side's last member) decides; with 2 players each seat is its own
    side and decides itself."""
    g = _team_decider_game(tmp_path, "members(t)[count(members(t)) - 1]")
    st = g.new_game(seed=1, players=4)
    st.apply("add:1")                                    # north (sun = north, south)
    assert st.current_player == "south" and st.pending["label"] == "bonus"
    st.apply(st.legal_actions()[-1])
    assert st.vars["total.sun"] == 2 and st.current_player == "east"
    st.apply("add:2")                                    # east (moon = east, west)
    assert st.current_player == "west"
    two = g.new_game(seed=1)
    two.apply("add:1")
    assert two.current_player == "north"                 # a side of one seat decides itself


def test_a_team_decider_naming_no_member_is_a_rule_failure(tmp_path):
    import pytest

    from interpreter.errors import EngineError

    g = _team_decider_game(tmp_path, "north")
    st = g.new_game(seed=1, players=4)
    st.apply("add:1")                                    # sun's decision: north is a member
    st.apply(st.legal_actions()[0])
    with pytest.raises(EngineError, match="team_decider gave 'north' for team moon"):
        st.apply("add:1")                                # east: moon's decision, north is no member


def test_team_decider_needs_teams(tmp_path):
    text = (Path(TEAMS) / "game.yaml").read_text()
    teams = "teams:\n  3: {sun: [north], moon: [south, east]}\n  4: {sun: [north, south], moon: [east, west]}\n"
    assert teams in text
    (tmp_path / "game.yaml").write_text(text.replace(teams, "team_decider: north\n", 1))
    errors = [(d.code, d.message) for d in check_game(str(tmp_path)) if d.severity == "error"]
    assert errors == [("E306", "team_decider: but no teams:")]
