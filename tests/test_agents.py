"""Agents use the public API, pick legal actions and never change the state they look at."""
import pytest
from pathlib import Path

from interpreter.agents import GreedyAgent, MCTSAgent, RandomAgent, make_agent


@pytest.mark.parametrize("agent", [RandomAgent(1), GreedyAgent(1), MCTSAgent(1, iterations=25, depth=4)])
def test_agent_picks_a_legal_action_and_leaves_the_state_alone(duel, agent):
    st = duel.new_game(seed=2)
    for _ in range(8):
        before = st.to_json()
        a = agent.act(st)
        assert st.to_json() == before
        assert a.id in {x.id for x in st.legal_actions()}
        st.apply(a)


def test_mcts_determinizes_only_what_the_player_cannot_see(duel):
    st = duel.new_game(seed=4)
    me = st.current_player
    d = MCTSAgent(3).determinize(st, me)
    r = duel.rules
    for zid, items in st.zones.items():   # every zone keeps its count; an item moves only among the
        assert len(items) == len(d.zones[zid])  # unseen places of the deck it started in
        for a, b in zip(items, d.zones[zid]):
            assert (a is None) == (b is None) and (a is None or r.start_zone.get(a) == r.start_zone.get(b))
    assert d.zones["deck.2"] != st.zones["deck.2"]          # a hidden deck is reshuffled
    # the face-down cards of the layout could be any chapter-1 card not seen (the 3 set aside too)
    assert any(d.zones["discard"] != st.zones["discard"] for d in [MCTSAgent(s).determinize(st, me) for s in range(8)])
    face_up = [i for i, c in enumerate(st.zones["layout1"]) if c and c not in st.facedown]
    assert all(d.zones["layout1"][i] == st.zones["layout1"][i] for i in face_up)


def test_greedy_beats_random(duel):
    """The greedy baseline wins most games against random play (a sanity check of evaluate)."""
    from interpreter.cli.simulate import _sim_batch

    res = _sim_batch(("duel", ["greedy", "random"], list(range(30)), 0, None, (), None))
    greedy = sum(1 for r in res if r["winners"] == ["fellowship"])
    rand = sum(1 for r in res if r["winners"] == ["sauron"])
    assert greedy >= rand + 6 and greedy >= 15, (greedy, rand)  # an inverted evaluate loses ~5 to 22


def test_unknown_agent():
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("oracle")


def test_a_resampled_world_deals_an_opponents_hidden_card_from_everything_unseen():
    """Kuhn poker: my card is known to me; the opponent's could be either card I do not hold
    (it was dealt from the same deck as the one left in it)."""
    import random

    from interpreter import load_game

    game = load_game(str(Path(__file__).resolve().parents[1] / "tools" / "bench_games" / "kuhn_poker"))
    st = game.new_game(seed=5)
    mine = st.zones["hand.first"][0]
    seen = set()
    rng = random.Random(1)
    for _ in range(40):
        w = st.resample("first", rng)
        assert w.zones["hand.first"] == [mine]
        seen.add(w.zones["hand.second"][0])
    assert seen == {c for c in ("jack", "queen", "king") if c != mine}
