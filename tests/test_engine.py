"""Engine properties on Duel for Middle-earth: determinism, saves, clones, illegal actions,
hidden information, and seeded random playouts with invariants checked after every action."""
import json
import random
from pathlib import Path

import pytest

from interpreter import IllegalAction, SaveError


def invariants(st):
    """Nothing created or lost, nothing in two places (003 "Contents": 15 Units and 7
    Fortresses per side, 30 coins; every card, tile and token in exactly one zone)."""
    rules = st.rules
    for kind, per in (("unit", 15), ("fortress", 7)):
        for p in rules.players:
            total = sum(v for (k, o, _), v in st.pieces.items() if k == kind and o == p)
            assert total == per, f"{p} has {total} {kind}s, expected {per}"
    assert sum(v for (k, _, _), v in st.pieces.items() if k == "coin") == 30
    assert all(v > 0 for v in st.pieces.values()), "no zero or negative piece counts are stored"
    seen = {}
    for z, items in st.zones.items():
        for i in items:
            if i is None:
                continue
            assert i not in seen, f"{i} is in {seen.get(i)} and {z}"
            seen[i] = z
            assert st.where[i] == z
    assert len(seen) == len(rules.items) == 69 + 7 + 18
    assert set(st.facedown) <= set(seen)


def play_random(game, seed, check=None, max_actions=2000):
    rng = random.Random(seed)
    st = game.new_game(seed=seed)
    n = 0
    while not st.is_terminal():
        acts = st.legal_actions()
        assert acts, "a live game always offers an action"
        assert st.current_player == acts[0].player
        st.apply(rng.choice(acts))
        n += 1
        if check:
            check(st)
        assert n < max_actions
    return st


def test_thousand_random_games_finish_with_invariants(duel):
    outcomes = {}
    for seed in range(1000):
        st = play_random(duel, seed, check=invariants)
        assert st.winners, "every Duel game ends with at least one winner"
        outcomes[st.victory] = outcomes.get(st.victory, 0) + 1
        wins = tuple(st.winners)
        outcomes[wins] = outcomes.get(wins, 0) + 1
    assert outcomes.get(("fellowship",), 0) > 100 and outcomes.get(("sauron",), 0) > 100
    for kind in ("majority", "shared", "conquest", "support", "quest"):
        assert outcomes.get(kind, 0) > 0, f"victory type {kind} never occurred"


def test_same_seed_same_actions_same_log(duel):
    a = play_random(duel, 42)
    b = duel.new_game(seed=42)
    for aid in a.history:
        b.apply(aid)
    assert b.log == a.log and b.digest() == a.digest() and b.to_json() == a.to_json()
    c = play_random(duel, 43)
    assert c.digest() != a.digest()


def test_initial_layout_depends_on_seed_only(duel):
    assert duel.new_game(seed=5).to_json() == duel.new_game(seed=5).to_json()
    assert duel.new_game(seed=5).zones["layout1"] != duel.new_game(seed=6).zones["layout1"]


@pytest.mark.parametrize("seed", range(12))
def test_json_round_trip_mid_game_continues_identically(duel, seed):
    """Save at every decision (ask and mid-effect choices alike), reload, and finish the game
    with the same actions: the log, the winners and the final state are identical."""
    ref = play_random(duel, seed)
    st = duel.new_game(seed=seed)
    kinds = set()
    for i, aid in enumerate(ref.history):
        text = st.to_json()
        back = duel.state_from_json(text)
        assert back.to_json() == text
        kinds.add(st.pending["type"])
        if i % 7 == seed % 7:
            st = back  # continue from the reloaded copy
        st.apply(aid)
    assert st.to_json() == ref.to_json()
    assert "ask" in kinds


def test_round_trip_inside_an_effect(duel):
    """A save taken while an effect waits for a choice resumes in the middle of that effect."""
    mid = 0
    for seed in range(40):
        ref = play_random(duel, seed)
        st = duel.new_game(seed=seed)
        for aid in ref.history:
            if st.pending["type"] != "ask" and len(st.stack) > 2:
                mid += 1
                text = st.to_json()
                st = duel.state_from_json(text)
                assert json.loads(text)["stack"], "the interpreter stack is part of the save"
            st.apply(aid)
        assert st.digest() == ref.digest()
    assert mid > 20


def test_clone_is_independent(duel):
    st = duel.new_game(seed=3)
    for _ in range(10):
        st.apply(st.legal_actions()[0])
    before = st.to_json()
    c = st.clone()
    rng = random.Random(1)
    while not c.is_terminal():
        c.apply(rng.choice(c.legal_actions()))
    assert st.to_json() == before
    assert c.to_json() != before
    assert st.clone().to_json() == before


def test_clones_share_zone_lists_until_written(duel):
    """A clone and its original share each zone's list until one of them writes that zone
    (State.zone_list): writing either leaves the other as it was, in both directions, through
    clones of clones, and a new game never changes the starting position the next one copies."""
    st = duel.new_game(seed=3)
    for _ in range(6):
        st.apply(st.legal_actions()[0])
    c = st.clone()
    cc = c.clone()
    assert all(c.zones[z] is st.zones[z] for z in st.zones)  # nothing copied yet
    texts = {"st": st.to_json(), "c": c.to_json()}
    rng = random.Random(2)
    for _ in range(8):  # the original plays on: its clones stay as they were
        st.apply(rng.choice(st.legal_actions()))
    assert c.to_json() == texts["c"] == cc.to_json()
    while not c.is_terminal():  # the clone plays on: its own clone stays as it was
        c.apply(rng.choice(c.legal_actions()))
    assert cc.to_json() == texts["c"]
    assert any(c.zones[z] is not cc.zones[z] for z in c.zones)
    start = duel.new_game(seed=9).to_json()
    first = duel.new_game(seed=9)
    while not first.is_terminal():
        first.apply(rng.choice(first.legal_actions()))
    assert duel.new_game(seed=9).to_json() == start != first.to_json()


def test_illegal_action_leaves_state_unchanged(duel):
    st = duel.new_game(seed=4)
    before = st.to_json()
    for bad in ["take:nothing:play", "choose:muster:rohan", "", "landmark:bree"]:
        with pytest.raises(IllegalAction):
            st.apply(bad)
        assert st.to_json() == before
    # a card that is covered cannot be taken
    covered = [c for c in st.zones["layout1"][:5] if c]
    for c in covered:
        with pytest.raises(IllegalAction):
            st.apply(f"take:{c}:play")
    assert st.to_json() == before
    # an action id from another moment (the card is gone) is refused too
    first = st.legal_actions()[0]
    st.apply(first)
    assert first.id not in {a.id for a in st.legal_actions()}
    after = st.to_json()
    with pytest.raises(IllegalAction, match="not a legal action"):
        st.apply(first.id)
    assert st.to_json() == after


def test_actions_after_the_end_are_refused(duel):
    st = play_random(duel, 9)
    assert st.current_player is None and st.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        st.apply("take:c1_01:play")


def test_views_hide_what_a_player_may_not_see(duel):
    st = duel.new_game(seed=11)
    for p in duel.players:
        v = st.view(p)
        assert v["zones"]["deck.2"] == {"count": 23}
        assert v["zones"]["discard"] == {"count": 3}
        assert v["zones"]["tokens.elves"] == {"count": 3}
        assert v["zones"]["landmark_pile"] == {"count": 4}
        layout = v["zones"]["layout1"]
        hidden = [i for i, c in enumerate(layout) if c == "?"]
        assert len(hidden) == 8  # rows B and D are face down (FACTS.md section 7)
        assert all(st.zones["layout1"][i] in st.facedown for i in hidden)
        assert len(v["zones"]["landmark_row"]) == 3
        text = json.dumps(v)
        for c in st.zones["deck.3"]:
            assert c not in text, "a card of an unseen deck never appears in a view"
    assert st.view("sauron")["pending"]["type"] == "ask"
    assert st.view("fellowship")["pending"] == {"player": "sauron", "type": "ask"}


@pytest.mark.parametrize("mutate", [
    lambda d: "not json at all",
    lambda d: json.dumps({**d, "format": 99}),
    lambda d: json.dumps({**d, "game": "chess"}),
    lambda d: json.dumps({**d, "rules_digest": "0" * 16}),
    lambda d: json.dumps({**d, "zones": {**d["zones"], "discard": d["zones"]["discard"] + d["zones"]["deck.2"][:1]}}),
    lambda d: json.dumps({**d, "zones": {**d["zones"], "nowhere": []}}),
    lambda d: json.dumps({**d, "stack": [[99999, 0, 0, None]]}),
    lambda d: json.dumps({k: v for k, v in d.items() if k != "pieces"}),
    lambda d: json.dumps({**d, "pieces": [["unit", "fellowship", "arnor", -3]]}),
    lambda d: json.dumps({**d, "pieces": [["dragon", "fellowship", "arnor", 1]]}),
    lambda d: json.dumps({**d, "pieces": {"unit|fellowship|arnor": 2}}),
])
def test_corrupt_saves_are_rejected_cleanly(duel, mutate):
    st = duel.new_game(seed=2)
    d = json.loads(st.to_json())
    with pytest.raises(SaveError):
        duel.state_from_json(mutate(d))


def test_rules_loaded_again_from_the_checked_cache_play_and_report_the_same(tmp_path, monkeypatch):
    """The second load of unchanged rule files reads the checked rules kept by the first
    (build/checked.py): the same games, the same warnings, the same run-time error positions,
    and the declarations (for checking text later) read on first use."""
    from interpreter import check_game, load_game

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))

    def playout(game):
        st, rng = game.new_game(seed=3), random.Random(3)
        while not st.over:
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
        return st.digest(), st.log_for(None)

    built = load_game("duel")
    kept = load_game("duel")
    assert not callable(built._declarations) and callable(kept._declarations)
    assert playout(kept) == playout(built)
    assert check_game("duel") == check_game("duel") == []
    assert set(kept.declarations.functions) == set(built.declarations.functions)
    assert kept.expression("coins(me) + 1")(kept.new_game(seed=1), {"me": "fellowship"}) == 4
    assert kept.rules.where(5, 0) == built.rules.where(5, 0)


SEQ_GAME = """\
kind: game
name: seqvars
players: [red, blue]
include: [items.yaml]
item_types:
  chip:
    props: {value: int}
zones:
  bag: {}
  table: {}
vars:
  watched: null     # names a zone once the flow sets it: read as a list below
  picked: 0
functions:
  seen: count(watched)                      # the zone the variable names: its contents
  how_many(xs): count(xs)                   # a parameter that may be a zone
  on_table: how_many(table)
  in_list: how_many([1, 2, 3])
  # where named items lie (c4 stays in the bag), or the item a parameter is given (the sums
  # make them too long to be written into their callers: they are memoised)
  c1_out: zone_of(c1) != zone_of(c4) and 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 > 0
  lies_out(c): zone_of(c) != zone_of(c4) and 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 > 0
  c2_out: lies_out(c2) and 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 > 0
moves:
  take:
    args: {c: bag}
    if: seen < 3 and on_table < 3 and in_list == 3
    do: |
      move(c, table)
      picked += 1
  stop:
    do: end_game([red], 'done')
flow: |
  watched = table
  while true { ask take, stop by red }
"""

SEQ_ITEMS = """\
kind: cards
type: chip
defaults: {at: bag}
items:
  - {id: c1, value: 1}
  - {id: c2, value: 2}
  - {id: c3, value: 3}
  - {id: c4, value: 4}
"""


def test_a_function_reading_a_zone_through_a_variable_or_a_parameter_sees_it_change(tmp_path):
    """What a function reads is known when the rules are checked: a variable that names a
    zone, or a parameter given one, reads that zone (its memoised value is forgotten when the
    zone changes); a parameter given a list reads no zone."""
    from interpreter import load_game

    (tmp_path / "game.yaml").write_text(SEQ_GAME)
    (tmp_path / "items.yaml").write_text(SEQ_ITEMS)
    game = load_game(str(tmp_path))
    values = [game.expression(f) for f in ("seen", "on_table", "c1_out", "c2_out")]
    st = game.new_game(seed=1)
    counts = []
    while not st.over:
        counts.append(tuple(f(st, {"me": "red"}) for f in values))
        st.apply(st.legal_actions()[0])  # take while it is legal (c1, c2, c3), then stop
    assert counts == [(0, 0, False, False), (1, 1, True, False), (2, 2, True, True), (3, 3, True, True)]


@pytest.mark.parametrize("game_name, calls, sides, actions", [
    ("war-of-the-ring", ["army_dests", "field_targets", "can_attack_from"], ["free_peoples", "shadow"], 900),
    ("risk", ["targets"], None, 900),
])
def test_values_kept_for_a_region_and_its_neighbours_are_forgotten_when_they_change(game_name, calls, sides,
                                                                                    actions):
    """A function reading the pieces at a region and at the regions next to it (optimise.located:
    "near") keeps its values per region; a move forgets those of the places it touched and of
    their neighbours only. Checked against the same values worked out afresh (a clone keeps no
    memoised value) all along random games."""
    from interpreter import load_game

    game = load_game(game_name)
    rules = game.rules
    fns = [rules.functions[c] for c in calls]
    st, rng = game.new_game(seed=5), random.Random(5)
    owners = sides or list(st.seats)
    for n in range(actions):
        if st.over:
            break
        if n % 3 == 0:
            fresh = st.clone()
            for f in fns:
                for s in owners:
                    for r in rules.regions:
                        assert f(st, None, s, r) == f(fresh, None, s, r), (f.__name__, s, r, n)
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])


@pytest.mark.parametrize("game", ["duel", "war_of_the_ring", "confrontation", "risk"])
def test_playing_makes_no_reference_cycles(game):
    """A finished game, its clones and views are freed as soon as they are dropped (reference
    counting), not left for the garbage collector: a simulation of millions of games would
    otherwise pause for it again and again. (A recursive closure in Duel's cost matching made
    17 cycles a game.)"""
    import gc

    from interpreter import load_game

    g = load_game(game)
    rng = random.Random(3)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for seed in range(4):
            st = g.new_game(seed=seed)
            for _ in range(300):  # (a game's first 300 actions, or all of them)
                if st.over:
                    break
                acts = st.legal_actions()
                st.clone().apply(acts[0])
                st.view(st.seats[0])
                st.apply(acts[rng.randrange(len(acts))])
        del st
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []


def test_a_processs_first_load_freezes_what_it_built_and_a_second_load_unfreezes_it(tmp_path):
    """engine/game._build: after a process's first build everything alive is frozen
    (gc.freeze), so the cycle collector walks none of the rules while games are played; a
    second build unfreezes it: rules that nothing holds any more are freed by the collector
    again. An application that froze objects itself keeps them frozen. (Fresh processes:
    this one has loaded games before.)"""
    import os
    import subprocess
    import sys

    ours = """if True:
        import gc, weakref
        from interpreter import load_game
        g = load_game("duel")
        assert gc.get_freeze_count() > 0
        gone = weakref.ref(g.rules)
        del g
        gc.collect()  # (frozen: not freed by a collection)
        assert gone() is not None
        g = load_game("duel")
        assert gc.get_freeze_count() == 0
        gc.collect()
        assert gone() is None
        assert g.new_game(seed=1).legal_actions()
        print("ok")
    """
    theirs = """if True:
        import gc
        from interpreter import load_game
        gc.freeze()
        frozen = gc.get_freeze_count()
        load_game("duel")
        load_game("duel")
        assert gc.get_freeze_count() == frozen
        print("ok")
    """
    for code in (ours, theirs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                             cwd=Path(__file__).resolve().parent.parent,
                             env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)})
        assert out.stdout.strip() == "ok", out.stderr
