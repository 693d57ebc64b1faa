"""Pieces owned by an enum's values (per-owner supplies, named places), bounded reach and
distance, per-region display columns, agent names with a number and a game's default agent,
and scenario set-up steps between actions: on tests/games/nations."""
import json
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.agents import GreedyAgent, MCTSAgent, agent_known, make_agent
from interpreter.cli import main
from interpreter.scenario import run_scenario, ScenarioFailure

NATIONS = str(Path(__file__).parent / "games" / "nations")


@pytest.fixture(scope="module")
def game():
    return load_game(NATIONS)


def test_each_owner_has_its_own_supply_and_named_places(game):
    st = game.new_game(seed=1)
    p = st.pieces
    # hill folk: 3 in all, 2 placed, 1 of them fallen; river folk: only 2 exist, so 2 placed
    assert p[("soldier", "hill_folk", "supply")] == 1
    assert p[("soldier", "hill_folk", "a")] == 1
    assert p[("soldier", "hill_folk", "fallen")] == 1
    assert p[("soldier", "river_folk", "d")] == 2
    assert ("soldier", "river_folk", "supply") not in p
    assert game.rules.piece_owners == {"hill_folk", "river_folk"}


def test_distance_and_reach_with_a_step_limit(game):
    st = game.new_game(seed=1)
    assert st.vars["far"] == 3
    assert st.vars["near"] == ["b", "c"]


def test_a_save_with_an_unknown_piece_owner_is_refused(game):
    st = game.new_game(seed=1)
    d = json.loads(st.to_json())
    d["pieces"].append(["soldier", "sea_folk", "a", 1])
    with pytest.raises(Exception) as e:
        game.state_from_json(json.dumps(d))
    assert "sea_folk" in str(e.value)


def test_agent_names_with_a_number():
    assert agent_known("greedy:1") and agent_known("mcts:20") and agent_known("random")
    assert not agent_known("greedy:x") and not agent_known("smart")
    assert isinstance(make_agent("greedy:1"), GreedyAgent) and make_agent("greedy:1").depth == 1
    assert isinstance(make_agent("mcts:20"), MCTSAgent) and make_agent("mcts:20").iterations == 20
    with pytest.raises(ValueError):
        make_agent("greedy:deep")


def test_simulate_uses_the_games_default_agent(capsys):
    assert main(["simulate", NATIONS, "--games", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["agents"].values()) == {"greedy:1"}


def test_the_greedy_default_marches_where_the_score_says(game):
    st = game.new_game(seed=1)
    st.apply(make_agent(game.rules.default_agents).act(st))
    assert st.pieces.get(("soldier", "hill_folk", "b")) == 1


def test_board_shows_the_games_region_columns(capsys):
    main(["play", NATIONS, "--watch", "--seed", "1"])
    out = capsys.readouterr().out
    assert "strength" in out


def test_a_scenario_step_may_set_up_the_state_between_actions(game):
    sc = {"name": "set-up step", "seed": 1,
          "actions": [{"setup": {"vars": {"far": 9}}}, "march:b"],
          "expect": ["far == 9", "pieces(soldier, hill_folk, b) == 1"]}
    run_scenario(game, sc)
    sc["expect"] = ["far == 3"]
    with pytest.raises(ScenarioFailure):
        run_scenario(game, sc)


def test_display_names_print_players_and_enum_values(game):
    st = game.new_game(seed=1)
    assert "The Hill Folk and the red player take the field" in st.log_for(None)


def test_a_game_is_found_by_its_name_when_its_folder_differs():
    """Saved logs record the game's name (war_of_the_ring); its folder is games/war-of-the-ring."""
    from interpreter.loading.loader import resolve_game_dir

    assert resolve_game_dir("war_of_the_ring").name == "war-of-the-ring"
    assert resolve_game_dir("war-of-the-ring").name == "war-of-the-ring"


def test_the_rules_digest_does_not_depend_on_where_the_command_runs(tmp_path, monkeypatch):
    """A saved game records the rules' digest; replaying it from another folder must not
    report changed rule files."""
    here = load_game(NATIONS).rules.digest
    monkeypatch.chdir(tmp_path)
    assert load_game(NATIONS).rules.digest == here


def test_a_choice_about_something_names_it_in_its_labels_not_its_ids(game):
    st = game.new_game(seed=1)
    st.apply("march:b")
    acts = st.legal_actions()
    assert [a.id for a in acts] == ["choose:how_many:0", "choose:how_many:1", "choose:how_many:2"]
    assert acts[1].label == "how_many (The Hill Folk): 1"
    st2 = game.state_from_json(st.to_json())   # the context survives a save
    assert st2.legal_actions()[1].label == "how_many (The Hill Folk): 1"
