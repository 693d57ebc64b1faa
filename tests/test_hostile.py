"""Hostile rule files: the effect language reaches nothing outside the game state, and a rule
that loops forever stops at once with an error naming its file and line (a mod included)."""
import re
import shutil
import time
from pathlib import Path

import pytest

from interpreter import EngineError, check_game, load_game

TOY = Path(__file__).resolve().parent / "games" / "toy"


def _toy_with(tmp_path, game_text=None, mod=None):
    game = tmp_path / "toy"
    shutil.copytree(TOY, game, ignore=shutil.ignore_patterns("mods"))
    if game_text:
        text = (game / "game.yaml").read_text()
        old, new = game_text
        assert old in text
        (game / "game.yaml").write_text(text.replace(old, new))
    if mod:
        (game / "mods" / "evil").mkdir(parents=True)
        for name, body in mod.items():
            (game / "mods" / "evil" / name).write_text(body)
    return game


@pytest.mark.parametrize("effect, code", [
    ("__import__('os')", "E302"),                         # no Python built-ins
    ("__import__('os').system('echo pwned')", "E201"),   # nor calls on what a call returns
    ("open('/etc/passwd')", "E302"),                      # no files
    ("score[me] = chip.__class__", "E303"),               # no Python attributes
    ("score[me] = chip.__dict__", "E303"),
    ("score[me] = time()", "E302"),                       # no clock
    ("eval('1')", "E302"),
])
def test_the_language_reaches_nothing_outside_the_game(tmp_path, effect, code):
    game = _toy_with(tmp_path, ("      move(chip, table)\n", f"      move(chip, table)\n      {effect}\n"))
    diags = check_game(str(game))
    assert any(d.code == code for d in diags), "\n".join(map(str, diags))
    with pytest.raises(Exception):
        load_game(str(game))


def test_an_endless_loop_in_a_mod_stops_at_once_naming_its_line(tmp_path):
    mod = {
        "mod.yaml": "kind: mod\nname: evil\nversion: '1.0'\ngame: toy\ninclude: [chips.yaml]\n",
        "chips.yaml": ("kind: cards\ntype: chip\nitems:\n"
                       "  - id: c9\n    suit: cups\n    value: 9\n    at: table\n"),
        }
    mod["mod.yaml"] += ("replace:\n  moves:\n    pass:\n      do: |\n"
                        "        while true { log_order += 1 }\n")
    game = _toy_with(tmp_path, mod=mod)
    g = load_game(str(game), mods=[str(game / "mods" / "evil")])
    st = g.new_game(seed=1)
    before = st.to_json()
    t = time.perf_counter()
    with pytest.raises(EngineError) as err:
        st.apply("pass", atomic=True)
    assert time.perf_counter() - t < 5, "the step budget stops a loop quickly"
    assert "step budget" in str(err.value)
    assert st.to_json() == before                          # and the state is as it was


def test_a_loop_inside_a_trigger_chain_is_stopped_too(tmp_path):
    game = _toy_with(tmp_path, ("events:\n", "events:\n  ping: {by: player}\n"))
    text = (game / "game.yaml").read_text()
    text = text.replace("listeners:\n", "listeners:\n  - event: ping\n    do: emit ping(by=me)\n", 1)
    text = text.replace("  pass:\n    do: log('{} passes', me)", "  pass:\n    do: emit ping(by=me)")
    (game / "game.yaml").write_text(text)
    g = load_game(str(game))
    st = g.new_game(seed=1)
    with pytest.raises(EngineError) as err:
        st.apply("pass", atomic=True)
    assert "game.yaml" in str(err.value) or "step budget" in str(err.value)


def test_yaml_tags_cannot_build_python_objects(tmp_path):
    """Rule files are read with a safe loader: a python/object tag is an error, never a call."""
    marker = tmp_path / "pwned"
    game = _toy_with(tmp_path, ("  log_order: 0\n",
                                f"  log_order: !!python/object/apply:os.system ['touch {marker}']\n"))
    diags = check_game(str(game))
    assert any(d.code == "E001" for d in diags), "\n".join(map(str, diags))
    assert not marker.exists()


# ------------------------------------------------------------------ resource bombs
def _duel_with(tmp_path, setup_line, name="bomb"):
    game = tmp_path / name
    shutil.copytree(Path(__file__).resolve().parents[1] / "games" / "duel", game,
                    ignore=shutil.ignore_patterns("mods", "scenarios"))
    text = (game / "game.yaml").read_text()
    old = "  setup: |\n    shuffle(deck[1])"
    assert old in text
    (game / "game.yaml").write_text(text.replace(old, f"  setup: |\n    {setup_line}\n    shuffle(deck[1])", 1))
    return game


BOMBS = [
    "let x = count([count(range(0, 99999)) for i in range(0, 99999)])",   # 10^10 steps of work
    "let x = count(flatten([range(0, 99999) for i in range(0, 99999)]))",  # 10^10 elements
    "let x = [1] * 100000 + [2] * 100000",                                # a list too long
    "let x = [t * 100000 for t in ['ab']]",                                # a text too long
    "let x = 2 * 2 * 2 * 2 * 2 * 2 * 2 * 2 * 99999999999999999999999999999999999 * 99999999999999999999999999999999999999 * 9999999999999999999999999999999999999999999999999999999 * 99999999999999999999999999999999999999999999999999999999",
    "while true { let y = [x for x in range(0, 99999)] }",                # work inside a loop
    # one list held many times: short lists that spell out to 10^10 elements
    "let a = [1] * 99999\n    let x = [a] * 99999\n    log('{}', count(flatten(x)))",
    "let a = [1] * 99999\n    let x = [a for i in range(0, 99999)]\n    log('{}', x)",
    "let a = [1] * 50000\n    let b = [a, a]\n    let c = [b, b]\n    log('{}', sort(c + c))",
    # a short sum of written lists, each holding a long one
    "let a = [1] * 99999\n    let x = [a] + [a] + [a] + [a]\n    log('{}', x)",
]


@pytest.mark.parametrize("line", BOMBS)
def test_a_resource_bomb_stops_quickly_with_a_clear_error(tmp_path, line):
    """Each bomb validates (nothing static is wrong with it) and then stops, at its line, within
    a bounded time and memory, in a separate process with a memory cap."""
    import json
    import subprocess
    import sys

    game = _duel_with(tmp_path, line)
    code = f"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (1500 * 2**20, 1500 * 2**20))
sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
from interpreter import EngineError, load_game
g = load_game({str(game)!r})
t = time.perf_counter()
try:
    g.new_game(seed=1)
    out = "no error"
except EngineError as exc:
    out = str(exc)
print(json.dumps([out, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr[-2000:]
    message, seconds, peak_kb = json.loads(res.stdout)
    assert "game.yaml:" in message and "(procedure setup)" in message, message
    assert any(w in message for w in ("work budget", "more than", "too large", "step budget")), message
    assert seconds < 5, seconds
    assert peak_kb < 500 * 1024, peak_kb


def test_a_deep_expression_compiles_runs_and_leaves_later_loads_alone(tmp_path, monkeypatch):
    """A 200-deep list validates, loads and runs; a game checked after it in the same process
    still validates; the parse cache is written atomically, with no temporary file left."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    deep = "[" * 200 + "1" + "]" * 200
    game = _duel_with(tmp_path, f"let x = {deep}\n    log('{{}}', count(x))", "deep")
    assert check_game(str(game)) == []
    st = load_game(str(game)).new_game(seed=1)
    assert st.log_for(None)[0] == "1"
    assert check_game("duel") == [] and check_game(str(game)) == []
    left = [p.name for p in (tmp_path / "cache" / "lotr-rules").iterdir()]
    assert not [n for n in left if n.endswith(".tmp") or n.startswith("tmp")], left


def test_a_too_deep_expression_is_a_syntax_error_not_a_crash(tmp_path):
    game = _duel_with(tmp_path, "let x = " + "not " * 1000 + "true", "deeper")
    errors = [d for d in check_game(str(game)) if d.severity == "error"]
    assert [d.code for d in errors] == ["E201"] and "nested more than" in errors[0].message


# ------------------------------------------------------------------ hostile manifests and YAML
MOD = "kind: mod\nname: evil\nversion: '1.0'\ngame: toy\n"


def _toy_raw(tmp_path, game_bytes=None, mod_bytes=None, edit=None):
    game = _toy_with(tmp_path, edit)
    if game_bytes is not None:
        (game / "game.yaml").write_bytes(game_bytes)
    mods = []
    if mod_bytes is not None:
        (game / "mods" / "evil").mkdir(parents=True)
        (game / "mods" / "evil" / "mod.yaml").write_bytes(mod_bytes)
        mods = [str(game / "mods" / "evil")]
    return game, mods


TOY_TEXT = (TOY / "game.yaml").read_bytes()
HOSTILE = [
    # (what, game.yaml bytes or an edit, mod.yaml bytes, code, the message holds, line, col)
    ("remove: pairs in a named section", None, MOD + "remove:\n  moves: [[pick, pass]]\n", "E101", "not a name", 6, 11),
    ("remove: pairs of triggers", None, MOD + "remove:\n  triggers: [[win]]\n", "E101", "string", 6, 14),
    ("remove: a mapping", None, MOD + "remove:\n  moves: {pick: 1}\n", "E101", "array", 6, 10),
    ("a 5000-digit version", None, MOD.replace("'1.0'", "'" + "9" * 5000 + ".1'"), "E101",
     "is not numbers joined by dots", 3, 10),
    ("a version of 1e999", None, MOD.replace("'1.0'", "1e999"), "E101", "is not numbers", 3, 10),
    ("a list as a key", ("vars:\n", "vars:\n  ? [a, b]\n  : 3\n"), None, "E001", "a key must be a plain", 20, 5),
    ("a mapping as a key", ("vars:\n", "vars:\n  ? {a: 1}\n  : 3\n"), None, "E001", "a key must be a plain", 20, 5),
    ("a byte that is not UTF-8", TOY_TEXT.replace(b"players: [red, blue]", b"players: [red, bl\xffue]"), None,
     "E001", "not UTF-8", 4, 18),
    ("a NUL character", TOY_TEXT.replace(b"players: [red, blue]", b"players: [red, bl\x00ue]"), None,
     "E001", "U+0000 is not allowed", 4, 18),
    ("an ANSI escape in a name", ("  log_order: 0\n", "  log_order: 0\n  \x1b[31mred\x1b[0m: 1\n"), None,
     "E001", "U+001B is not allowed", 23, 3),
    ("a newline inside a name", ("  log_order: 0\n", '  log_order: 0\n  "a\\nb": 1\n'), None,
     "E101", "'a\\nb' is not a valid name", 23, 3),
    ("a name ending in a newline", ("  log_order: 0\n", '  log_order: 0\n  "abc\\n": 1\n'), None,
     "E101", "is not a valid name", 23, 3),
    ("a !!bool that is none", ("  log_order: 0\n", "  log_order: !!bool maybe\n"), None,
     "E001", "'maybe' is not a !!bool", 22, 14),
    ("a !!timestamp that is none", ("  log_order: 0\n", "  log_order: !!timestamp x\n"), None,
     "E001", "'x' is not a !!timestamp", 22, 14),
    ("a !!int that is none", ("  log_order: 0\n", "  log_order: !!int x\n"), None, "E001", "'x' is not a !!int", 22, 14),
    ("a !!map on a list", ("  suits: [cups, swords]", "  suits: !!map [cups, swords]"), None,
     "E001", "a !!map must be a mapping", 9, 10),
    ("a !!set on a number", ("  log_order: 0\n", "  log_order: !!set 0\n"), None, "E001", "a !!set must be a mapping", 22, 14),
    ("a 5000-digit number", ("  log_order: 0\n", "  log_order: " + "9" * 5000 + "\n"), None,
     "E001", "a number of 5,000 digits", 22, 14),
    ("a !!timestamp in a mod", None, MOD.replace("version: '1.0'", "version: !!timestamp x"), "E001",
     "'x' is not a !!timestamp", 3, 10),
    ("a zone named null", ("  table: {}\n", "  table: {}\n  null: {}\n"), None,
     "E101", "a key YAML reads as null, not as a name", 19, 3),
    ("a variable named on", ("  edge_hits: 0\n", "  edge_hits: 0\n  on: 0\n"), None,
     "E101", "a key YAML reads as true, not as a name", 24, 3),
    ("an empty game.yaml", b"", None, "E003", "the file is empty", 1, 1),
    ("a game.yaml of comments", b"# nothing\n\n# at all\n", None, "E003", "the file is empty", 1, 1),
    ("an empty mod.yaml", None, "", "E003", "the file is empty", 1, 1),
    ("a mod.yaml of comments", None, "# nothing here\n", "E003", "the file is empty", 1, 1),
    ("an option whose default is no choice", ("  budget_loop: {default: false}",
                                               "  budget_loop: {default: 7, choices: [1, 2]}"), None,
     "E306", "not one of its choices", 7, 26),
    ("two triggers of one id", ("  - id: edge\n", "  - id: win\n"), None, "E305", "two triggers are named 'win'", 79, 9),
    ("an enum value twice", ("  suits: [cups, swords]", "  suits: [cups, swords, cups]"), None,
     "E305", "lists 'cups' twice", 9, 25),
    ("an assignment of the wrong type", ("    do: log('{} passes', me)", "    do: current = 3"), None,
     "E402", "'current' holds player, not int", 43, 19),
    ("add: triggers as a list", None, MOD + "add:\n  triggers:\n    - {id: late, when: 'true', do: log('x')}\n",
     "E101", "needs a mapping of name: entry", 6, 3),
]


@pytest.mark.parametrize("what, game_part, mod_part, code, text, line, col", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_files_give_one_clean_diagnostic(tmp_path, what, game_part, mod_part, code, text, line, col):
    edit = game_part if isinstance(game_part, tuple) else None
    raw = game_part if isinstance(game_part, bytes) else None
    mod = mod_part.encode() if isinstance(mod_part, str) else mod_part
    game, mods = _toy_raw(tmp_path, raw, mod, edit)
    diags = [d for d in check_game(str(game), mods=mods) if d.severity == "error"]
    hits = [d for d in diags if d.code == code and text in d.message]
    assert hits, "\n".join(map(str, diags))
    assert (hits[0].line, hits[0].col) == (line, col), str(hits[0])
    for d in diags:  # one line each, nothing that restyles a terminal
        printed = str(d)
        assert printed.count("\n") <= 1 and "\x1b" not in printed and "\x00" not in printed


def test_a_huge_rule_file_is_refused_fast(tmp_path):
    big = "  log_order: 0\n" + "".join(f"  v{i}: {i}\n" for i in range(400_000))
    game = _toy_with(tmp_path, ("  log_order: 0\n", big))
    t = time.perf_counter()
    diags = check_game(str(game))
    assert time.perf_counter() - t < 2
    assert [d.code for d in diags] == ["E002"] and "at most 4 MB" in diags[0].message


def test_a_deep_expression_in_a_function_compiles_and_runs(tmp_path):
    """A game function whose body nests deeper than Python allows is split into helpers; the
    helpers must work inside a function too (a function has no env of its own)."""
    game = _duel_with(tmp_path, "log('{}', deep_value(75))", "deepfn")
    text = (game / "game.yaml").read_text()
    chain = "".join(f"if p < {i} then {i * 10} else " for i in range(1, 80)) + "0"
    (game / "game.yaml").write_text(text.replace("functions:\n", f"functions:\n  deep_value(p): {chain}\n", 1))
    assert [d for d in check_game(str(game)) if d.severity == "error"] == []
    st = load_game(str(game)).new_game(seed=1)
    assert st.log_for(None)[0] == "760"


def test_a_deep_expression_holding_a_comprehension_compiles_and_runs(tmp_path):
    """A helper split off a deep expression binds the variables of the comprehensions inside
    it itself; it takes as arguments only the names bound outside it."""
    game = _duel_with(tmp_path, "log('{}', deep_list(75))", "deepcomp")
    text = (game / "game.yaml").read_text()
    chain = "".join(f"if p < {i} then {i} else " for i in range(1, 80)) + "sum([x * 2 for x in range(0, p)])"
    body = f"sum([({chain}) + y for y in range(0, 2)])"
    (game / "game.yaml").write_text(text.replace("functions:\n", f"functions:\n  deep_list(p): {body}\n", 1))
    assert [d for d in check_game(str(game)) if d.severity == "error"] == []
    st = load_game(str(game)).new_game(seed=1)
    assert st.log_for(None)[0] == str(2 * 76 + 1)


def test_a_choice_in_a_trigger_without_by_names_its_line(tmp_path):
    """A trigger's effect runs for nobody unless it says `by`: a choice there is a rule error at
    the choice's line, and the state is left as it was (atomic apply)."""
    game = _toy_with(tmp_path, ("    do: edge_hits += 1\n",
                                "    do: |\n      choose n in [1, 2] label how_many\n      edge_hits += n\n"))
    g = load_game(str(game))
    st = g.new_game(seed=1)
    before = st.to_json()
    with pytest.raises(EngineError) as err:
        st.apply("pick:c1", atomic=True)  # the table holds one chip: the edge trigger fires
    text = str(err.value)
    assert "game.yaml:83 (trigger edge)" in text and "a decision for none, who is not a player" in text, text
    assert "needs 'by'" in text
    assert st.to_json() == before


@pytest.mark.parametrize("flow, error", [
    ("  log('{}', count(big + big + big + big + big + big))\n", "a list of more than 100,000"),
    ("  repeat 1000 { log_order = count(big + big + big + big + big) }\n", "work budget"),
])
def test_sums_of_long_constant_lists_are_bounded_too(tmp_path, flow, error):
    """A list the rule names (an enumeration of 20,000 values) added to itself is checked and
    charged like any list built at run time; only short written lists are not (codegen)."""
    big = "  big: [" + ", ".join(f"e{i}" for i in range(20000)) + "]\n"
    game = _toy_with(tmp_path, ("  suits: [cups, swords]\n", "  suits: [cups, swords]\n" + big))
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("flow: |\n  shuffle(bag)\n", "flow: |\n" + flow + "  shuffle(bag)\n"))
    t = time.perf_counter()
    with pytest.raises(EngineError, match=error):
        load_game(str(game)).new_game(seed=1)
    assert time.perf_counter() - t < 5


def test_a_constant_nested_deeper_than_python_reads_compiles_and_runs(tmp_path):
    """A function whose body is a written list nested 300 deep is folded to one constant; its
    code is split every few dozen levels as deep code is (Python refuses a literal nested ~200
    deep: it was an internal error)."""
    deep = "[" * 300 + "1" + "]" * 300
    game = _duel_with(tmp_path, "log('{}', count(deep_const))", "deepconst")
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("functions:\n", f"functions:\n  deep_const: '[{deep}, [1]]'\n", 1))
    assert [d for d in check_game(str(game)) if d.severity == "error"] == []
    st = load_game(str(game)).new_game(seed=1)
    assert st.log_for(None)[0] == "2"


@pytest.mark.parametrize("effect, error", [
    ("log('{}', roll(18446744073709551616))", "a random draw among 18,446,744,073,709,551,616 outcomes"),
    ("log('{}', roll(18446744073709551615))", None),                  # the largest die the source can roll
    ("move_top(hand[me], hand[me], 10000000)", None),               # onto itself: as many as there are
])
def test_draws_and_moves_of_any_size_end_at_once(tmp_path, effect, error):
    """roll(n) past the random source's 2**64 outcomes looped for ever (no draw was below its
    limit); move_top of a stack onto itself moved its top item back n times. (The action runs
    in a thread of its own, so that a failure here is a failed test, not a suite that hangs.)"""
    import threading

    game = _toy_with(tmp_path, ("    do: log('{} passes', me)", f"    do: {effect}"))
    st = load_game(str(game)).new_game(seed=1)
    got = []

    def act():
        try:
            st.apply("pass")
            got.append(None)
        except EngineError as exc:
            got.append(str(exc))

    t = threading.Thread(target=act, daemon=True)
    t.start()
    t.join(timeout=3)
    assert got, "the action did not end within 3 seconds"
    assert (got[0] is None) if error is None else (error in got[0]), got


@pytest.mark.parametrize("value, error", [("7", "property 'house' must name a player, got 7"),
                                          ("nobody", "unknown player 'nobody'"),
                                          ("[amber]", "property 'house' must name a player, got ['amber']")])
def test_a_player_property_names_a_player(tmp_path, value, error):
    """An item's property of type player holds a player's name: a number or an unknown name
    was let through, and showing the item face down to someone failed later (a TypeError)."""
    game = tmp_path / "saltroad"
    shutil.copytree(TOY.parent / "saltroad", game)
    f = game / "cards" / "charters.yaml"
    f.write_text(f.read_text().replace("    house: amber", f"    house: {value}", 1))
    errors = [d for d in check_game(str(game)) if d.severity == "error"]
    assert [(d.code, d.message, d.line, d.col) for d in errors] == [
        ("E402" if "must" in error else "E306", error, 11, 12)]
