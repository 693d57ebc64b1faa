"""The Confrontation: random playouts with invariants at every step, and hidden-information
leak tests (001_dcc4b00bd5a3cb3b.txt section 3: characters face their owner; "Battle Sequence"
step 3: cards are chosen face down and revealed together)."""
import random

import pytest

from interpreter import load_game

CHARACTERS_PER_SIDE = 9
CARDS_PER_SIDE = 9


@pytest.fixture(scope="module")
def classic():
    return load_game("confrontation")


@pytest.fixture(scope="module")
def deluxe():
    return load_game("confrontation", mods=["deluxe"])


@pytest.fixture(scope="module", params=["classic", "deluxe"])
def game(request, classic, deluxe):
    return classic if request.param == "classic" else deluxe


def invariants(st):
    """Nothing created or lost, nothing in two places, capacities never exceeded, every combat
    card with its own side (hand + discard + chosen + shown = 9)."""
    rules = st.rules
    seen = {}
    for z, items in st.zones.items():
        for i in items:
            assert i not in seen, f"{i} is in {seen.get(i)} and {z}"
            seen[i] = z
            assert st.where[i] == z
    assert len(seen) == len(rules.items)
    assert set(st.facedown) <= set(seen)
    chars = [i for i in rules.items if rules.item_type_of[i] == "character"]
    for p in rules.players:
        mine = [c for c in chars if rules.props[c]["side"] == p]
        assert len(mine) == CHARACTERS_PER_SIDE
        assert all(seen[c] == "out" or seen[c] == "box" or seen[c].startswith("at.") for c in mine)
        cards = [c for c in rules.items if rules.item_type_of[c] == "combat" and rules.props[c]["side"] == p]
        places = {seen[c] for c in cards}
        assert places <= {f"hand.{p}", f"discard.{p}", f"committed.{p}", f"shown.{p}"}, places
        assert len(cards) == CARDS_PER_SIDE
        specials = [c for c in rules.items if rules.item_type_of[c] == "special" and rules.props[c]["side"] == p]
        assert {seen[c] for c in specials} <= {"spare", f"specials.{p}", "used"}
    for r in rules.regions:
        cap = rules.props[r]["capacity"]
        for p in rules.players:
            n = sum(1 for c in st.zones[f"at.{r}"] if rules.props[c]["side"] == p)
            assert n <= cap, f"{p} has {n} characters in {r} (capacity {cap})"


def between_turns(st):
    """When a player is asked for the turn's move, no region holds both sides (FACTS.md
    section 7 step 5: a turn ends only when no region holds both) and nobody is revealed."""
    rules = st.rules
    if st.pending is None or st.pending.get("type") != "ask" or "go" not in st.pending["moves"]:
        return
    for r in rules.regions:
        sides = {rules.props[c]["side"] for c in st.zones[f"at.{r}"]}
        assert len(sides) <= 1, f"{r} holds both sides between turns"
        for c in st.zones[f"at.{r}"]:  # (Deluxe: exposed ones and a revealed Watcher stay face up)
            assert (c in st.facedown or st.vars.get(f"exposed.{c}") or rules.props[c].get("stays_revealed")
                    or st.vars.get("turn_done") is False), f"{c} in {r} is still revealed"


def playout(game, seed, options=None, check=True):
    rng = random.Random(seed)
    st = game.new_game(seed=seed, options=options)
    n = 0
    while not st.is_terminal():
        acts = st.legal_actions()
        assert acts
        st.apply(rng.choice(acts))
        n += 1
        if check:
            invariants(st)
            between_turns(st)
        assert n < 3000, "a game must end"
    return st


def test_thousand_playouts_finish_with_both_sides_winning(game):
    winners, victories = set(), set()
    for seed in range(1000):
        st = playout(game, seed, options={"placement": "random"} if seed % 2 else None)
        assert len(st.winners) == 1
        winners.update(st.winners)
        victories.add(st.victory)
    assert winners == {"fellowship", "sauron"}
    # every way to win happens in random play
    deluxe = "ringbearer" in game.rules.var_defs
    ways = {"mordor", "shire", "blocked"} | ({"ringbearer_defeated", "witch_king"} if deluxe else {"frodo_defeated"})
    assert ways <= victories, victories


def test_setup_places_each_side_hidden(classic):
    """001 section 3: 4 characters at home, one in each of 5 regions; the opponent sees where
    pieces stand, not who they are."""
    st = classic.new_game(seed=5, options={"placement": "random"})
    v = st.view("fellowship")
    assert v["zones"]["at.mordor"] == ["?sauron"] * 4
    for r in ("dagorlad", "gondor", "mirkwood", "fangorn", "rohan"):
        assert v["zones"][f"at.{r}"] == ["?sauron"]
    assert all(c in classic.rules.items for c in v["zones"]["at.shire"])  # own pieces are known
    assert st.view("sauron")["zones"]["at.shire"] == ["?fellowship"] * 4
    assert st.current_player == "sauron"  # 001 section 3 step 5


# ---------------------------------------------------------------- leak tests
def _swap(st, a, b):
    """Exchange two items' places (a hidden identity changed, everything else equal)."""
    za, zb = st.where[a], st.where[b]
    ia, ib = st.zones[za].index(a), st.zones[zb].index(b)
    st.zone_list(za)[ia], st.zone_list(zb)[ib] = b, a  # (a state's own lists: a clone shares them)
    st.where[a], st.where[b] = zb, za
    st._memo.clear()
    st._legal = None


def _hidden_from(st, viewer):
    """Characters the viewer cannot see: the opponent's face-down pieces on the board."""
    rules = st.rules
    return [c for c in rules.items if rules.item_type_of[c] == "character" and c in st.facedown
            and rules.item_owner[c] != viewer and st.where[c].startswith("at.")]


def test_a_hidden_identity_never_shows_in_the_opponents_view(game):
    """Changing who a hidden piece is changes nothing the opponent sees, now or after the
    opponent's own next decisions (legal actions and views), until the piece is revealed."""
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        st = game.new_game(seed=seed)
        while not st.is_terminal():
            viewer = st.current_player
            hidden = _hidden_from(st, viewer)
            if len(hidden) >= 2 and rng.random() < 0.3:
                a, b = rng.sample(hidden, 2)
                other = st.clone()
                _swap(other, a, b)
                assert other.view(viewer) == st.view(viewer)
                # play on with the viewer's decisions while both pieces stay hidden
                s1, s2 = st.clone(), other
                while (not s1.is_terminal() and s1.current_player == viewer
                       and a in s1.facedown and b in s1.facedown):
                    ids = [x.id for x in s1.legal_actions()]  # in order: an order can tell, too
                    assert ids == [x.id for x in s2.legal_actions()]
                    act = rng.choice(ids)
                    s1.apply(act)
                    s2.apply(act)
                    if s1.over or s2.over:  # (a swap can make a position the rules never
                        break               # allow, e.g. Frodo put into Mordor: it ends at once)
                    if a in s1.facedown and b in s1.facedown and a in s2.facedown and b in s2.facedown:
                        assert s1.view(viewer) == s2.view(viewer)
                        checked += 1
            st.apply(rng.choice(st.legal_actions()))
    assert checked > 200


def test_a_secret_card_choice_never_shows_before_both_are_shown(game):
    """While the Fellowship picks its card, Sauron's chosen card lies face down in his
    `committed` zone: exchanging it for another card of his hand changes nothing the
    Fellowship sees or may do."""
    checked = 0
    for seed in range(200):
        rng = random.Random(seed)
        st = game.new_game(seed=seed, options={"placement": "random"})
        while not st.is_terminal():
            p = st.pending
            if (p["type"] == "choose" and p["label"] == "card" and p["player"] == "fellowship"
                    and st.zones["committed.sauron"] and st.zones["hand.sauron"]):
                other = st.clone()
                _swap(other, st.zones["committed.sauron"][0], rng.choice(st.zones["hand.sauron"]))
                assert other.view("fellowship") == st.view("fellowship")
                assert [a.id for a in other.legal_actions()] == [a.id for a in st.legal_actions()]
                checked += 1
            st.apply(rng.choice(st.legal_actions()))
    assert checked > 50


def test_the_public_log_names_no_hidden_character(classic):
    """The log others read says where a piece went, never who it is, until a battle reveals it."""
    st = classic.new_game(seed=11)
    rng = random.Random(11)
    names = {classic.rules.display(c) for c in classic.rules.items
             if classic.rules.item_type_of[c] == "character"}
    while "both sides have placed their characters" not in st.log_for("sauron"):
        st.apply(rng.choice(st.legal_actions()))
    who = classic.rules.display("fellowship")  # (a move's line names its player: "Fellowship: place ...")
    for line in st.log_for("sauron"):
        if line.startswith(who):
            assert not any(n in line for n in names), line
    own = [line for line in st.log_for("fellowship") if line.startswith(f"{who}: place")]
    assert len(own) == 5 and all(any(n in line for n in names) for line in own)  # its player reads who


def test_agents_play_through_and_determinize_only_what_is_hidden(game):
    """Greedy and MCTS finish games; MCTS's imagined positions keep every invariant and keep
    what the player sees: its own pieces, public places, counts (a sampled world, not a leak)."""
    from interpreter.agents import GreedyAgent, MCTSAgent

    mcts = MCTSAgent(seed=3, iterations=12, depth=6)
    seats = {"fellowship": mcts, "sauron": GreedyAgent(seed=4)}
    st = game.new_game(seed=9, options={"placement": "random"})
    while not st.is_terminal():
        me = st.current_player
        before = st.to_json()
        guess = mcts.determinize(st, me)
        assert st.to_json() == before
        invariants(guess)
        assert guess.view(me)["zones"] == st.view(me)["zones"]
        st.apply(seats[me].act(st))
        invariants(st)
    assert st.winners


def test_no_visible_variable_names_a_hidden_piece(game):
    """An opponent's decision never makes a variable a player can read name one of the
    opponent's pieces that stays face down (e.g. the Dark of Mordor's rider is kept in a
    variable only Sauron reads). Naming a piece as it is revealed, a name known from the start,
    or a name the player chose himself (A King Revealed) tells the player nothing."""
    rules = game.rules
    checked = 0
    for seed in range(150):
        rng = random.Random(seed)
        st = game.new_game(seed=seed, options={"placement": "random"})
        before = {p: st.view(p)["vars"] for p in rules.players}
        while not st.is_terminal():
            actor = st.current_player
            st.apply(rng.choice(st.legal_actions()))
            for viewer in rules.players:
                now = st.view(viewer)["vars"]
                if viewer == actor:
                    before[viewer] = now
                    continue
                for k, v in now.items():
                    if v != before[viewer].get(k) and isinstance(v, str) and v in st.facedown \
                            and rules.item_owner.get(v) not in (None, viewer) and st.where[v].startswith("at."):
                        raise AssertionError(f"{viewer} reads {k} = {v}, a hidden piece")
                before[viewer] = now
                checked += 1
    assert checked > 1000
