"""engine.explain: why an action is not legal, in the rules' terms, citing the rule and the
rulebook comment written above it; nothing hidden from the asker is named."""
from interpreter import load_game
from interpreter.engine.explain import candidates, explain, hidden_items


GAME = {}


def game_of(name):
    if name not in GAME:
        GAME[name] = load_game(name)
    return GAME[name]


def duel(seed=1):
    return game_of("duel").new_game(seed=seed)


def why(st, text, viewer):
    return explain(st, text, viewer, game=game_of(st.rules.name))


def test_a_false_part_of_the_condition_with_both_sides_values_and_the_rulebook_citation():
    st = duel()
    me = st.current_player
    out = why(st, "landmark:erebor", me)
    assert out["legal"] is False and out["action"] == "landmark:erebor"
    assert "coins(me) >= landmark_price(me, tile)" in out["reason"]
    assert "coins(me) is 2" in out["reason"] and "landmark_price(me, tile) is" in out["reason"]
    assert out["rule"].startswith("games/duel/game.yaml:") or "game.yaml:" in out["rule"]
    assert any("Take a Landmark tile" in c for c in out["cites"])          # the comment above the move
    assert any(n == "landmark_price" and any("section 4B" in c for c in cs) for n, cs, _ in out["notes"])


def test_an_argument_outside_its_domain():
    st = duel()
    me = st.current_player
    avail = {a.payload[1]["card"] for a in st.legal_actions() if a.id.startswith("take:")}
    covered = next(i for i in st.zones["layout1"] if i and i not in avail and i not in st.facedown)
    out = why(st, f"take:{covered}:play", me)
    assert not out["legal"] and "is not among the values the rule allows: available_cards" in out["reason"]
    assert any("Take a Chapter card" in c for c in out["cites"])


def test_legal_actions_not_your_turn_and_other_decisions():
    st = duel()
    me = st.current_player
    other = next(p for p in st.seats if p != me)
    a = st.legal_actions()[0]
    assert why(st, a.id, me)["legal"] is True
    out = why(st, a.id, other)
    assert not out["legal"] and "not your decision" in out["reason"]
    out = why(st, "choose:muster:rohan", me)
    assert not out["legal"] and "not asking muster" in out["reason"]
    assert "no action matches" in why(st, "flibbertigibbet", me)["reason"]


def test_words_name_an_action():
    st = duel()
    me = st.current_player
    assert "landmark:erebor" in candidates(st, "Erebor", me, game_of("duel"))
    out = why(st, "erebor", me)
    assert out["action"] == "landmark:erebor" and not out["legal"]


def test_a_choice_value_not_offered():
    st = duel()
    me = st.current_player
    muster = next(a for a in st.legal_actions() if "Muster" in a.label and a.id.endswith(":play"))
    st.apply(muster)
    p = st.pending
    assert p["type"] == "choose" and p["label"] == "muster"
    bad = next(r for r in st.rules.regions if r not in p["options"])
    out = why(st, f"choose:muster:{bad}", me)
    assert not out["legal"] and "is not one of the options" in out["reason"]


def test_a_hidden_item_is_never_named():
    st = duel()
    me = st.current_player
    hidden = sorted(i for i in hidden_items(st, me) if i.startswith("c1_"))
    assert hidden
    for iid in hidden[:5]:
        out = why(st, f"take:{iid}:play", me)
        assert not out["legal"]
        assert st.rules.display(iid) not in out["reason"] or "(hidden)" in out["reason"]
        assert "(hidden)" in out["reason"]


def test_confrontation_a_move_into_a_full_region():
    game = game_of("confrontation")
    st = game.new_game(seed=3, options={"placement": "random"})
    me = st.current_player
    moves = [a for a in st.legal_actions() if a.id.startswith("go:")]
    assert moves
    c = moves[0].payload[1]["c"]
    # a region it cannot reach in one move
    far = next(r for r in st.rules.regions if not any(a.id == f"go:{c}:{r}" for a in moves))
    out = why(st, f"go:{c}:{far}", me)
    assert not out["legal"] and "destinations(c)" in out["reason"]
    assert any("001" in c for c in out["cites"])


def test_risk_fortify_needs_two_battalions():
    game = game_of("risk")
    st = game.new_game(seed=2, players=2, options={"opening": "random"})
    me = st.current_player
    out = why(st, "fortify:the_shire:buckland", me)
    assert not out["legal"] and out["reason"]
