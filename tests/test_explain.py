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


def test_a_decision_named_without_an_option_lists_its_options():
    """'choose:muster' or 'choose:muster:' (no value) names the decision now asked: the answer
    lists its options (it once read "Is not an option here", or "not asking muster now")."""
    st = duel()
    me = st.current_player
    st.apply(next(a for a in st.legal_actions() if "Muster" in a.label and a.id.endswith(":play")))
    options = ", ".join(st.rules.display(r) for r in st.pending["options"])
    for text in ("choose:muster", "choose:muster:"):
        out = why(st, text, me)
        assert not out["legal"] and out["answer"] == f"Name one of the options for 'place the Units where?': {options}."


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


# ---------------------------------------------------------------- the answer a player reads
# `why` answers first in a player's words (engine/wording.py): the condition that failed, with
# its values, named as the rule files name things (display: players:, the game functions' own
# names); the rule (file:line, the condition as rule text, the rulebook comments) comes after.

def walk(game, st, until, steps=400, seed=0):
    """Play random legal actions until until(st) holds; the state then (or None)."""
    import random

    rng = random.Random(seed)
    for _ in range(steps):
        if st.over:
            return None
        if until(st):
            return st
        st.apply(rng.choice(st.legal_actions()))
    return None


def rule_part(out):
    """The rule after the answer: a blank line, then 'rule: file:line (...)'."""
    head, _, rest = out["text"].partition("\n\n")
    return head, rest


def test_duel_a_card_you_cannot_afford_says_its_price_and_your_coins():
    game = game_of("duel")
    st = duel()
    me = st.current_player
    st.edit({"pieces": [{"kind": "coin", "owner": None, "at": me, "count": 0}]})
    legal = {a.id for a in st.legal_actions()}
    card = next(a.payload[1]["card"] for a in st.legal_actions()
                if a.id.endswith(":discard") and a.id.replace(":discard", ":play") not in legal)
    name = st.rules.display(card)
    price = game.expression("card_price(me, c)", ("me", "c"))(st, {"me": me, "c": card})
    out = why(st, f"take:{card}:play", me)
    assert not out["legal"]
    assert out["answer"] == (f"You cannot take {name} and play it now.\n"
                             f"It needs your coins (0) to be at least your card price for {name} ({price}).")
    head, rule = rule_part(out)
    assert head == out["answer"]
    # the rule comes after, for rule authors: where, the condition as written, the rulebook
    assert rule.startswith("rule: games/duel/game.yaml:") and "coins(me) >= card_price(me, card)" in rule
    assert "Take a Chapter card" in rule


def test_duel_a_card_not_available_and_a_landmark_too_dear():
    st = duel()
    me = st.current_player
    avail = {a.payload[1]["card"] for a in st.legal_actions() if a.id.startswith("take:")}
    covered = next(i for i in st.zones["layout1"] if i and i not in avail and i not in st.facedown)
    out = why(st, f"take:{covered}:play", me)
    assert out["answer"].splitlines()[1].startswith(
        f"{st.rules.display(covered)} is not among the available cards (")
    game = game_of("duel")
    coins = game.expression("coins(me)")(st, {"me": me})
    price = game.expression("landmark_price(me, erebor)")(st, {"me": me})
    assert coins < price
    out = why(st, "erebor", me)
    assert out["answer"] == ("You cannot take landmark Erebor now.\n"
                             f"It needs your coins ({coins}) to be at least your landmark price for Erebor ({price}).")


def test_confrontation_a_move_blocked_by_a_full_region_says_so():
    game = game_of("confrontation")
    forward = game.expression("[r for r in forward(c.side, region_of(c)) if not room(c.side, r)]", ("me", "c"))

    def blocked(st):
        p = st.pending
        if p["type"] != "ask" or "go" not in p["moves"]:
            return False
        for a in st.legal_actions():
            full = forward(st, {"me": st.current_player, "c": a.payload[1]["c"]})
            if full:
                blocked.found = (a.payload[1]["c"], full[0])
                return True
        return False

    st = walk(game, game.new_game(seed=1, options={"placement": "random"}), blocked, seed=1)
    assert st is not None
    c, r = blocked.found
    cn, rn = st.rules.display(c), st.rules.display(r)
    out = why(st, f"go:{c}:{r}", st.current_player)
    lines = out["answer"].splitlines()
    assert lines[0] == f"You cannot move {cn} to {rn} now."
    assert lines[1].startswith(f"{rn} is not among the destinations of {cn} (")
    # the step it would be is refused for want of room: the region's count against its capacity
    assert f"As for the steps of {cn}: it needs room of " in lines[1]
    assert f"to be less than {rn}'" in lines[1] and " capacity (" in lines[1]
    assert "room" in [n for n, _, _ in out["notes"]]  # the function opened is cited with its rule


def test_confrontation_a_region_out_of_reach():
    game = game_of("confrontation")
    st = game.new_game(seed=3, options={"placement": "random"})
    moves = [a for a in st.legal_actions() if a.id.startswith("go:")]
    c = moves[0].payload[1]["c"]
    far = next(r for r in st.rules.regions if not any(a.id == f"go:{c}:{r}" for a in moves))
    out = why(st, f"go:{c}:{far}", st.current_player)
    dests = ", ".join(st.rules.display(a.payload[1]["to"]) for a in moves if a.payload[1]["c"] == c)
    assert out["answer"].splitlines() == [
        f"You cannot move {st.rules.display(c)} to {st.rules.display(far)} now.",
        f"{st.rules.display(far)} is not among the destinations of {st.rules.display(c)} ({dests})."]


def test_risk_fortify_from_a_territory_of_one_battalion():
    game = game_of("risk")
    n = game.expression("pieces(battalion, me, t)", ("me", "t"))

    def fortifying(st):
        p = st.pending
        if p["type"] != "ask" or "fortify" not in p["moves"]:
            return False
        me = st.current_player
        ones = [t for t in st.rules.regions if n(st, {"me": me, "t": t}) == 1]
        many = [t for t in st.rules.regions if n(st, {"me": me, "t": t}) > 1]
        fortifying.pair = (ones[0], many[0]) if ones and many else None
        return fortifying.pair is not None

    st = walk(game, game.new_game(seed=2, players=2, options={"opening": "random"}), fortifying, seed=2)
    assert st is not None
    src, dst = fortifying.pair
    out = why(st, f"fortify:{src}:{dst}", st.current_player)
    sn, dn = st.rules.display(src), st.rules.display(dst)
    lines = out["answer"].splitlines()
    assert lines[0] == f"You cannot fortify {dn} from {sn} now."
    assert lines[1].startswith(f"{sn} is not among your territories that can fortify (")
    assert lines[1].endswith(f"It needs your battalion(s) in {sn} (1) to be at least 2.")


def test_risk_a_question_of_another_decision():
    game = game_of("risk")
    st = game.new_game(seed=2, players=2, options={"opening": "random"})
    out = why(st, "fortify:the_shire:buckland", st.current_player)
    assert out["answer"].startswith("You cannot fortify Buckland from The Shire now: the game is asking "
                                    "something else (")


def test_war_of_the_ring_an_action_the_die_does_not_allow_and_passing():
    game = game_of("war-of-the-ring")

    def asked(label):
        return lambda st: st.pending["type"] == "branch" and st.pending["label"] == label

    st = walk(game, game.new_game(seed=5), asked("action"), seed=5)
    assert st is not None
    offered = set(st.pending["options"])
    barred = next(b for b in ("move_armies", "attack", "recruit", "draw", "politics", "hide") if b not in offered)
    out = why(st, barred.replace("_", " "), st.current_player)  # named by its words
    assert out["action"] == f"choose:action:{barred}"
    words = barred.replace("_", " ")
    assert out["answer"].startswith(f"{words.capitalize()} is not one of the options for "
                                    "'which action for the ")  # (the question names the die)
    assert " die" in out["answer"].split("': ")[0]
    assert f"It needs {words} to be one of the uses (" in out["answer"]
    assert out["rule"].startswith("games/war-of-the-ring/rules/turn.yaml:")

    def no_pass(st):
        return asked("turn_action")(st) and "pass" not in st.pending["options"]

    st = walk(game, game.new_game(seed=5), no_pass, seed=5)
    assert st is not None
    out = why(st, "pass", st.current_player)
    assert "It needs the number of your dice (" in out["answer"]
    assert ") to be less than the number of dice of " in out["answer"]


def test_war_of_the_ring_a_region_an_army_cannot_reach():
    game = game_of("war-of-the-ring")
    st = walk(game, game.new_game(seed=5),
              lambda st: st.pending["type"] == "choose" and st.pending["label"] == "army_to", seed=5)
    assert st is not None
    far = next(r for r in st.rules.regions if r not in st.pending["options"])
    fn = st.rules.display(far)
    out = why(st, fn, st.current_player)  # a region named by its printed name
    assert out["action"] == f"choose:army_to:{far}"
    assert out["answer"].startswith(f"{fn} is not one of the options for 'move it where?': ")
    assert f"{fn} is not among your regions the army may move to for " in out["answer"]


def test_rule_text_written_back_reads_as_it_was_written():
    from interpreter.dsl.parse import Node
    from interpreter.engine.ruletext import expression, unparse

    def same(a, b):
        if isinstance(a, Node):
            return isinstance(b, Node) and a.kind == b.kind and same(list(a.a), list(b.a))
        if isinstance(a, (list, tuple)):
            return isinstance(b, (list, tuple)) and len(a) == len(b) and all(map(same, a, b))
        if isinstance(a, dict):
            return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        return a == b

    for name in ("duel", "confrontation", "risk", "war-of-the-ring"):
        for fname, fn in game_of(name).declarations.functions.items():
            if fn.node is not None:
                assert same(fn.node, expression(unparse(fn.node))), (name, fname, unparse(fn.node))
    assert unparse(expression("(a + b) * -c >= 2 and not (x or y)")) == "(a + b) * -c >= 2 and not (x or y)"


def test_a_name_said_exactly_is_the_option_of_that_name_before_others_holding_the_words():
    """At Risk's choice of a territory, "The Shire" is the territory on offer (legal), not the
    territory card of the same name; in War of the Ring "muster", offered as the Will of the
    West's face, is not the Army/Muster die (army_muster), which holds the word."""
    risk = game_of("risk")
    st = walk(risk, risk.new_game(seed=1, players=2),
              lambda s: s.pending["type"] == "choose" and "the_shire" in s.pending["options"], seed=1)
    out = why(st, "The Shire", st.current_player)
    assert out["legal"] and out["action"] == f"choose:{st.pending['label']}:the_shire", out["answer"]
    assert out["answer"].startswith("You can do that now")
    wotr = game_of("war-of-the-ring")
    st = walk(wotr, wotr.new_game(seed=5), lambda s: s.pending["type"] in ("branch", "choose")
              and "muster" in s.pending["options"], seed=5, steps=2000)
    out = why(st, "muster", st.current_player)
    assert out["legal"] and out["action"] == f"choose:{st.pending['label']}:muster", out["answer"]


def test_display_names_word_a_game_function_in_an_answer():
    """display: names: may give a game function its words: Risk's mine(p) reads "your
    territories", not "your mine"."""
    risk = game_of("risk")
    st = walk(risk, risk.new_game(seed=1, players=2),
              lambda s: s.pending["type"] == "choose" and "the_shire" in s.pending["options"], seed=1)
    theirs = next(t for t in st.rules.regions if st.pieces.get(("battalion", st.current_player, t), 0) == 0
                  and t not in st.pending["options"])
    out = why(st, st.rules.display(theirs), st.current_player)
    assert "is not among your territories" in out["answer"] and "your mine" not in out["answer"], out["answer"]
