"""The OpenSpiel adapter (interpreter/adapters/openspiel.py): every game passes OpenSpiel's own
random simulation test with serialization, and OpenSpiel's algorithms run on our games."""
from __future__ import annotations

import contextlib
import io
import pickle

import pytest

with contextlib.redirect_stdout(io.StringIO()):  # open_spiel prints a note about optional games
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'lotr-rules[openspiel]')")
np = pytest.importorskip("numpy", reason="numpy is not installed (it comes with the openspiel and pettingzoo extras)")

from interpreter.adapters import openspiel as osp  # noqa: E402

TTT = "tools/bench_games/tic_tac_toe"
KUHN = "tools/bench_games/kuhn_poker"

# (game, keyword arguments, simulations): War of the Ring is long (about 5,000 random actions a
# game, 10 ms each under the test's checks), so its games are cut at 300 actions (a full random
# game passes too, once, in about a minute: docs/research.md)
SIMS = [
    (TTT, {}, 10),
    (KUHN, {}, 20),
    ("duel", {}, 3),
    ("confrontation", {}, 4),
    ("confrontation", {"mods": ["deluxe"]}, 2),
    ("risk", {"players": 3}, 1),
    ("war-of-the-ring", {"max_actions": 300}, 2),
]


@pytest.mark.parametrize("name,kw,sims", SIMS, ids=[f"{g.split('/')[-1]}{'-' + '-'.join(kw.get('mods', [])) if kw.get('mods') else ''}"
                                                     for g, kw, _ in SIMS])
def test_openspiel_random_sim_test(name, kw, sims):
    game = osp.load(name, **kw)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_openspiel_game_facts():
    ttt = osp.load(TTT)
    t = ttt.get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert ttt.num_players() == 2 and ttt.max_chance_outcomes() == 1000
    kuhn = osp.load(KUHN)
    assert kuhn.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kuhn.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (kuhn.min_utility(), kuhn.max_utility()) == (-2.0, 2.0)  # payoffs: chips won
    risk = osp.load("risk", players=3)
    assert risk.num_players() == 3
    assert risk.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_openspiel_chance_node_draws_the_seed_and_actions_are_our_ids():
    game = osp.load(TTT, seed=5)
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 1000
    s.apply_action(2)
    assert s.engine_state.seed == 7
    ids = sorted(s.action_id(a) for a in s.legal_actions())
    assert ids == [f"mark:c{i}" for i in range(1, 10)]
    a = s.action_for("mark:c5")
    assert s.action_to_string(s.current_player(), a) == "mark:c5"
    s.apply_action(a)
    assert s.engine_state.history == ["mark:c5"]
    # the same id is the same number in another game object (hashing, not discovery order)
    s2 = osp.load(TTT, seed=99).state_for_seed(0)
    assert s2.action_for("mark:c5") == a


def test_openspiel_serialize_round_trip_and_pickle():
    game = osp.load("confrontation")
    s = game.state_for_seed(3)
    rng = np.random.RandomState(0)
    for _ in range(15):
        s.apply_action(rng.choice(s.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, s)
    g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert str(s2) == str(s) and s2.history() == s.history()
    assert s2.information_state_string(0) == s.information_state_string(0)
    s3 = pickle.loads(pickle.dumps(s))
    assert str(s3) == str(s)
    # both go on identically (the random source travels with the state)
    for _ in range(10):
        if s.is_terminal():
            break
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        s2.apply_action(a)
    assert str(s2) == str(s)


def test_openspiel_information_state_hides_what_the_player_cannot_see():
    """Kuhn poker: first's information state is the same for two deals that differ only in the
    second player's card; the tensors too."""
    game = osp.load(KUHN)
    by_card = {}
    for k in range(40):
        s = game.state_for_seed(k)
        st = s.engine_state
        mine = st.view("first")["zones"]["hand.first"][0]
        theirs = st.view("second")["zones"]["hand.second"][0]
        by_card.setdefault(mine, {})[theirs] = s
    pairs = [d for d in by_card.values() if len(d) == 2]
    assert pairs
    a, b = pairs[0].values()
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)  # second sees its own card


def test_openspiel_register_named_game():
    name = osp.register("confrontation", mods=["deluxe"], max_actions=500)
    assert name == "lotr_confrontation_deluxe"
    assert osp.register("confrontation", mods=["deluxe"], max_actions=500) == name  # again: fine
    g = pyspiel.load_game(name)
    assert g.get_parameters()["mods"] == "deluxe" and g.max_game_length() == 500
    s = g.new_initial_state()
    s.apply_action(0)
    assert not s.is_terminal()
    with pytest.raises(ValueError):
        osp.register("confrontation", mods=["deluxe"], max_actions=10, short_name=name)


def test_openspiel_mcts_bot_plays_our_tic_tac_toe():
    """OpenSpiel's MCTS bot never loses to a random player in our tic-tac-toe, from either seat."""
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    game = osp.load(TTT, chance_outcomes=1)
    results = []
    for i in range(6):
        rng = np.random.RandomState(i)
        seat = i % 2
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=100,
                           evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        rnd = uniform_random.UniformRandomBot(1 - seat, rng)
        bots = [bot, rnd] if seat == 0 else [rnd, bot]
        s = game.new_initial_state()
        s.apply_action(0)
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].step(s))
        results.append(s.returns()[seat])
    assert min(results) >= 0 and sum(r == 1 for r in results) >= 5, results


def test_openspiel_external_sampling_mccfr_on_kuhn_poker():
    """External-sampling MCCFR on our Kuhn poker: its average policy, played in OpenSpiel's own
    kuhn_poker (every deal exactly, mapped card by card and bet by bet), is worth close to the
    game's value -1/18 for the first player, and is hard to exploit."""
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import exploitability, expected_game_score
    from open_spiel.python.algorithms import external_sampling_mccfr as es

    game = osp.load(KUHN)
    np.random.seed(1)
    solver = es.ExternalSamplingSolver(game, es.AverageType.SIMPLE)
    for _ in range(2000):
        solver.iteration()
    avg = solver.average_policy()

    rank = {"jack": 0, "queen": 1, "king": 2}
    deals = {}
    for k in range(300):
        st = game.state_for_seed(k).engine_state
        deal = (rank[st.view("first")["zones"]["hand.first"][0]], rank[st.view("second")["zones"]["hand.second"][0]])
        deals.setdefault(deal, k)
        if len(deals) == 6:
            break

    def ours(c0, c1, history):
        s = game.state_for_seed(deals[(c0, c1)])
        for h in history:
            ids = {s.action_id(a): a for a in s.legal_actions()}
            s.apply_action(ids[("check" if "check" in ids else "fold") if h == "p" else ("bet" if "bet" in ids else "call")])
        return s

    kuhn = pyspiel.load_game("kuhn_poker")
    tab = policy_lib.TabularPolicy(kuhn)
    for key, idx in tab.state_lookup.items():  # OpenSpiel's Kuhn information state: card, then p/b
        card, history = int(key[0]), key[1:]
        other = next(c for c in range(3) if c != card)
        s = ours(*((card, other) if len(history) % 2 == 0 else (other, card)), history)
        probs = {s.action_id(a): p for a, p in avg.action_probabilities(s).items()}
        tab.action_probability_array[idx] = [probs.get("check", probs.get("fold", 0.0)),
                                             probs.get("bet", probs.get("call", 0.0))]
    value = expected_game_score.policy_value(kuhn.new_initial_state(), [tab, tab])[0]
    assert abs(value - (-1 / 18)) < 0.02, value
    assert exploitability.exploitability(kuhn, tab) < 0.05
