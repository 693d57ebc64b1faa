"""What a player reads at a decision (engine/table.decision): a prompt may name what the question
is about ({expression} over the asking rule's locals, display: prompts:), an option about one
region ends with the region's line (display: region_line:), and the games' option lines and
questions say enough to choose without the rulebook."""
from pathlib import Path

import pytest

from interpreter import check_game, load_game
from interpreter.engine.table import item, table
from interpreter.scenario import load_scenarios, run_scenario

ROOT = Path(__file__).resolve().parents[1]

# a tiny game: each player puts pawns on the board, the question saying how many are left; the
# label `spot` is asked in two procedures, which share the local `left` only
TINY = """
kind: game
name: tiny
players: [red, blue]
include: [board.yaml]
pieces:
  pawn: {per_player: 4}
vars:
  turn_no: 1
procedures:
  place_some(n): |
    let left = n
    while left > 0 {
      choose r in regions() label spot
      place(pawn, me, 1, r)
      left -= 1
    }
  place_one: |
    let left = 1
    let extra = 0
    choose r in regions() label spot
    place(pawn, me, 1, r)
flow: |
  place_some(2, me=red)
  place_one(me=blue)
  may again by red { turn_no += 1 }
display:
  prompts:
    spot: PROMPT
    again: "go on{{ }}?"
  region_line: "[pieces(pawn, me, r), 'of yours', if r == north then 'cold' else none]"
"""
BOARD = """
kind: board
regions:
  north: {}
  south: {}
connections:
  - [north, south]
"""


def _tiny(tmp_path, prompt):
    d = tmp_path / "tiny"
    d.mkdir()
    (d / "game.yaml").write_text(TINY.replace("PROMPT", prompt))
    (d / "board.yaml").write_text(BOARD)
    return str(d)


def _decision(st, who=None):
    return table(st, who or st.current_player)["decision"]


def test_a_prompt_reads_the_locals_of_the_rule_asking_it(tmp_path):
    st = load_game(_tiny(tmp_path, '"put a pawn where? ({left} left, turn {turn_no}, {me})"')).new_game(seed=1)
    assert _decision(st)["prompt"] == "put a pawn where? (2 left, turn 1, red)"
    st.apply("choose:spot:north")
    assert _decision(st)["prompt"] == "put a pawn where? (1 left, turn 1, red)"
    st.apply("choose:spot:south")
    assert _decision(st)["prompt"] == "put a pawn where? (1 left, turn 1, blue)"  # the other procedure
    st.apply("choose:spot:north")
    assert _decision(st)["prompt"] == "go on{ }?"  # {{ and }} are braces


def test_a_prompt_part_that_fails_while_playing_reads_as_a_question_mark(tmp_path):
    """A {expression} that fails (here an index past the end of a list, at the first question
    only) shows "?" in its place: the table never breaks, and the gap is visible."""
    st = load_game(_tiny(tmp_path, '"put a pawn where? (note {[10, 20][left]})"')).new_game(seed=1)
    assert _decision(st)["prompt"] == "put a pawn where? (note ?)"  # left is 2: past the end
    st.apply("choose:spot:north")
    assert _decision(st)["prompt"] == "put a pawn where? (note 20)"  # left is 1


def test_plurals_word_a_count_in_display_lines_the_board_and_the_line_mode(tmp_path):
    """display: plurals: the word for more than one of a piece kind: after a count in a display
    line, on the board (the terminal's words for a region's pieces) and in the line-mode table;
    a count of 1 keeps the name; an unknown id is an E306 error at its line."""
    from interpreter.cli.tui.panes import _piece_words
    from interpreter.engine.table import in_a_row

    game = _tiny(tmp_path, "where?")
    text = Path(game, "game.yaml").read_text().replace("display:\n", "display:\n  plurals: {pawn: pawns}\n", 1)
    Path(game, "game.yaml").write_text(text)
    g = load_game(game)
    st = g.new_game(seed=1)
    st.apply("choose:spot:north")
    st.apply("choose:spot:north")
    assert in_a_row(g.rules, [2, "pawn", 1, "pawn", 0, "pawn"]) == "2 pawns 1 pawn 0 pawns"
    t = table(st, "red")
    assert t["plurals"] == {"pawn": "pawns"}
    assert _piece_words(t, {}, [["red", "pawn", 2], ["blue", "pawn", 1]]) == "[#ff0000]red 2 pawns[/]; [#0087ff]blue 1 pawn[/]"
    assert g.rules.counted(2, "pawn") == "2 pawns" and g.rules.counted(1, "pawn") == "1 pawn"
    import io

    from rich.console import Console

    from interpreter.cli.render import render
    out = io.StringIO()
    render(st, "red", Console(file=out, width=120))
    assert "2 pawns" in out.getvalue()  # the line-mode board
    Path(game, "game.yaml").write_text(text.replace("{pawn: pawns}", "{pawn: pawns, pwn: pwns}"))
    errors = [d for d in check_game(game) if d.severity == "error"]
    assert [(d.code, d.line) for d in errors] == [("E306", text.splitlines().index("  plurals: {pawn: pawns}") + 1)]
    assert "pawn" in errors[0].hint


def test_an_option_about_one_region_ends_with_its_line(tmp_path):
    st = load_game(_tiny(tmp_path, "where?")).new_game(seed=1)
    st.apply("choose:spot:north")
    lines = {o["value"]: o["line"] for o in _decision(st)["options"]}
    assert lines == {"north": "1 of yours cold", "south": "0 of yours"}


@pytest.mark.parametrize("prompt,wrong,hint", [
    # a local of one of the two places `spot` is asked only
    ('"where? ({extra} extra)"', "unknown name 'extra'", "where some 'spot' decisions are asked, not all"),
    ('"where? ({lef} left)"', "unknown name 'lef'", "did you mean 'left'"),
    ('"where? ({left left)"', "{ without its }", "{{"),
    ('"where? {left}}"', "} without its {", "}}"),
])
def test_a_prompt_reading_what_its_decision_does_not_have_is_reported(tmp_path, prompt, wrong, hint):
    diags = [d for d in check_game(_tiny(tmp_path, prompt)) if d.severity == "error"]
    assert len(diags) == 1 and wrong in diags[0].message and hint in diags[0].hint, [str(d) for d in diags]
    assert diags[0].path.endswith("game.yaml") and diags[0].line == 29


def test_a_prompt_with_a_value_must_name_a_decision(tmp_path):
    path = _tiny(tmp_path, "where?")
    text = Path(path, "game.yaml").read_text().replace('    again: "go on{{ }}?"', '    agian: "go on {turn_no}?"')
    Path(path, "game.yaml").write_text(text)
    diags = [d for d in check_game(path) if d.severity == "error"]
    assert len(diags) == 1 and "no decision is labelled 'agian'" in diags[0].message and "again" in diags[0].hint


# ------------------------------------------------------------------ the games
def _scenario(game: str, file: str, name: str, actions: int | None = None, **extra):
    """The state a game's scenario reaches (its first `actions` actions only, when given)."""
    sc = next(s for s, _, _ in load_scenarios(ROOT / "games" / game / "scenarios" / file) if s["name"] == name)
    sc = dict(sc, **extra)
    if actions is not None:
        sc["actions"] = sc["actions"][:actions]
    for k in ("expect", "log", "then_legal", "then_illegal", "winners", "victory"):
        sc.pop(k, None)
    return run_scenario(load_game(game), sc)


def test_a_confrontation_text_card_says_what_it_does():
    """001 "Card Mechanics": a text card has an effect instead of a value; choosing a card, the
    player reads each card's effect in short (its `brief:`), each strength card what it adds."""
    st = _scenario("confrontation", "cards.yaml", "Elven Cloak makes Sauron's strength card count zero", 2)
    d = _decision(st, "fellowship")
    assert d["prompt"] == "play which combat card? (in secret)"
    lines = {o["value"]: o["line"] for o in d["options"]}
    assert lines["elven_cloak"] == "Sauron's strength card counts 0"
    assert lines["noble_sacrifice"] == "both fighting characters fall"
    assert lines["f_retreat"] == "your character withdraws backwards, if it can"
    assert lines["f_magic"] == "swap it for one of your used cards"
    assert lines["f3"] == "adds 3 to strength"
    rules = st.rules
    for c, line in lines.items():
        assert line and line != "text card", c
        if rules.props[c]["special"]:
            assert line == rules.props[c]["brief"]


def test_the_deluxe_special_cards_say_what_they_do():
    st = load_game("confrontation", mods=("deluxe",)).new_game(seed=1)
    for _ in range(60):
        d = _decision(st)
        if d["prompt"].startswith("keep which special card"):
            break
        st.apply(st.legal_actions()[0])
    lines = {o["value"]: o["line"] for o in d["options"]}
    assert lines and all(st.rules.props[c]["brief"] in line and " · played " in line for c, line in lines.items())


@pytest.mark.parametrize("dice,choices,prompt", [
    (["character", "event"], ["choose:die:character"], "which action for the character die?"),
    (["army_muster", "event"], ["choose:die:army_muster"], "which action for the army/muster die?"),
    (["will", "event"], ["choose:die:will", "choose:will_as:muster"],
     "which action for the will of the West die, used as muster?"),
])
def test_war_of_the_ring_asks_which_action_for_the_die_it_names(dice, choices, prompt):
    """002 "Action Dice > Actions": what a die may do depends on its result, so the question
    names the die (and what a Will of the West is used as)."""
    st = _scenario("war-of-the-ring", "dice.yaml",
                   "a die is spent without effect only when the player discards it, and the log says so", 3)
    st.edit({"vars": {"dice.free_peoples": dice, "dice.shadow": []}})
    for a in ["choose:turn_action:use_die"] + choices:
        st.apply(a)
    assert st.pending["label"] == "action"
    assert _decision(st, "free_peoples")["prompt"] == prompt


def _wotr_dice(dice, *actions):
    """War of the Ring, turn 1, the Free Peoples to act with these dice (the Shadow has none)."""
    st = _scenario("war-of-the-ring", "dice.yaml",
                   "a die is spent without effect only when the player discards it, and the log says so", 3)
    st.edit({"vars": {"dice.free_peoples": dice, "dice.shadow": []}})
    for a in actions:
        st.apply(a)
    return _decision(st, "free_peoples"), st


def test_war_of_the_ring_options_name_decks_armies_and_combat_halves():
    d, _ = _wotr_dice(["event", "army"], "choose:turn_action:use_die", "choose:die:event", "choose:action:draw")
    assert d["prompt"] == "draw from which deck?"
    assert [o["text"] for o in d["options"]] == ["Free Peoples Character", "Free Peoples Strategy"]
    # an army to move: each region says which figures stand there
    d, st = _wotr_dice(["army"], "choose:turn_action:use_die", "choose:action:move_armies")
    lines = {o["value"]: o["line"] for o in d["options"]}
    assert lines["minas_tirith"] == "Gondor 3 regulars 1 elite 1 leader", lines
    assert lines["erebor"] == "Dwarves 1 regular 2 elites 1 leader", lines  # a word for one, one for more
    # an Event card: the die icon that plays it and its Combat half
    cards = [i for z in table(st, "free_peoples")["zones"] if z["id"] == "hand.free_peoples" for i in z["items"]]
    assert cards and all(c["line"] == f"{st.rules.display(st.rules.props[c['id']]['icon'])} icon · Combat: "
                         f"{st.rules.props[c['id']]['combat']}" for c in cards)
    # the Witch-king's level is unlimited (cards/characters.yaml writes it 99)
    assert item(st.rules, st, "witch_king", "shadow")["line"] == "level unlimited · leadership 2"


def test_risk_placements_say_who_holds_the_territory_and_what_is_left():
    """004 "Setup" and "Receive and Place Reinforcements": placing, a player sees each
    territory's battalions and whose they are, and how many are left to place."""
    game = load_game("risk")
    st = game.new_game(seed=1, players=3)
    d = _decision(st)
    assert d["prompt"] == "claim which territory?"
    assert d["options"] and all(o["line"].startswith("empty · ") for o in d["options"])
    while st.pending.get("label") == "claim":
        st.apply(st.legal_actions()[0])
    d = _decision(st)
    p = st.current_player
    left = st.vars[f"to_place.{p}"]
    assert d["prompt"] == f"put one more battalion on which territory? ({left} left to place)"
    n = game.expression("n(me, r)", names=("me", "r"))
    for o in d["options"]:
        land = st.rules.display(st.rules.props[o["value"]]["land"])
        assert o["line"] == f"{n(st, {'me': p, 'r': o['value']})} battalion(s), yours · {land}"
    # the turn's reinforcements: where, then how many there, with what is left to place
    for _ in range(400):
        if st.pending.get("label") == "place_on":
            break
        st.apply(st.legal_actions()[0])
    p = st.current_player
    d = _decision(st)
    income = st.vars["income"]
    assert d["prompt"] == f"place reinforcements on which territory? ({income} left to place)"
    assert all(o["line"].endswith(" · " + st.rules.display(st.rules.props[o["value"]]["land"])) and
               ", yours" in o["line"] for o in d["options"])
    st.apply(d["options"][0]["id"])
    where = st.rules.display(d["options"][0]["value"])
    assert _decision(st)["prompt"] == f"how many battalions on {where}? ({income} left to place)"
    st.apply("choose:how_many:1")
    if st.pending.get("label") == "place_on" and st.current_player == p:
        assert _decision(st)["prompt"] == f"place reinforcements on which territory? ({income - 1} left to place)"


def test_risk_invasion_questions_name_the_territories_and_count_both_sides():
    """004 "Step 2: Combat": the dice questions name the territory invaded and the battalions on
    each side; after a battle, the question counts those of the territory attacked from now (the
    invasion may switch to another: Invasion Continuation)."""
    st = _scenario("risk", "combat.yaml", "after a battle the attacker may switch to another territory next to "
                   "the invaded one, in the same invasion", 5)
    n = load_game("risk").expression("n(me, r)", names=("me", "r"))
    count = lambda p, t: n(st, {"me": p, "r": t})  # noqa: E731
    assert _decision(st, "yellow")["prompt"] == "attack Buckland with how many dice? (12 battalion(s) against 12)"
    st.apply("choose:attack_dice:3")
    assert _decision(st, "red")["prompt"] == "defend Buckland with how many dice? (12 battalion(s) against 12)"
    st.apply("choose:defence_dice:2")
    assert _decision(st, "yellow")["prompt"] == (f"go on attacking Buckland? ({count('yellow', 'the_shire')} "
                                                  f"battalion(s) in The Shire against {count('red', 'buckland')})")
    st.apply("choose:carry_on:switch")
    d = _decision(st, "yellow")
    assert d["prompt"] == "go on invading Buckland from which territory?"
    lines = {o["text"]: o["line"] for o in d["options"]}
    assert lines["Old Forest"] == "4 battalion(s), yours · Arnor"
    assert lines["Fornost"] == "2 battalion(s), yours + Leader · Arnor"
    st.apply("choose:attack_from:old_forest")
    assert _decision(st, "yellow")["prompt"].startswith("attack Buckland with how many dice? (4 battalion(s) against ")
    st.apply("choose:attack_dice:3")
    st.apply("choose:defence_dice:2")
    assert _decision(st, "yellow")["prompt"] == (f"go on attacking Buckland? ({count('yellow', 'old_forest')} "
                                                  f"battalion(s) in Old Forest against {count('red', 'buckland')})")


def test_a_duel_landmark_line_leaves_out_the_surcharge_the_dwarves_token_waives():
    """003 "Race alliances" (Dwarves token: no surcharge for your Fortresses): the tile's line says
    "+ 1 coin per Fortress of yours" only to a player who pays it; "you pay" is the price."""
    st = _scenario("duel", "tokens.yaml", "Dwarves token 1 - a Landmark's price leaves out the Fortress surcharge, and only that")
    mine = item(st.rules, st, "helms_deep", "fellowship")["line"]
    theirs = item(st.rules, st, "helms_deep", "sauron")["line"]
    assert mine.startswith("you pay 6 ") and "per Fortress" not in mine, mine
    assert theirs.startswith("you pay 8 ") and "+ 1 coin per Fortress of yours" in theirs, theirs


def test_a_confrontation_move_option_carries_the_characters_line():
    """An option naming one character and one region (move Frodo to Cardolan) is about the
    character: it carries the character's line (display: items: character), its strength and
    how it moves, so that a player choosing a move sees what each character can do."""
    st = _scenario("confrontation", "movement.yaml", "a Fellowship character moves exactly one region forward", 0)
    d = _decision(st, "fellowship")
    go = {o["id"]: o for o in d["options"]}
    o = go["go:frodo:cardolan"]
    assert o["about"] == "frodo"
    assert o["line"] == "strength 1 · moves one region forward"
