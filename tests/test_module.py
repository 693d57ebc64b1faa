"""A game's generated module (build/module.py): a load compiles the module's first part only,
each block's statements when the block first runs and each game function when it is first
called; the chunks a process compiled are kept in the cache when it exits, and later loads
read them compiled. Play is the same whichever way a block or function was compiled."""
import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.build import module
from interpreter.build.cache import read_module
from interpreter.build.module import _Unloaded, _UnloadedFunction


def _unloaded(rules) -> set:
    return {b for b, block in enumerate(rules.blocks) if isinstance(block[0], _Unloaded)}


def _functions_unloaded(rules) -> set:
    return {name for name in rules.functions if isinstance(rules.namespace[f"f_{name}"], _UnloadedFunction)}


def _playout(game, seed):
    st, rng = game.new_game(seed=seed), random.Random(seed)
    while not st.over:
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    return st.digest(), st.to_json()


def _module_key(rules):
    from interpreter.build.cache import module_key

    return module_key(rules.digest)


def test_a_load_compiles_each_block_when_it_first_runs_and_the_chunks_compiled_are_kept_at_exit(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(module, "_COMPILED", {})
    monkeypatch.setattr(module, "_UNKEPT", {})
    first = load_game("duel")
    blocks, functions = len(first.rules.blocks), len(first.rules.functions)
    assert _unloaded(first.rules) == set(range(blocks))  # nothing compiled yet
    assert _functions_unloaded(first.rules) == set(first.rules.functions)
    assert not read_module(_module_key(first.rules)).get("blobs")
    played = _playout(first, 5)
    left, functions_left = _unloaded(first.rules), _functions_unloaded(first.rules)
    assert 0 < len(left) < blocks  # what ran is compiled; what did not is not (a rare rule)
    assert 0 < len(functions_left) < functions
    ran = blocks - len(left) + functions - len(functions_left)
    assert len(module._COMPILED) == ran

    second = load_game("duel")  # (the same process: what the first compiled is compiled)
    assert _playout(second, 5) == played and len(module._COMPILED) == ran
    assert module.keep_compiled() == ran  # (as at exit) the chunks compiled, in one write
    kept = read_module(_module_key(first.rules))["blobs"]
    assert len(kept) == blocks + functions and sum(b is not None for b in kept) == ran
    assert module.keep_compiled() == 0  # (nothing new)
    monkeypatch.setattr(module, "_COMPILED", {})
    third = load_game("duel")  # compiles nothing: a chunk's code is read from the cache when it runs
    assert _unloaded(third.rules) == set(range(blocks))
    assert _playout(third, 5) == played
    assert not module._COMPILED and len(_unloaded(third.rules)) == len(left)
    assert _functions_unloaded(third.rules) == functions_left
    assert module.keep_compiled() == 0


def test_a_process_keeps_the_chunks_it_compiled_when_it_exits(tmp_path):
    """The next process reads them compiled: it compiles only chunks no earlier one ran."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    child = ("import random, sys; sys.path.insert(0, %r)\n"
             "from interpreter import load_game\nfrom interpreter.build import module\n"
             "g = load_game('duel'); st, rng = g.new_game(seed=%d), random.Random(1)\n"
             "while not st.over:\n    a = st.legal_actions(); st.apply(a[rng.randrange(len(a))])\n"
             "print(len(module._COMPILED))\n")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    runs = [int(subprocess.run([sys.executable, "-c", child % (str(root), seed)], env=env, check=True,
                               capture_output=True, text=True).stdout) for seed in (3, 3, 4, 4)]
    assert runs[0] > 50 and runs[1] == 0  # the same game again: every chunk it runs is in the cache
    assert 0 < runs[2] < runs[0] / 2 and runs[3] == 0  # another game: the chunks the first did not run


def test_the_chunks_compiled_go_to_the_file_of_the_text_they_were_compiled_from(tmp_path, monkeypatch):
    """The same module key in two cache folders: each file gets the chunks its own load ran;
    a file holding another text under the key is left alone."""
    from interpreter.build.cache import write_module

    monkeypatch.setattr(module, "_COMPILED", {})
    monkeypatch.setattr(module, "_UNKEPT", {})
    counts = []
    for folder, seed in (("a", 3), ("b", 4)):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / folder))
        game = load_game("duel")
        _playout(game, seed)
        counts.append(len(_unloaded(game.rules)))
    key = _module_key(game.rules)
    files = [tmp_path / f / "lotr-rules" / "modules" for f in ("a", "b")]
    other = read_module(key, str(files[1]))
    write_module(key, {**other, "source": other["source"] + "\n# another text"}, str(files[1]))
    added = module.keep_compiled()
    kept_a = read_module(key, str(files[0]))["blobs"]
    assert added == sum(b is not None for b in kept_a) > 50  # b's file: another text, left alone
    assert not read_module(key, str(files[1])).get("blobs")
    blocks = len(game.rules.blocks)
    assert sum(b is not None for b in kept_a[:blocks]) == blocks - counts[0]  # the blocks a's game ran


def test_a_file_lock_holds_off_another_process_until_released(tmp_path):
    """keep_compiled reads, changes and writes a module's file under a lock: processes ending
    together each add their chunks (cachefile.locked)."""
    import subprocess
    import sys
    import time

    from interpreter.loading.cachefile import locked

    root = Path(__file__).resolve().parents[1]
    lock = tmp_path / "m.lock"
    child = ("import sys, time; sys.path.insert(0, %r)\nfrom interpreter.loading.cachefile import locked\n"
             "print('waiting', flush=True)\nwith locked(%r):\n    print(time.time(), flush=True)\n") % (str(root), str(lock))
    with locked(str(lock)):
        proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "waiting"
        time.sleep(0.3)
        released = time.time()
    got = float(proc.stdout.readline())
    assert proc.wait(timeout=30) == 0 and got >= released


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
def test_a_forked_child_keeps_its_chunks_without_waiting_for_the_parents_lock(tmp_path, monkeypatch):
    """A thread of the parent holds the lock of compiling when the process forks: the child
    has a lock of its own, and none of the parent's chunks to keep."""
    import os
    import threading

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(module, "_COMPILED", {})
    monkeypatch.setattr(module, "_UNKEPT", {})
    _playout(load_game("duel"), 3)
    held, done = threading.Event(), threading.Event()

    def hold():
        with module._LOADING:
            held.set()
            done.wait(30)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(30)
    try:
        pid = os.fork()
        if pid == 0:  # the child: nothing of the parent's to keep, and no waiting for its lock
            os._exit(0 if module.keep_compiled() == 0 and module._LOADING.acquire(timeout=5) else 1)
        deadline = __import__("time").time() + 30
        while True:
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished or __import__("time").time() > deadline:
                break
            __import__("time").sleep(0.05)
        if not finished:
            os.kill(pid, 9)
        assert finished and os.WEXITSTATUS(status) == 0
    finally:
        done.set()
        t.join()
    assert module.keep_compiled() > 50  # the parent's chunks: kept by the parent


def _at_their_lines(rules) -> int:
    """How many statement and game functions there are; each must be at its line of the
    module's text."""
    lines = rules.module_source.splitlines()
    seen = 0
    for block in [*rules.blocks, [rules.namespace[f"f_{name}"] for name in rules.functions]]:
        for f in set(block):
            code = getattr(f, "__code__", None)
            if code is None or not code.co_filename.startswith("<rules of"):
                continue
            assert lines[code.co_firstlineno - 1].startswith(f"def {f.__name__}("), (f.__name__, code.co_firstlineno)
            seen += 1
    return seen


def test_every_statement_is_at_its_line_of_the_module_text_however_it_was_compiled(tmp_path, monkeypatch):
    """Tracebacks and profiles name the generated module's lines: a chunk compiled on its own
    keeps the lines it has in the whole text."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(module, "_COMPILED", {})
    first = load_game("war_of_the_ring")
    for b in range(len(first.rules.blocks)):  # compiled one at a time, as a first load does
        first.rules.statement(b, 0)
    for f in first.rules.functions.values():
        f.load()
    assert _at_their_lines(first.rules) > 900 + 250
    assert module.keep_compiled() > 900 + 250  # (as at exit)
    monkeypatch.setattr(module, "_COMPILED", {})
    kept = load_game("war_of_the_ring")  # each block read from the cache's compiled chunks
    for b in range(len(kept.rules.blocks)):
        kept.rules.statement(b, 0)
    for f in kept.rules.functions.values():
        f.load()
    assert _at_their_lines(kept.rules) > 900 + 250


def test_a_decision_can_be_taken_in_a_block_whose_statements_are_not_compiled(tmp_path, monkeypatch):
    """Taking a branch reads its statement's branches (decisions.take): through
    Rules.statement, which compiles the block first when it is not (a state whose block the
    rules have not run, e.g. handed over from another process)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    game = load_game("war_of_the_ring")
    st, rng = game.new_game(seed=2), random.Random(2)
    while st.pending is None or st.pending["type"] != "branch":
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    control = st.clone()
    rules, (b, pc) = st.rules, st.stack[-1][:2]
    line, a, z, length = read_module(_module_key(rules))["chunks"][b]
    block = rules.blocks[b]
    block[:] = [_Unloaded(block, rules.namespace, ("again", b), line, (rules.module_source, a, z),
                          "<rules of war_of_the_ring>")] * length  # as it was before it first ran
    monkeypatch.setattr(module, "_COMPILED", {})
    assert isinstance(block[pc], _Unloaded)
    acts = st.legal_actions()
    st.apply(acts[0])  # (the statement just run is pc - 1: the block's list is filled again)
    assert not isinstance(block[0], _Unloaded) and ("again", b) in module._COMPILED
    assert st.to_json() == control.apply(control.legal_actions()[0]).to_json()


def test_validation_compiles_every_block(tmp_path, monkeypatch):
    """check_game (lotr-rules validate, the fuzzers) compiles the blocks a load leaves for later:
    a fault of the code generator in a block that has not run is still found."""
    from interpreter import check_game
    from interpreter.dsl import codegen

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(module, "_COMPILED", {})
    chunk = codegen.Module.chunk

    def faulty(self, b):
        text, length = chunk(self, b)
        return (text + "\ndef (:\n" if b.id == 5 else text), length

    monkeypatch.setattr(codegen.Module, "chunk", faulty)
    diags = check_game("duel")  # (a first build: the blocks are compiled by the check)
    assert [d.code for d in diags] == ["E999"] and "block 5 does not compile" in diags[0].message
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    for _ in range(3):  # a load leaves block 5 for when it runs, the first and every later one
        monkeypatch.setattr(module, "_COMPILED", {})
        rules = load_game("duel").rules
    with pytest.raises(SyntaxError) as failed:  # named at its line of the whole module
        rules.statement(5, 0)
    assert rules.module_source.splitlines()[failed.value.lineno - 1] == "def (:"


def test_validation_compiles_every_game_function(tmp_path, monkeypatch):
    """As blocks: a fault of the code generator in a function no load has called is found by
    check_game, and named at its line of the module when the function is first called."""
    from interpreter import check_game
    from interpreter.dsl import codegen

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(module, "_COMPILED", {})
    game_function = codegen.Module.game_function

    def faulty(self, fn, comment, number=0):
        name = game_function(self, fn, comment, number)
        if fn.name == "card_price":
            text, _ = self.function_chunks[-1]
            self.function_chunks[-1] = (text + "\ndef (:\n", name)
        return name

    monkeypatch.setattr(codegen.Module, "game_function", faulty)
    diags = check_game("duel")
    assert [d.code for d in diags] == ["E999"] and "function card_price does not compile" in diags[0].message
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    monkeypatch.setattr(module, "_COMPILED", {})
    rules = load_game("duel").rules  # (a load leaves the function for its first call)
    assert isinstance(rules.functions["card_price"], _UnloadedFunction)
    with pytest.raises(SyntaxError) as failed:
        rules.functions["card_price"].load()
    assert rules.module_source.splitlines()[failed.value.lineno - 1] == "def (:"


def test_two_threads_running_a_block_not_compiled_yet_load_it_once(tmp_path, monkeypatch):
    """A block's chunk defines its statements, then sets their attributes (a branch's table):
    a second thread must wait for the first to finish loading it, not load it again nor take a
    statement half made (the web server plays games on several threads)."""
    import threading

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(module, "_COMPILED", {})
    rules = load_game("duel").rules
    b = max(_unloaded(rules), key=lambda i: len(rules.blocks[i]))
    stand_in = rules.blocks[b][0]
    inside, running, entered = threading.Event(), [0], []

    def slow_exec(code, ns):  # (the chunk's definitions, made slow: the other thread comes now)
        running[0] += 1
        entered.append(running[0])
        inside.set()
        threading.Event().wait(0.3)
        try:
            exec(code, ns)
        finally:
            running[0] -= 1

    monkeypatch.setattr(module, "exec", slow_exec, raising=False)
    got = {}

    def first():
        got["first"] = list(stand_in.load())

    def second():
        inside.wait(5)
        got["second"] = list(stand_in.load())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert entered == [1]  # loaded once, by one thread; the other waited for it
    assert got["first"] == got["second"] == rules.blocks[b]
    assert not any(isinstance(s, _Unloaded) for s in rules.blocks[b])


def test_rules_kept_by_a_run_elsewhere_name_their_files_as_seen_from_here(tmp_path, monkeypatch):
    """Messages name a rule file relative to where the command runs. The checked rules a run in
    another folder kept (naming the files from there) are not used here: a load from the
    project's folder after one from elsewhere still says games/duel/game.yaml."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    here = Path.cwd()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    away = load_game("duel").rules.where(1, 0)
    monkeypatch.chdir(here)
    home = load_game("duel").rules.where(1, 0)
    assert away.startswith(str(here.resolve() / "games" / "duel")), away
    assert home.startswith("games/duel/game.yaml:"), home


def test_checked_rules_keep_a_functions_text_and_parse_it_again_when_an_explanation_reads_it(tmp_path, monkeypatch):
    """The declarations' cache (build/checked.py) keeps each game function without its parsed
    text (a third of that cache); explanations (engine/wording.py) read the tree, parsed again."""
    from interpreter.build import checked, digest
    from interpreter.engine.link import namespace
    from interpreter.loading.loader import load_spec

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    built = load_game("duel").declarations.functions["card_price"]
    spec = load_spec("duel")
    _, declarations, _ = checked.load(spec, digest(spec), namespace)
    kept = declarations().functions["card_price"]
    assert kept._node is None and kept.text == built.text and repr(kept.node) == repr(built.node)
    assert kept.body is not None and kept.params == built.params == ["p", "card"]


def test_a_write_that_nothing_memoised_and_no_trigger_reads_marks_nothing():
    """build/module.link: the bits of piece kinds, zones, where items lie and their faces that
    no memoised function and no trigger reads are 0, and such a zone tells no key to forget
    (vm.wrote is then not even called after a move there); the channels something reads keep
    their bits. Kuhn poker: only `payoff` is memoised, and it reads the stakes alone."""
    kuhn = load_game(str(Path(__file__).parent.parent / "tools" / "bench_games" / "kuhn_poker")).rules
    assert set(kuhn.memo_masks.values()) == {kuhn.bit("var:stake")} and not kuhn.triggers
    assert all(zd.bit == 0 and zd.touch == () for zd in kuhn.zones.values())
    assert kuhn.where_bit == kuhn.face_bit == 0
    st = load_game(str(Path(__file__).parent.parent / "tools" / "bench_games" / "kuhn_poker")).new_game(seed=3)
    st.apply(st.legal_actions()[0])  # (the deal moved cards: nothing was marked, nothing kept to tell)
    assert st.dirty == 0 and st.moved == []
    duel = load_game("duel").rules  # skills_of(p) reads area[p]: its zones keep their bit and key
    area = duel.zones["area.fellowship"]
    assert area.bit == duel.bit("zone:area") != 0 and area.touch == ("fellowship",)
    assert any(m & area.bit for m in duel.memo_masks.values())


def test_a_list_of_the_items_own_lists_is_not_walked_again_when_the_data_keeps_it_within_the_limit(tmp_path, monkeypatch):
    """dsl/codegen.Module._props_fit: [c.provides for c in area[p]] holds each item's own list
    once, so when the lists of every item together (and one element each) fit in a list of
    limits.MAX_LIST, no item taken can make it too long and it is not counted again
    (limits.nested); with a smaller limit it is. count(keys(m)) makes no list of the keys.
    Duel's skills_of (games/duel/game.yaml, functions) and card_price, 003 "Card and tile costs"."""
    from interpreter.dsl import codegen

    monkeypatch.setattr(module, "_COMPILED", {})  # (two texts under one key: neither kept for other tests)
    monkeypatch.setattr(module, "_UNKEPT", {})

    def skills_of_line(folder):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / folder))
        rules = load_game("duel").rules
        text = rules.module_source.split("def f_skills_of(")[1].split("\ndef ")[0]
        return rules, [ln for ln in text.splitlines() if "v = memo[a0] =" in ln][0]

    rules, line = skills_of_line("fits")
    assert "[_A_provides[" in line and "_nest(" not in line
    total = len(rules.props) + sum(len(v) + sum(len(x) for x in v if type(x) is list)
                                   for p in rules.props.values() for v in [p.get("provides")] if type(v) is list)
    price = rules.module_source.split("def f_card_price(")[1].split("\ndef ")[0]
    assert "len(_A_cost_skills.get(a1) or ()) == 0" in price and "_p_keys" not in price
    monkeypatch.setattr(codegen, "MAX_LIST", total - 1)  # (one short: the data alone would not fit)
    _, line = skills_of_line("short")
    assert "_nest(st, [_A_provides[" in line


def test_an_enumerators_counts_of_pieces_the_same_at_every_pass_are_read_once_before_its_loops(tmp_path, monkeypatch):
    """dsl/codegen.Module.pieces: in take_play's enumerator the player's coins (pieces(coin,
    none, me) in coins(me)) are read once, before the loop over the available cards, and the
    loop's condition uses that local; a count that depends on the loop's card is not. When
    deep nesting moves a piece of the condition into a helper (Module.hoist), the local is one
    of the helper's arguments: play is the same. Duel, 003 "Take a Chapter card"."""
    from interpreter.dsl import codegen

    monkeypatch.setattr(module, "_COMPILED", {})
    monkeypatch.setattr(module, "_UNKEPT", {})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "plain"))
    game = load_game("duel")
    text = game.rules.module_source.split("def m_take_play(")[1].split("\ndef ")[0]
    head, loop = text.split("    for x0 in ", 1)
    assert "_pc0 = st.pieces.get(('coin', None, me), 0)" in head
    assert "if (_pc0 >= f_card_price(" in loop and "st.pieces" not in loop
    expected = [_playout(game, seed) for seed in (1, 2)]
    monkeypatch.setattr(codegen, "HOIST_EVERY", 2)  # (a helper at every other level of nesting)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "hoisted"))
    game = load_game("duel")
    src = game.rules.module_source
    assert any("_pc0" in ln for ln in src.splitlines() if ln.startswith("def _h"))
    assert [_playout(game, seed) for seed in (1, 2)] == expected


def test_checked_rules_keep_the_rule_files_as_their_numbers_in_the_spec(tmp_path, monkeypatch):
    """build/checked.py: the rules and the declarations both point to the rule files (text and
    data); the cache keeps each as its number in the spec, and a load from it points to the
    files of the spec it loaded, so no rule file's text is in the cache and positions still
    come from the files."""
    from interpreter.build import checked, digest
    from interpreter.engine.link import namespace
    from interpreter.loading.loader import load_spec

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    built = load_game("duel")
    spec = load_spec("duel")
    [kept] = (tmp_path / "cache").rglob("*.rules")
    blob = kept.read_bytes()
    assert all(s.text[-200:].encode() not in blob for s in spec.sources if len(s.text) > 200)
    rules, declarations, _ = checked.load(spec, digest(spec), namespace)
    src = rules.moves["take_play"].src
    assert any(src.source is s for s in spec.sources) and rules.where_src(src) == built.rules.where_src(src)
    assert declarations().functions["card_price"].text == built.declarations.functions["card_price"].text
