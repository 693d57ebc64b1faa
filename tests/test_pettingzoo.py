"""The PettingZoo adapter (interpreter/adapters/pettingzoo.py): every game is an AEC environment
that passes PettingZoo's api_test and seed_test."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install 'lotr-rules[pettingzoo]')")
np = pytest.importorskip("numpy", reason="numpy is not installed (it comes with the openspiel and pettingzoo extras)")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from interpreter.adapters.pettingzoo import env  # noqa: E402

TTT = "tools/bench_games/tic_tac_toe"
KUHN = "tools/bench_games/kuhn_poker"

GAMES = [
    (TTT, {}),
    (KUHN, {}),
    ("duel", {}),
    ("confrontation", {}),
    ("confrontation", {"mods": ["deluxe"]}),
    ("risk", {"players": 3}),
    ("war-of-the-ring", {}),  # api_test plays 2,000 actions of it, seed_test 1,000
]
IDS = [f"{g.split('/')[-1]}{'-' + kw['mods'][0] if kw.get('mods') else ''}" for g, kw in GAMES]


@pytest.mark.parametrize("name,kw", GAMES, ids=IDS)
def test_pettingzoo_api_and_seed(name, kw):
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation (as for its own classic games) and about
        # agents not named like player_0 (ours are the game's seats)
        warnings.simplefilter("ignore")
        api_test(env(name, **kw), num_cycles=1000)
        seed_test(lambda: env(name, **kw), num_cycles=500)


def test_pettingzoo_information_state_observation_and_truncation():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("duel", observation="information_state", max_actions=30), num_cycles=100)
    e = env("duel", max_actions=10)
    e.reset(seed=3)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            assert trunc and not term and reward == 0
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 10 and not e.agents


def test_pettingzoo_kuhn_rewards_are_the_payoffs_and_actions_are_our_ids():
    e = env(KUHN)
    e.reset(seed=4)
    assert e.possible_agents == ["first", "second"]
    assert sorted(e.legal_action_ids().values()) == ["bet", "check"]
    e.step(e.slot_of("bet"))
    assert e.agent_selection == "second"
    e.step(e.slot_of("call"))
    st = e.engine_state
    assert st.over and sorted(e.rewards.values()) == [-2, 2]
    assert e.rewards == {p: float(v) for p, v in st.scores.items()}
    with pytest.raises(ValueError):
        e2 = env(KUHN)
        e2.reset(seed=1)
        e2.step(next(i for i in range(4096) if i not in e2.legal_action_ids()))


def test_pettingzoo_observation_hides_what_the_agent_cannot_see():
    """Kuhn poker: first's observation is the same for deals that differ only in second's card."""
    seen = {}
    e = env(KUHN)
    for seed in range(1, 40):
        e.reset(seed=seed)
        st = e.engine_state
        key = st.view("first")["zones"]["hand.first"][0]
        other = st.view("second")["zones"]["hand.second"][0]
        seen.setdefault(key, {})[other] = e.observe("first")["observation"].copy()
    pair = next(d for d in seen.values() if len(d) == 2)
    a, b = pair.values()
    assert np.array_equal(a, b)


def test_pettingzoo_reset_seeds_follow_on_and_render():
    e = env(TTT, render_mode="ansi")
    e.reset(seed=10)
    assert e.engine_state.seed == 10
    e.reset()
    assert e.engine_state.seed == 11
    assert "x to act" in e.render()
