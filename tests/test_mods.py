"""Mods: YAML overlays (add, replace, patch, remove) applied over a game, on the toy game.

The mods live in tests/games/toy/mods/: extra (adds a move, a trigger and a chip, replaces the
flow), needs_extra (requires extra, patches its move), rework (replaces a procedure under a
new signature, patches a zone), trim (removes an item, a region and a trigger, replaces an
item), and broken ones; every problem must be reported at the mod file's own line."""
import shutil
from pathlib import Path

import pytest

from interpreter import RuleError, check_game, load_game
from interpreter.cli import main
from interpreter.loading.loader import load_spec
from interpreter.loading.yamlsrc import Source
from interpreter.scenario import run_file

TOY = Path(__file__).parent / "games" / "toy"
MODS = TOY / "mods"


def at(file: Path, text: str, nth: int = 0):
    """(line, col), 1-based, of the nth occurrence of text in a file."""
    hits = [(i, line.index(text) + 1) for i, line in enumerate(file.read_text().splitlines(), 1) if text in line]
    return hits[nth]


def diags_at(diags, file: Path, code: str):
    return [(d.line, d.col) for d in diags if d.code == code and Path(d.path).resolve() == file.resolve()]


def find(diags, code, file: Path, line: int, text: str = ""):
    """The one diagnostic with this code, file and line (whose message or hint holds text)."""
    hits = [d for d in diags if d.code == code and Path(d.path).resolve() == file.resolve() and d.line == line
            and text in d.message + d.hint]
    assert len(hits) == 1, "\n".join(map(str, diags))
    return hits[0]


# ------------------------------------------------------------------ behaviour
def test_without_mods_the_game_source_is_the_plain_file():
    spec = load_spec(str(TOY))
    assert type(spec.game.source) is Source and not spec.diags


def test_an_added_move_is_offered_and_works():
    assert "bonus" not in {a.id for a in load_game(str(TOY)).new_game(seed=1).legal_actions()}
    game = load_game(str(TOY), mods=["extra"])
    st = game.new_game(seed=1)
    assert "bonus" in {a.id for a in st.legal_actions()}
    st.apply("bonus")
    assert st.vars["score.red"] == 7
    assert st.current_player == "blue"
    # the added item and trigger are there too
    assert game.rules.props["c6"]["value"] == 6 and st.where["c6"] == "table"
    assert [t.id for t in game.rules.triggers] == ["win", "edge", "quick_win"]


def test_a_mod_is_found_by_path_or_by_name_under_the_game():
    by_name = load_game(str(TOY), mods=["extra"])
    by_path = load_game(str(TOY), mods=[MODS / "extra"])
    assert by_name.rules.digest == by_path.rules.digest


def test_mod_files_count_in_the_sources_and_the_rules_digest():
    spec = load_spec(str(TOY), mods=["extra"])
    names = {Path(s.path).name for s in spec.sources}
    assert {"mod.yaml", "chips.yaml"} <= names
    assert load_game(str(TOY)).rules.digest != load_game(str(TOY), mods=["extra"]).rules.digest


def test_replace_matches_a_procedure_by_name_and_patch_sets_zone_keys():
    base = load_game(str(TOY)).new_game(seed=1)
    assert len(base.zones["hand.red"]) == 2 and base.view("blue")["zones"]["bag"] == {"count": 1}
    st = load_game(str(TOY), mods=["rework"]).new_game(seed=1)
    assert len(st.zones["hand.red"]) == 1  # draw(count) draws count - 1
    assert st.view("blue")["zones"]["bag"] == st.zones["bag"] and len(st.zones["bag"]) == 3  # now public


def test_remove_items_regions_and_triggers_and_replace_an_item():
    game = load_game(str(TOY), mods=["trim"])
    r = game.rules
    assert "c5" not in r.items and len(r.items) == 4
    assert r.props["c1"]["value"] == 10 and r.props["c1"]["suit"] == "swords"
    assert r.regions == ["north", "south"] and r.adj == {"north": ("south",), "south": ("north",)}
    assert [t.id for t in r.triggers] == ["win"]
    st = game.new_game(seed=1)  # still plays: four chips, two in each hand
    assert not st.zones["bag"] and len(st.zones["hand.red"]) == len(st.zones["hand.blue"]) == 2


def test_a_later_mod_builds_on_an_earlier_one():
    game = load_game(str(TOY), mods=["extra", "needs_extra"])
    st = game.new_game(seed=1)
    st.apply("bonus")
    st.apply("pass")
    assert "bonus" in {a.id for a in st.legal_actions()}  # patched condition: score < 100, not < 7


def test_independent_mods_combine():
    game = load_game(str(TOY), mods=["trim", "rework", "extra"])
    st = game.new_game(seed=1)
    assert "c5" not in game.rules.items and len(st.zones["hand.red"]) == 1
    assert "bonus" in {a.id for a in st.legal_actions()}


# ------------------------------------------------------------------ problems, at the mod's line
@pytest.fixture(scope="module")
def broken():
    return check_game(str(TOY), mods=["broken"])


def test_a_broken_mod_raises_with_every_problem():
    with pytest.raises(RuleError) as exc:
        load_game(str(TOY), mods=["broken"])
    assert len(exc.value.diagnostics) >= 10


def test_unknown_entries_are_reported_with_a_suggestion(broken):
    f = MODS / "broken" / "mod.yaml"
    d = find(broken, "E005", f, at(f, "passs")[0])
    assert "cannot remove moves entry 'passs'" in d.message and "did you mean 'pass'?" in d.hint
    d = find(broken, "E005", f, at(f, "drow(n)")[0])
    assert "cannot replace procedures entry 'drow'" in d.message and "did you mean 'draw'?" in d.hint
    d = find(broken, "E005", f, at(f, "tabel")[0])
    assert "cannot patch zones entry 'tabel'" in d.message and "did you mean 'table'?" in d.hint
    d = find(broken, "E101", f, at(f, "procedure:")[0])
    assert "'procedure' is not a section" in d.message and "did you mean 'procedures'?" in d.hint
    assert find(broken, "E101", f, at(f, "flow: {}")[0], "one value")
    d = find(broken, "E101", f, at(f, "tock")[0])
    assert d.message == "id 'tock' differs from the entry's name 'tick'"


def test_adding_an_existing_entry_or_item_names_the_first(broken):
    f = MODS / "broken" / "mod.yaml"
    d = find(broken, "E305", f, at(f, "pass:")[0])
    assert (d.col, d.message) == (at(f, "pass:")[1], "moves entry 'pass' already exists")
    assert f"game.yaml:{at(TOY / 'game.yaml', '  pass:')[0]}" in d.hint
    cards = MODS / "broken" / "cards.yaml"
    d = find(broken, "E305", cards, at(cards, "c2")[0])
    assert f"items.yaml:{at(TOY / 'items.yaml', 'id: c2')[0]}" in d.hint
    rep = MODS / "broken" / "replace.yaml"
    assert "cannot replace items entry 'c9'" in find(broken, "E005", rep, at(rep, "c9")[0]).message


def test_a_dsl_error_in_a_mod_entry_points_at_the_mod(broken):
    f = MODS / "broken" / "mod.yaml"
    d = find(broken, "E301", f, at(f, "scor[me]")[0])
    assert d.col == at(f, "scor[me]")[1] and "'scor'" in d.message
    assert not [x for x in broken if x.path.endswith("game.yaml")]


def test_a_schema_error_in_a_patched_key_points_at_the_patch(broken):
    f = MODS / "broken" / "mod.yaml"
    d = find(broken, "E101", f, at(f, "sideways")[0])
    assert d.col == at(f, "sideways")[1] and "'sideways' is not one of" in d.message


def test_a_dsl_error_in_a_patched_key_points_at_the_patch(tmp_path):
    mod = tmp_path / "typo"
    mod.mkdir()
    (mod / "mod.yaml").write_text("kind: mod\nname: typo\nversion: 1\ngame: toy\n"
                                  "patch:\n  moves:\n    order_test:\n      if: scroe[me] == 0\n")
    diags = check_game(str(TOY), mods=[str(mod)])
    assert diags_at(diags, mod / "mod.yaml", "E301") == [(8, 11)], diags


def test_two_mods_changing_one_entry_conflict():
    diags = check_game(str(TOY), mods=["rework", "clash"])
    f = MODS / "clash" / "mod.yaml"
    first = f"rework/mod.yaml:{at(MODS / 'rework' / 'mod.yaml', 'draw(count)')[0]}"
    for marker in ("draw: {}", "draw(n):"):
        d = find(diags, "E005", f, at(f, marker)[0])
        assert "procedures entry 'draw' was already replaced by mod 'rework'" in d.message and first in d.message
    # alone, clash still changes draw twice: its patch runs after its own replace
    [d] = check_game(str(TOY), mods=["clash"])
    assert d.line == at(f, "draw: {}")[0] and "already replaced by mod 'clash' at" in d.message


def test_requires_must_be_loaded_earlier_in_a_fitting_version(tmp_path):
    f = MODS / "needs_extra" / "mod.yaml"
    for mods in (["needs_extra"], ["needs_extra", "extra"]):
        diags = check_game(str(TOY), mods=mods)
        d = find(diags, "E004", f, at(f, "name: extra")[0])
        assert "requires mod 'extra', which is not loaded before it" in d.message
        assert not [x for x in diags if x.code == "E005"]  # the mod is not applied: no cascade
    later = tmp_path / "later"
    shutil.copytree(MODS / "needs_extra", later)
    (later / "mod.yaml").write_text((later / "mod.yaml").read_text().replace(">=1.0, <2", ">=2"))
    diags = check_game(str(TOY), mods=["extra", str(later)])
    d = find(diags, "E004", later / "mod.yaml", at(later / "mod.yaml", ">=2")[0])
    assert "requires extra >=2, but extra is version 1.2.0" in d.message and "extra/mod.yaml:4" in d.hint


def test_a_mod_for_another_game_is_refused():
    f = MODS / "wrong_game" / "mod.yaml"
    diags = check_game(str(TOY), mods=["wrong_game"])
    d = find(diags, "E004", f, at(f, "game: duel")[0])
    assert "'duel'" in d.message and "'toy'" in d.message and "toy/game.yaml:3" in d.hint


def test_a_bad_manifest_is_reported():
    f = MODS / "bad_manifest" / "mod.yaml"
    diags = check_game(str(TOY), mods=["bad_manifest"])
    assert "did you mean 'remove'?" in find(diags, "E101", f, at(f, "remvoe")[0]).hint
    assert "'version' is a required property" in find(diags, "E101", f, 1).message
    assert len(diags) == 2


def test_missing_mods_and_folders_without_a_manifest(tmp_path):
    diags = check_game(str(TOY), mods=["extar", str(tmp_path)])
    assert [d.code for d in diags] == ["E002", "E002"]
    assert any("mod 'extar' not found" in d.message and "did you mean 'extra'?" in d.hint for d in diags)
    assert any(d.message == f"no mod.yaml in {tmp_path}" or "no mod.yaml" in d.message for d in diags)


def test_the_same_mod_twice_is_refused():
    diags = check_game(str(TOY), mods=["extra", "extra"])
    assert [(d.code, d.message) for d in diags] == [("E004", "mod 'extra' is loaded twice")]


def test_mode_replace_belongs_to_mods(tmp_path):
    game = tmp_path / "toy"
    shutil.copytree(TOY, game, ignore=shutil.ignore_patterns("mods"))
    (game / "items.yaml").write_text((game / "items.yaml").read_text().replace("type: chip", "type: chip\nmode: replace"))
    diags = check_game(str(game))
    assert [(d.code, d.line) for d in diags] == [("E101", 3)] and "only for a mod" in diags[0].message


# ------------------------------------------------------------------ command line and scenarios
def test_validate_with_mods(capsys):
    assert main(["validate", str(TOY), "--mod", "extra", "--mod", "needs_extra"]) == 0
    assert main(["validate", str(TOY), "--mod", "broken"]) == 1
    out = capsys.readouterr().out
    assert "broken/mod.yaml:" in out and "error[E301]" in out and "Traceback" not in out


def test_cards_and_simulate_take_mods(capsys):
    assert main(["cards", str(TOY), "--mod", "trim"]) == 0
    out = capsys.readouterr().out
    assert "c4" in out and "c5" not in out
    assert main(["simulate", str(TOY), "--mod", "extra", "--games", "2", "--json"]) == 0


def test_a_scenario_file_names_its_mods():
    assert run_file(load_game(str(TOY)), MODS / "extra" / "scenarios" / "bonus.yaml") == []


def test_test_command_runs_a_mods_scenarios(capsys):
    code = main(["test", str(TOY), str(MODS / "extra" / "scenarios" / "bonus.yaml")])
    assert code == 0 and "1 passed, 0 failed" in capsys.readouterr().out


def test_list_entries_route_to_their_own_file_and_index(tmp_path):
    mod = tmp_path / "late"
    mod.mkdir()
    (mod / "mod.yaml").write_text("kind: mod\nname: late\nversion: 1\ngame: toy\n"
                                  "remove: {triggers: [win]}\n"
                                  "add:\n  triggers:\n    late:\n      when: size(tabel) > 9\n      do: edge_hits += 1\n")
    diags = check_game(str(TOY), mods=[str(mod)])
    assert diags_at(diags, mod / "mod.yaml", "E301") == [(9, 18)], diags
    spec = load_spec(str(TOY), mods=[str(mod)])
    layered = spec.game.source
    assert [t["id"] for t in spec.game.value["triggers"]] == ["edge", "late"]
    # edge moved from index 1 to 0: its positions are still read from the game's file
    src, path = layered.route(("triggers", 0, "when"))
    assert src is layered.base and path == ("triggers", 1, "when")
    assert layered.pos(("triggers", 0, "when")) == at(TOY / "game.yaml", "size(table) % 2")
    assert layered.pos(("triggers", 1, "when")) == (9, 13)


def test_a_mod_removes_a_connection(tmp_path):
    """remove: {connections: [[a, b]]} drops the board's connection between a and b (either
    way); a pair the board lacks is an error at the mod's line."""
    mod = tmp_path / "cut"
    mod.mkdir()
    (mod / "mod.yaml").write_text("kind: mod\nname: cut\nversion: '1.0'\ngame: toy\n"
                                  "remove:\n  connections: [[south, north]]\n")
    game = load_game(str(TOY), mods=[str(mod)])
    assert "north" not in game.rules.adj.get("south", ()) and "south" not in game.rules.adj.get("north", ())
    (mod / "mod.yaml").write_text("kind: mod\nname: cut\nversion: '1.0'\ngame: toy\n"
                                  "remove:\n  connections: [[north, east]]\n")
    diags = [d for d in check_game(str(TOY), mods=[str(mod)]) if d.severity == "error"]
    assert [(d.code, d.line) for d in diags] == [("E005", 6)] and "north" in diags[0].message


# ------------------------------------------------------------------ deep patches
def test_patch_merges_nested_keys_and_null_deletes_one():
    base = load_game(str(TOY))
    game = load_game(str(TOY), mods=["deep"])
    st = game.new_game(seed=1)
    chips = {c for c in st.zones["hand.red"] if game.rules.props[c]["value"] >= 2}
    assert {a.id for a in st.legal_actions() if a.id.startswith("pick:")} == {f"pick:{c}" for c in chips}
    assert game.rules.moves["pick"].label_fmt == base.rules.moves["pick"].label_fmt  # the rest kept
    assert base.rules.moves["order_test"].cond is not None and game.rules.moves["order_test"].cond is None
    assert st.vars["score.red"] == 5 and st.vars["score.blue"] == 5  # per: players kept


def test_diagnostics_of_a_nested_patch_point_at_the_mods_line():
    f = MODS / "deep_broken" / "mod.yaml"
    diags = check_game(str(TOY), mods=["deep_broken"])
    d = find(diags, "E301", f, at(f, "nonsense")[0])
    assert "unknown name 'nonsense'" in d.message and d.col == at(f, "nonsense")[1]
    # a name the mod removed: the error where the game still uses it names the mod's line
    d = [d for d in diags if d.code == "E302" and "loop_forever" in d.message][0]
    assert "mod 'deep_broken' removed it at" in d.hint and f"mod.yaml:{at(f, 'loop_forever')[0]}" in d.hint
    d = find(diags, "E101", f, at(f, "triggers:")[0])
    assert "named by their id" in d.hint and "add: {triggers: {my_id:" in d.hint


# ------------------------------------------------------------------ rules split into topic files
def _split_toy(tmp_path):
    import yaml

    game = tmp_path / "toy"
    shutil.copytree(TOY, game, ignore=shutil.ignore_patterns("mods"))
    text = (game / "game.yaml").read_text()
    data = yaml.safe_load(text)
    head, rest = text.split("procedures:\n", 1)
    procs, rest = rest.split("moves:\n", 1)
    moves, rest = rest.split("listeners:\n", 1)
    (game / "rules").mkdir()
    (game / "rules" / "procedures.yaml").write_text("kind: rules\nprocedures:\n" + procs)
    (game / "rules" / "moves.yaml").write_text("kind: rules\nmoves:\n" + moves)
    head = head.replace("include: [board.yaml, items.yaml]", "include: [board.yaml, items.yaml, rules/*.yaml]")
    (game / "game.yaml").write_text(head + "listeners:\n" + rest)
    assert data["moves"]
    return game


def test_a_game_may_split_its_rules_into_topic_files(tmp_path):
    game = _split_toy(tmp_path)
    assert check_game(str(game)) == []
    a, b = load_game(str(TOY)).new_game(seed=4), load_game(str(game)).new_game(seed=4)
    for _ in range(6):
        acts = sorted(x.id for x in a.legal_actions())
        assert acts == sorted(x.id for x in b.legal_actions())
        a.apply(acts[0])
        b.apply(acts[0])
    assert a.log_for(None) == b.log_for(None)
    # a problem in a topic file points into it; an entry defined twice names both places
    moves = game / "rules" / "moves.yaml"
    moves.write_text(moves.read_text().replace("score[me] += chip.value", "score[me] += chip.valeu"))
    (game / "rules" / "more.yaml").write_text("kind: rules\nprocedures:\n  draw(n): log('again')\n")
    diags = check_game(str(game))
    d = find(diags, "E303", moves, at(moves, "valeu")[0])
    assert "unknown property 'valeu'" in d.message
    twice = [d for d in diags if d.code == "E305" and "'draw' is defined twice" in d.message]
    assert len(twice) == 1 and {Path(twice[0].path).name, Path(twice[0].hint.rsplit(" ", 1)[-1].split(":")[0]).name} \
        == {"more.yaml", "procedures.yaml"}, "\n".join(map(str, diags))


def test_a_manifests_errors_and_its_overlays_errors_are_reported_at_once(tmp_path):
    """A misspelled game name and an unknown key in mod.yaml do not hide the problems of its
    overlays: every one is reported in one run (the mod is still refused). A mod for another
    game (not a near miss) is not checked against this one."""
    mod = tmp_path / "typos"
    mod.mkdir()
    f = mod / "mod.yaml"
    f.write_text("kind: mod\nname: typos\nversion: 1.0.0\ngame: toi\n"
                 "remvoe: {moves: [pass]}\n"
                 "patch:\n  items: {c9: {value: 1}}\n"
                 "add:\n  listeners: {x: {event: scord, do: 'score[me] += 1'}}\n")
    diags = check_game(str(TOY), mods=[str(mod)])
    assert "'toi', not 'toy'" in find(diags, "E004", f, 4).message
    assert "did you mean 'remove'?" in find(diags, "E101", f, 5).hint
    assert "cannot patch items entry 'c9'" in find(diags, "E005", f, 7).message
    assert "did you mean 'scored'?" in find(diags, "E304", f, 9).hint
    with pytest.raises(RuleError):
        load_game(str(TOY), mods=[str(mod)])


def test_a_call_with_the_wrong_number_of_arguments_still_checks_them(tmp_path):
    """draw() given two arguments, one a misspelled name: both problems at once."""
    mod = tmp_path / "args"
    mod.mkdir()
    f = mod / "mod.yaml"
    f.write_text("kind: mod\nname: args\nversion: 1.0.0\ngame: toy\n"
                 "add:\n  moves: {grab: {do: 'draw(2, nort)'}}\n")
    diags = check_game(str(TOY), mods=[str(mod)])
    assert "'draw' takes 1 argument(s), got 2" in find(diags, "E401", f, 6).message
    assert "did you mean 'north'?" in find(diags, "E301", f, 6).hint


def test_the_order_of_mods_is_part_of_the_rules(tmp_path, monkeypatch):
    """Two mods that each add a trigger, applied in both orders with one cache: each order is a
    game of its own (its digest, its cached module), and each trigger keeps its own condition
    (the cache once gave the second order the first one's module)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    mods = []
    for name, coins in (("m1", 11), ("m2", 12)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "mod.yaml").write_text(
            f"kind: mod\nname: {name}\nversion: '1.0.0'\ngame: duel\ndescription: order test\n"
            f"add:\n  triggers:\n    t_{name}:\n      for: {{me: players()}}\n"
            f"      when: coins(me) >= {coins}\n      do: log('{name} fired')\n")
        mods.append(str(folder))
    digests = set()
    for order in (mods, mods[::-1], mods):
        game = load_game("duel", order)
        digests.add(game.rules.digest)
        for t in game.rules.triggers[-2:]:
            want = 11 if t.id == "t_m1" else 12
            for coins in (want - 1, want):
                st = game.new_game(seed=1)
                st.edit({"pieces": [{"kind": "coin", "owner": None, "at": "fellowship", "count": coins}]})
                assert bool(t.cond(st, {"me": "fellowship"})) == (coins == want), (order, t.id, coins)
    assert len(digests) == 2
