"""The information-set MCTS agent (interpreter/agents/ismcts.py): registered, within budget, and
blind to what it may not see: its choices do not change when only information hidden from it
changes."""
from __future__ import annotations

import random
import time

import pytest

from interpreter import load_game
from interpreter.agents import AGENTS, agent_known, make_agent
from interpreter.agents.ismcts import CanonicalRandom, ISMCTSAgent
from interpreter.cli.playout import playout

_games = {}


def game(name):
    if name not in _games:
        _games[name] = load_game(name)
    return _games[name]


def test_ismcts_is_registered():
    assert "ismcts" in AGENTS and agent_known("ismcts") and agent_known("ismcts:50")
    a = make_agent("ismcts:37", seed=3)
    assert isinstance(a, ISMCTSAgent) and a.iterations == 37
    assert make_agent("ismcts").iterations == 200


def _position(name, viewer, seed, min_actions, hidden_of):
    """A position where `viewer` is to act after random play, with two items hidden from the
    viewer (hidden_of(state) lists (zone, item) pairs) to swap."""
    g = game(name)
    for s0 in range(seed, seed + 200):
        st = g.new_game(seed=s0)
        rng = random.Random(s0)
        while not st.over:
            if st.current_player == viewer and len(st.history) >= min_actions and len(st.legal_actions()) > 1:
                hid = hidden_of(g, st)
                if len(hid) >= 2:
                    return st, hid
            st.apply(rng.choice(st.legal_actions()).id)
    raise AssertionError("no position found")


def _sauron_hidden_characters(g, st):
    return [(z, it) for z, items in st.zones.items() if z.startswith("at.")
            for it in items if it in st.facedown and g.rules.item_owner.get(it) == "sauron"]


def _swapped(st, a, b, za, zb):
    t = st.clone()
    t.edit({"items": {a: zb, b: za}, "facedown": [a, b]})
    return t


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ismcts_choices_ignore_what_is_hidden_from_it(seed):
    """The Confrontation, the Fellowship to act: two of Sauron's face-down characters swap
    regions. The Fellowship's view is the same; IS-MCTS with the same seed chooses the same."""
    st, hid = _position("confrontation", "fellowship", seed, 12 + 4 * seed, _sauron_hidden_characters)
    (za, a), (zb, b) = hid[0], next(h for h in hid[1:] if h[0] != hid[0][0])
    t = _swapped(st, a, b, za, zb)
    assert t.zones != st.zones and t.view("fellowship") == st.view("fellowship")
    for agent_seed in (0, 1):
        x = ISMCTSAgent(agent_seed, iterations=120).act(st)
        y = ISMCTSAgent(agent_seed, iterations=120).act(t)
        assert x.id == y.id


def test_the_leak_test_has_teeth():
    """Control: the same search dealing hidden items with a plain random source (from where
    they truly lie) changes its choice in these positions."""
    differ = 0
    for seed in (1, 2, 3):
        st, hid = _position("confrontation", "fellowship", seed, 12 + 4 * seed, _sauron_hidden_characters)
        (za, a), (zb, b) = hid[0], next(h for h in hid[1:] if h[0] != hid[0][0])
        t = _swapped(st, a, b, za, zb)
        x, y = ISMCTSAgent(0, iterations=120), ISMCTSAgent(0, iterations=120)
        x.rng, y.rng = random.Random(0), random.Random(0)
        differ += x.act(st).id != y.act(t).id
    assert differ >= 1


def test_ismcts_worlds_depend_only_on_what_it_sees():
    """Its determinizations are equal for the two states; the engine's resample with a plain
    random source is not (it deals the hidden items from where they truly lie), which is what
    CanonicalRandom is for."""
    st, hid = _position("confrontation", "fellowship", 5, 20, _sauron_hidden_characters)
    (za, a), (zb, b) = hid[0], next(h for h in hid[1:] if h[0] != hid[0][0])
    t = _swapped(st, a, b, za, zb)
    same = sum(ISMCTSAgent(k).determinize(st, "fellowship").zones == ISMCTSAgent(k).determinize(t, "fellowship").zones
               for k in range(10))
    plain = sum(st.resample("fellowship", random.Random(k)).zones == t.resample("fellowship", random.Random(k)).zones
                for k in range(10))
    assert same == 10 and plain < 10


def test_ismcts_hands_in_risk_are_unseen_cards_order():
    """Risk: a player's hand is private; swapping the order of another player's cards changes
    nothing for IS-MCTS."""
    def hand_cards(g, st):
        z = "cards.red"
        return [(z, it) for it in st.zones.get(z, [])]

    st, hid = _position("risk", "yellow", 1, 60, hand_cards)
    g = game("risk")
    (z, a), (_, b) = hid[0], hid[1]
    t = st.clone()
    order = [x for x in t.zones[z] if x not in (a, b)] + [b, a]
    t.edit({"items": {it: z for it in order}})
    assert t.zones[z] != st.zones[z] and t.view("yellow") == st.view("yellow")
    assert ISMCTSAgent(4, iterations=40).act(st).id == ISMCTSAgent(4, iterations=40).act(t).id
    assert g  # loaded


def test_ismcts_samples_the_other_players_card_in_kuhn_poker():
    g = load_game("tools/bench_games/kuhn_poker")
    st = g.new_game(seed=3)
    agent = ISMCTSAgent(1)
    mine = st.zones["hand.first"]
    seen = {tuple(agent.determinize(st, "first").zones["hand.second"]) for _ in range(50)}
    assert len(seen) == 2  # second may hold either card first does not
    assert all(card not in mine for (card,) in seen)  # never the one first holds


@pytest.mark.parametrize("seed", range(1, 7))
def test_ismcts_in_kuhn_poker_ignores_which_card_the_other_holds(seed):
    """Kuhn poker: the other player's card and the card left in the deck trade places. The
    player to act sees the same; its choice (and its sampled worlds) are the same."""
    g = load_game("tools/bench_games/kuhn_poker")
    st = g.new_game(seed=seed)
    rng = random.Random(seed)
    if seed % 2 == 0:  # first bets or checks; second is to act
        st.apply(rng.choice(st.legal_actions()).id)
    me = st.current_player
    other = next(p for p in st.seats if p != me)
    (theirs,), (left,) = st.zones[f"hand.{other}"], st.zones["deck"]
    t = st.clone()
    t.edit({"items": {theirs: "deck", left: f"hand.{other}"}, "facedown": [theirs]})
    assert t.zones[f"hand.{other}"] == [left] and t.view(me) == st.view(me)
    for k in (0, 1):
        assert ISMCTSAgent(k).determinize(st, me).zones == ISMCTSAgent(k).determinize(t, me).zones
        assert ISMCTSAgent(k, iterations=60).act(st).id == ISMCTSAgent(k, iterations=60).act(t).id


def test_ismcts_time_budget_and_strength_against_random():
    g = load_game("tools/bench_games/tic_tac_toe")
    st = g.new_game(seed=1)
    agent = ISMCTSAgent(0, iterations=None, seconds=0.2)
    t0 = time.perf_counter()
    agent.act(st)
    assert time.perf_counter() - t0 < 1.5 and agent.last_iterations > 5
    with pytest.raises(ValueError):
        ISMCTSAgent(0, iterations=None, seconds=None)
    # it does not lose to random play at tic-tac-toe, from either seat
    for seed in range(4):
        seats = ("x", "o") if seed % 2 == 0 else ("o", "x")
        res = playout(g, {seats[0]: ISMCTSAgent(seed, iterations=150), seats[1]: make_agent("random", seed)}, seed)
        assert not res["winners"] or res["winners"] == [seats[0]], (seed, res["winners"])


def test_canonical_random_shuffles_a_sorted_copy():
    a, b = CanonicalRandom(7), CanonicalRandom(7)
    x, y = ["c", "a", "b"], ["b", "c", "a"]
    a.shuffle(x)
    b.shuffle(y)
    assert x == y
