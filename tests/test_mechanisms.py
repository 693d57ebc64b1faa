"""Generic engine mechanisms, on a tiny test game (tests/games/toy) so that each one is
checked apart from any real game: any_order, optional choices, where-filters, event
listeners, condition triggers (once and edge), owner-only zones and variables, directed
connections, the step budget, and errors without tracebacks."""
import json
import re
from pathlib import Path

import pytest

from interpreter import EngineError, IllegalAction, load_game

TOY = str(Path(__file__).parent / "games" / "toy")


@pytest.fixture(scope="module")
def toy():
    return load_game(TOY)


def test_owner_only_zone_and_hidden_variable(toy):
    st = toy.new_game(seed=1)
    assert st.view("red")["zones"]["hand.red"] == st.zones["hand.red"]
    assert st.view("blue")["zones"]["hand.red"] == {"count": 2}
    assert st.view("blue")["zones"]["bag"] == {"count": 1}
    assert "secret.red" in st.view("red")["vars"] and "secret.red" not in st.view("blue")["vars"]


def test_directed_connection(toy):
    assert "east" in toy.rules.adj["south"] and "south" not in toy.rules.adj["east"]
    assert set(toy.rules.adj["north"]) == {"south"}


def test_any_order_offers_each_branch_once_and_skips_false_ones(toy):
    st = toy.new_game(seed=1)
    st.apply("order_test")
    ids = [a.id for a in st.legal_actions()]
    assert ids == ["order:steps:a", "order:steps:b"]  # branch c has a false condition
    st.apply("order:steps:b")
    # one branch left: it runs without asking
    assert st.vars["log_order"] == 21
    assert st.current_player == "blue"


def test_optional_choice_with_where_filter(toy):
    st = toy.new_game(seed=1)
    st.apply("up_to_two")
    assert {a.id for a in st.legal_actions()} == {"choose:spot:north", "choose:spot:south",
                                                     "choose:spot:east", "choose:spot:none"}
    st.apply("choose:spot:south")
    ids = {a.id for a in st.legal_actions()}
    assert "choose:spot:south" not in ids and "choose:spot:none" in ids  # where-filter
    st.apply("choose:spot:none")
    assert st.vars["secret.red"] == 1 and st.pieces[("pawn", "red", "south")] == 1


def test_listener_and_once_trigger_end_the_game(toy):
    st = toy.new_game(seed=1)
    st.apply("pick:c4")          # 4 >= 3: the listener adds 100
    assert st.vars["score.red"] == 104
    st.apply("pass")
    assert not st.over
    st.apply("pick:c1")          # 105: no listener
    assert st.vars["score.red"] == 105
    st.apply("pick:c5")          # blue 105
    assert not st.over
    assert st.legal_actions()    # red has no chips left: pass / order_test is gone (score > 0)
    ids = {a.id for a in st.legal_actions()}
    assert ids == {"pass", "up_to_two"}


def test_edge_trigger_fires_each_time_the_condition_becomes_true(toy):
    st = toy.new_game(seed=1)
    st.apply("pick:c1")   # table 1: odd -> fires
    assert st.vars["edge_hits"] == 1
    st.apply("pick:c2")   # table 2: even -> re-arms
    assert st.vars["edge_hits"] == 1
    st.apply("pick:c4")   # table 3: odd -> fires again
    assert st.vars["edge_hits"] == 2


def test_step_budget_stops_a_looping_rule_without_hanging(toy):
    st = toy.new_game(seed=1, options={"budget_loop": True})
    with pytest.raises(EngineError, match="step budget"):
        st.apply("forever")


def test_atomic_apply_leaves_the_state_unchanged_when_a_rule_fails(toy):
    st = toy.new_game(seed=1, options={"budget_loop": True})
    before = st.to_json()
    with pytest.raises(EngineError):
        st.apply("forever", atomic=True)
    assert st.to_json() == before
    st.apply("pick:c1", atomic=True)  # and the game goes on
    assert st.vars["score.red"] == 1


def test_unknown_option_is_refused(toy):
    with pytest.raises(ValueError, match="unknown option"):
        toy.new_game(seed=1, options={"nope": 1})


def test_illegal_choice_mid_effect(toy):
    st = toy.new_game(seed=1)
    st.apply("up_to_two")
    before = st.to_json()
    with pytest.raises(IllegalAction):
        st.apply("choose:spot:west")
    assert st.to_json() == before


def test_interpreter_names_no_game_noun():
    import re

    nouns = re.compile(r"\b(frodo|sam|gandalf|aragorn|sauron|saruman|mordor|shire|nazg[uû]l|fellowship|"
                       r"hobbits?|gondor|rohan|balrog|orcs?|elves|dwarves|ents)\b", re.I)
    root = Path(__file__).resolve().parents[1] / "interpreter"
    hits = [f"{p}:{i}" for p in root.rglob("*.py") for i, line in enumerate(p.read_text().splitlines(), 1)
            if nouns.search(line)]
    assert not hits, hits


def test_dice_are_rolled_from_the_state_and_paired_after_sorting(toy):
    """DSL-BREADTH 24 (Risk): roll, sort highest first, compare pairwise; the roll is seeded
    in the state, so the same seed gives the same dice."""
    roll3 = toy.expression("sort([roll(6) for i in range(0, 3)], descending=true)", names=())
    pair = toy.expression(
        "[i for i in range(0, min(count(sort([6, 2, 4], descending=true)), count([5, 5]))) "
        "if sort([6, 2, 4], descending=true)[i] > sort([5, 5], descending=true)[i]]", names=())
    a, b = toy.new_game(seed=9), toy.new_game(seed=9)
    da, db = roll3(a, {}), roll3(b, {})
    assert da == db and da == sorted(da, reverse=True) and all(1 <= d <= 6 for d in da)
    assert a.rng == b.rng != toy.new_game(seed=9).rng  # rolling advanced the state's random source
    assert pair(a, {}) == [0]  # 6 beats 5; 4 does not beat 5


def test_secret_simultaneous_choice_is_hidden_until_both_have_chosen(toy):
    """DSL-BREADTH 19 (Confrontation): the second player chooses without seeing the first
    choice; it lives in the interpreter's frame, which no view shows."""
    import json

    st = toy.new_game(seed=1)
    st.apply("secret")
    assert st.current_player == "red"
    red_pick = st.zones["hand.red"][0]
    st.apply(f"choose:red_card:{red_pick}")
    assert st.current_player == "blue"
    assert red_pick not in json.dumps(st.view("blue"))
    assert red_pick not in json.dumps(st.view(None))
    blue_pick = st.zones["hand.blue"][0]
    st.apply(f"choose:blue_card:{blue_pick}")
    assert st.log_for(None)[-1] == f"revealed: red {red_pick} blue {blue_pick}"


# ---------------------------------------------------------------- the tiles game
@pytest.fixture(scope="module")
def tiles():
    return load_game(str(Path(__file__).resolve().parent / "games" / "tiles"))


def _holds(game, st, *texts):
    for text in texts:
        f = game.expression(text)
        assert f(st, {"me": st.current_player}), text


def test_connection_kinds_one_way_and_reach(tiles):
    st = tiles.new_game(seed=1, players=2)
    _holds(tiles, st,
           "adjacent(a, 'road') == [b]",
           "adjacent_from(b, 'road') == [a] and adjacent_from(a, 'road') == []",
           "sort(adjacent(a)) == [b, c] and adjacent(b) == [c]",
           "adjacent(c, 'path') == [a] and adjacent(a, 'path') == [c]",
           "reach(a, 'road', [b, c]) == [b, c, d]",
           "reach(a, 'road', [b]) == [b, c]",          # stops after c: c is not passable
           "reach(a, 'road', []) == [b]",
           "reach(d, 'road', regions(), true) == [c, b, a]",
           "reach(a, 'road', [b, c], false, [[c, b]]) == [b]",   # a connection to avoid, either way
           "key_of(zone_of(r1)) == a and key_of(charms[red]) == red")


def test_an_owned_item_faces_its_owner(tiles):
    st = tiles.new_game(seed=1, players=2)
    assert st.view("red")["zones"]["at.a"] == ["r1"]
    assert st.view("blue")["zones"]["at.a"] == ["?red"]
    assert st.view(None)["zones"]["at.c"] == ["?blue"]
    st.apply("show:r1")
    assert st.view("blue")["zones"]["at.a"] == ["r1"]


def test_a_private_move_shows_others_its_public_text(tiles):
    st = tiles.new_game(seed=1, players=2)
    st.apply("step:r1:b")
    assert st.log_for("red")[-1] == "red: move r1 to B"  # region names default to Title case
    assert st.log_for("blue")[-1] == "red: moves a tile to B"
    assert st.log_for(None)[-1] == "red: moves a tile to B"
    assert st.view("blue")["zones"]["at.b"] == ["?red"]  # a move keeps the tile hidden


def test_an_item_condition_decides_when_it_is_usable(tiles):
    st = tiles.new_game(seed=1, players=2)
    ids = [a.id for a in st.legal_actions()]
    assert "use:bell" in ids and "use:lucky" not in ids
    st.vars["marks"] = 5
    st._legal = None
    st._memo.clear()
    assert "use:lucky" in [a.id for a in st.legal_actions()]


def test_listener_conditions_are_read_in_turn(tiles):
    """The game's listener (game listeners come first) raises marks to 1; the charm's ability
    condition (marks == 1) is read after that, so it applies too."""
    st = tiles.new_game(seed=1, players=2)
    st.apply("ping")
    assert st.vars["marks"] == 11
    st.apply("ping")                 # blue pings: neither condition holds any more
    assert st.vars["marks"] == 11


def test_seating_depends_on_the_number_of_players(tiles):
    assert tiles.player_counts == [2, 3]
    two = tiles.new_game(seed=1, players=2)
    three = tiles.new_game(seed=1)                  # the largest seating by default
    _holds(tiles, two, "players() == [red, blue] and other(blue) == red")
    _holds(tiles, three, "players() == [blue, green, red] and next_player(red) == blue")
    assert three.current_player == "red"            # the flow starts with `current: red`
    with pytest.raises(ValueError, match="played by 2, 3 players"):
        tiles.new_game(seed=1, players=4)
    back = tiles.state_from_json(three.to_json())
    assert back.seats == ("blue", "green", "red") and back.to_json() == three.to_json()


# ------------------------------------------------------------------ showing to one player
def test_reveal_to_shows_a_hidden_item_to_one_player_only():
    from interpreter.agents import MCTSAgent

    game = load_game(str(TOY), mods=["peek"])
    st = game.new_game(seed=3)
    top = st.zones["bag"][-1]
    st.apply("peek")                                   # red peeks at the bag's top chip
    assert st.view("red")["zones"]["bag"] == {"count": len(st.zones["bag"]), "known": [top]}
    assert "known" not in st.view("blue")["zones"]["bag"]
    assert top not in json.dumps(st.view("blue"))
    # red's agents do not resample what red has seen; blue's may
    agent = MCTSAgent(seed=1)
    assert all(st.resample("red", agent.rng).zones["bag"][-1] == top for _ in range(20))
    assert any(st.resample("blue", agent.rng).zones["bag"][-1] != top for _ in range(40))
    # it survives a save, and a shuffle of its zone forgets it
    again = game.state_from_json(st.to_json())
    assert again.view("red")["zones"]["bag"]["known"] == [top]
    st.apply("stir")                                   # blue shuffles the bag
    assert "known" not in st.view("red")["zones"]["bag"] and not st.shown


def test_reveal_to_a_card_in_another_players_hand_and_known_to():
    game = load_game(str(TOY), mods=["peek"])
    st = game.new_game(seed=3)
    card = st.zones["hand.blue"][0]
    st.apply("spy")
    assert st.view("red")["zones"]["hand.blue"]["known"] == [card]
    from interpreter.engine.primitives import IMPL
    known_to = IMPL["known_to"]
    assert known_to(st, card, "red") and known_to(st, card, "blue")
    assert not known_to(st, st.zones["hand.red"][0], "blue")
    st.apply(f"pick:{st.zones['hand.blue'][0]}")       # blue plays it: it moves, face up for all
    assert known_to(st, card, "red") and card not in st.shown


def _toy_variant(tmp_path, old, new):
    import shutil

    game = tmp_path / "toy"
    shutil.copytree(TOY, game, ignore=shutil.ignore_patterns("mods"))
    text = (game / "game.yaml").read_text()
    assert old in text
    (game / "game.yaml").write_text(text.replace(old, new))
    return load_game(str(game))


STEPS = """      any_order steps {
        a { log_order = log_order * 10 + 1 }
        b { log_order = log_order * 10 + 2 }
        c if false { log_order = 99 }
      }"""


def test_any_order_tests_the_conditions_of_the_branches_left_only(tmp_path):
    """Branch a's condition fails once a has run (6 / 0): it is not tested again, so b and c
    run in turn without error. At first only a's holds: it runs without asking."""
    game = _toy_variant(tmp_path, STEPS, """      any_order steps {
        a if 6 / (log_order + 1) > 0 { log_order = -1 }
        b if log_order == -1 { log_order = -10 }
        c if log_order == -10 or log_order == -1 { log_order = -100 }
      }""")
    st = game.new_game(seed=1)
    st.apply("order_test")
    assert st.vars["log_order"] == -1
    assert [a.id for a in st.legal_actions()] == ["order:steps:b", "order:steps:c"]
    st.apply("order:steps:b")  # c, the last one left, runs at once
    assert st.vars["log_order"] == -100 and st.current_player == "blue"


def test_a_choice_and_an_order_with_one_label_keep_their_own_actions(tmp_path):
    """A choice labelled like an any_order: each decision lists its own action ids and texts
    (the Actions kept for reuse are filed by the kind of decision too)."""
    game = _toy_variant(tmp_path, STEPS, """      choose r in regions() label order
      any_order order {
        north { log_order = 1 }
        south { log_order = 2 }
      }""")
    st = game.new_game(seed=3)
    st.apply("order_test")
    assert "choose:order:north" in [a.id for a in st.legal_actions()]
    st.apply("choose:order:north")
    assert [(a.id, a.label) for a in st.legal_actions()] == [
        ("order:order:north", "order: north next"), ("order:order:south", "order: south next")]


def test_a_trigger_fired_by_a_blocks_last_write_runs_above_the_finished_frame(tmp_path):
    """A block's last statement writes and a trigger fires that asks a player: the trigger runs
    above the finished frame, which leaves only after it (vm.end). The stack at that decision is
    part of a save: it stays as it was before the loop took finished frames away itself
    (codegen END_RUN), so saves made before load the same. Then play goes on as before."""
    _toy_variant(tmp_path, """  pass:
    do: log('{} passes', me)""", """  pass:
    do: |
      log('{} passes', me)
      move_top(hand[me], table, 1)""")
    text = (tmp_path / "toy" / "game.yaml").read_text()
    (tmp_path / "toy" / "game.yaml").write_text(text.replace(
        "    once: false\n    do: edge_hits += 1",
        "    once: false\n    do: |\n      choose r in regions() by blue label edge_pick\n      edge_hits += 1"))
    game = load_game(str(tmp_path / "toy"))
    st = game.new_game(seed=1)
    flow_frames = len(st.stack)
    st.apply("pass")                       # red's chip goes to the table: 1 chip, odd: the trigger asks
    assert st.pending["label"] == "edge_pick" and st.current_player == "blue"
    moved = st.stack[-2]                   # the move's frame, its two statements done
    assert len(st.stack) == flow_frames + 2 and moved[1] == 2
    assert game.state_from_json(st.to_json()).to_json() == st.to_json()
    st.apply("choose:edge_pick:north")
    assert st.vars["edge_hits"] == 1 and len(st.stack) == flow_frames
    assert st.pending["type"] == "ask" and st.current_player == "blue"


ONE_OF = """  pass:
    do: log('{} passes', me)"""
ONE_OF_MOVE = """  pass:
    do: |
      one_of mood {
        cheer { log_order = 1 }
        sulk { log_order = 2 }
        rest { log_order = 3 }
      }
      if log_order == 3 { end_game([me], 'rested') }"""


def _toy_with_display(tmp_path, display: str):
    game = tmp_path / "toy"
    _toy_variant(tmp_path, ONE_OF, ONE_OF_MOVE)
    text = (game / "game.yaml").read_text().replace("display:\n", "display:\n" + display, 1)
    (game / "game.yaml").write_text(text)
    return game


def test_display_choices_and_victories_say_in_words_what_was_chosen_and_won(tmp_path):
    """display: choices: is how a one_of's branch reads in the log ({} the player who chose; an
    empty text logs nothing); display: victories: how a victory reads. Without them the log keeps
    the raw label and branch, as before (saves of games without them do not change)."""
    game = load_game(str(_toy_with_display(tmp_path, """  choices:
    mood: {cheer: '{} cheers up', sulk: ''}
  victories:
    rested: a good night's sleep
""")))
    st = game.new_game(seed=1)
    st.apply("pass")
    st.apply("choose:mood:cheer")
    assert st.log_for()[-1] == "red cheers up"
    st.apply("pass")
    n = len(st.log_for())
    st.apply("choose:mood:sulk")                       # an empty text: nothing logged
    assert len(st.log_for()) == n and st.vars["log_order"] == 2
    st.apply("pass")
    st.apply("choose:mood:rest")                       # no text for rest: the raw line
    assert st.log_for()[-2:] == ["red: mood: rest", "game over: red wins (a good night's sleep)"]
    plain = load_game(str(_toy_with_display(tmp_path / "plain", "")))
    st = plain.new_game(seed=1)
    st.apply("pass")
    st.apply("choose:mood:rest")
    assert st.log_for()[-2:] == ["red: mood: rest", "game over: red wins (rested)"]


@pytest.mark.parametrize("scores, error", [
    ("[3, -3]", None),
    ("[3]", "end_game scores need one number per seated player (2), got a list of 1"),
    ("[true, false]", "end_game scores need one number per seated player (2)"),   # (no number)
    ("['3', '-3']", "end_game scores need one number per seated player (2)"),
])
def test_end_game_scores_are_one_number_per_seat(tmp_path, scores, error):
    """end_game(winners, victory, scores): scores are kept by seat (agents and statistics read
    them) and logged after the winner; a list of another length, or of anything but numbers, is a
    rule error naming the move, and the game goes on as it was."""
    text = (_toy_with_display(tmp_path, "  victories:\n    rested: a long rest\n") / "game.yaml").read_text()
    (tmp_path / "toy" / "game.yaml").write_text(text.replace("end_game([me], 'rested')", f"end_game([me], 'rested', {scores})"))
    game = load_game(str(tmp_path / "toy"))
    st = game.new_game(seed=1)
    st.apply("pass")
    if error is not None:
        with pytest.raises(EngineError, match=re.escape(error)) as e:
            st.apply("choose:mood:rest", atomic=True)
        assert "move pass" in str(e.value) and not st.over and st.scores is None
        return
    st.apply("choose:mood:rest")
    assert st.over and st.winners == ["red"] and st.scores == {"red": 3, "blue": -3}
    assert st.log_for()[-1] == "game over: red wins (a long rest); red 3, blue -3"


def test_a_victory_with_braces_is_written_out_as_it_is(tmp_path):
    """A victory named with braces in end_game is logged as it is ({} is no player's name
    there); display: victories: holds plain texts only, and says so."""
    game = _toy_variant(tmp_path, ONE_OF, ONE_OF_MOVE.replace("end_game([me], 'rested')", "end_game([me], 'a {} rest', [3, -3])"))
    st = game.new_game(seed=1)
    st.apply("pass")
    st.apply("choose:mood:rest")
    assert st.log_for()[-1] == "game over: red wins (a {} rest); red 3, blue -3"
    from interpreter import check_game

    diags = check_game(str(_toy_with_display(tmp_path / "b", "  victories:\n    rested: 'a {long} rest'\n")))
    got = [(d.code, d.message, d.hint) for d in diags if d.severity == "error"]
    assert got == [("E101", "'a {long} rest' is not allowed here (at display/victories/rested)",
                    "a plain text, without braces (a log line's {} is filled with a name)")]


def test_display_choices_and_victories_must_name_what_the_rules_have(tmp_path):
    from interpreter import check_game

    diags = check_game(str(_toy_with_display(tmp_path, """  choices:
    moood: {cheer: x}
    mood: {cheeer: x}
  victories:
    rested_well: x
""")))
    got = {(d.code, d.message) for d in diags}
    assert ("E306", "no one_of is labelled 'moood'") in got
    assert ("E306", "one_of mood has no branch 'cheeer'") in got
    assert ("E306", "no end_game names the victory 'rested_well'") in got
    hints = " ".join(d.hint for d in diags)
    assert "mood" in hints and "cheer" in hints and "rested" in hints
    lines = (tmp_path / "toy" / "game.yaml").read_text().splitlines()
    by = {d.message: lines[d.line - 1] for d in diags if d.code == "E306"}
    assert "moood" in by["no one_of is labelled 'moood'"] and "cheeer" in by["one_of mood has no branch 'cheeer'"]


def test_pieces_shifted_from_or_to_none_stay_where_they_are(tmp_path):
    """A choice among no places gives none: shift, place and remove with none as a place move
    nothing. They made a pile at no place, which no rule could find again: pieces lost (War of
    the Ring's The Eagles are Coming! with no Sauron stronghold left to fly to)."""
    game = _toy_variant(tmp_path, "    do: log('{} passes', me)", """    do: |
      shift(pawn, me, 2, supply, none)
      place(pawn, me, 1, none)
      remove(pawn, me, 1, none)
      shift(pawn, me, 1, none, supply)
      log('{} passes', me)""")
    st = game.new_game(seed=1)
    before = dict(st.pieces)
    st.apply("pass")
    assert st.pieces == before and sum(v for (k, _, _), v in st.pieces.items() if k == "pawn") == 6


LISTENING = """\
kind: game
name: listening
players: [red, blue]
vars:
  heard: 0
  picks: {per: players, init: 0}
events:
  rang: {by: player, n: int}
listeners:
  - event: rang
    if: n > 1
    do: heard += n
  - event: rang
    if: "[0, 5][n] > 0"          # fails at run time for n = 2 (past the end of the list)
    do: heard += 100
moves:
  ring:
    id: "ring:{n}"
    args: {n: "[0, 1, 2]"}
    do: |
      emit rang(by=me, n=n)
      picks[me] += 1
flow: |
  while true { ask ring by red }
"""


def test_an_event_that_no_listener_takes_lets_its_statement_go_on_and_a_failing_condition_names_its_listener(tmp_path):
    """emit offers the event to its listeners at once: when none applies the emitting rule goes
    on in the same step (picks rises); when one applies its effect runs first. A listener's
    condition that fails is named by the listener's own file and line, not by the engine."""
    (tmp_path / "game.yaml").write_text(LISTENING)
    game = load_game(str(tmp_path))
    st = game.new_game(seed=1)
    st.apply("ring:0")                       # neither listener applies
    assert (st.vars["heard"], st.vars["picks.red"]) == (0, 1)
    st.apply("ring:1")                       # the second one: [0, 5][1] > 0
    assert (st.vars["heard"], st.vars["picks.red"]) == (100, 2)
    before = st.to_json()
    with pytest.raises(EngineError) as err:
        st.apply("ring:2", atomic=True)      # the first adds 2; then the second's condition fails
    line = LISTENING.splitlines().index("    do: heard += 100") + 1
    assert f"game.yaml:{line}" in str(err.value) and "past the end" in str(err.value), str(err.value)
    assert st.to_json() == before            # (atomic: the state is as it was)


def test_a_local_names_a_zone_and_a_list_is_a_value(tmp_path, monkeypatch):
    """`let here = hand[me]` names the zone: it reads the hand as it is when read; `let kept =
    [c for c in hand[me]]` is a list, kept as it was made. Both read alike whichever state owns
    the zone's list (a new game shares it with the starting position, a clone with its
    original: State.zone_list)."""
    import shutil

    game = tmp_path / "toy"
    shutil.copytree(TOY, game)
    text = (game / "game.yaml").read_text()
    text = text.replace("moves:\n", "moves:\n  keep:\n    do: |\n      let here = hand[me]\n"
                        "      let kept = [c for c in hand[me]]\n      move(hand[me][0], table)\n"
                        "      score[me] = count(here) * 10 + count(kept)\n", 1)
    text = text.replace("ask pick, pass,", "ask keep, pick, pass,", 1)
    (game / "game.yaml").write_text(text)
    from interpreter.model import state

    g = load_game(str(game))
    for share in (16, 0):  # the toy's few zones copied at once; then shared, as a big game's are
        monkeypatch.setattr(state, "SHARE_ZONES", share)
        for st in (g.new_game(seed=1), g.new_game(seed=1).clone()):
            assert (st._zown is None) == (share == 16)
            st.apply("keep")
            assert st.vars["score.red"] == 12  # one card left in the hand; two when the list was made
