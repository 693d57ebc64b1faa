"""The lean loop over Lark's LALR tables (interpreter/dsl/lalr.py) parses exactly as Lark's own
loop: the same tree, positions included, for every effect text of every game and mod and for
random token soup; and where Lark raises an error it gives up, so the error is Lark's."""
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lark import Lark, Tree

from interpreter import check_game
from interpreter.dsl import parse as P
from interpreter.dsl import treecache
from interpreter.dsl.lalr import LALRDriver

ROOT = Path(__file__).resolve().parents[1]
GAMES = [("duel", ("even_start", "leaders")), ("confrontation", ("deluxe",)), ("risk", ()),
         ("war_of_the_ring", ()), (str(ROOT / "tools" / "bench_games" / "kuhn_poker"), ()),
         (str(ROOT / "tools" / "bench_games" / "tic_tac_toe"), ()), (str(ROOT / "tests" / "games" / "toy"), ())]


def _shape(x):
    """A tree as nested tuples: every node's kind, line and column, every value and its type
    (a token with its every position)."""
    if isinstance(x, P.Node):
        return ("node", x.kind, x.line, x.col, _shape(x.a))
    if isinstance(x, Tree):
        return ("tree", x.data, _shape(x.children))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_shape(c) for c in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, _shape(c)) for k, c in x.items()))
    token = tuple(getattr(x, a, None) for a in ("type", "start_pos", "line", "column", "end_line", "end_column", "end_pos"))
    return (type(x).__name__, repr(x), token)


def _both(text, start):
    """(Lark's tree or its error's type, the driver's tree or None)."""
    lark = P.get_parser()
    rules = P._parsers["rules"]
    with P._ONE_PARSE:
        rules.reset()
        try:
            want = _shape(lark.parse(text, start=start))
        except Exception as exc:
            want = type(exc)
        rules.reset()
        got = P.get_driver().parse(text, start)
    return want, (None if got is None else _shape(got))


def _shipped_lark() -> bool:
    """Whether the installed Lark is the one grammar/effects.tables was built with."""
    return P.TABLES_PATH.read_bytes().split(b"\n", 1)[0].decode() == P.tables_key()


def test_the_driver_is_used_with_the_lark_the_engine_ships_with():
    assert isinstance(P.get_driver(), LALRDriver)  # (_a_driver skips with another Lark without one)


@pytest.fixture(autouse=True)
def _a_driver():
    """(With another Lark whose insides differ there is no driver to compare: Lark parses.)"""
    if P.get_driver() is None and not _shipped_lark():
        pytest.skip("another Lark, whose insides the driver does not know: Lark's own loop parses")


@pytest.fixture(scope="module")
def every_text(tmp_path_factory):
    """Every effect text of the games and mods above: parsed on a first load (empty caches)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    mp.setattr(treecache, "_caches", {})
    try:
        for game, mods in GAMES:
            assert check_game(game, mods=mods) == []
        texts = {key for cache in treecache._caches.values() for key in cache}
    finally:
        mp.undo()
    return sorted(texts)


def test_every_effect_text_of_every_game_parses_to_the_same_tree(every_text):
    assert len(every_text) > 1000
    for start, text in every_text:
        want, got = _both(text, start)
        assert got == want, text


def test_every_token_is_made_as_lark_makes_it(every_text):
    """Lark's own parse trees (tokens kept, with every position: start and end) from the same
    tables, by Lark and by the driver."""
    P.get_parser()
    lark = P._read_tables(P.TABLES_PATH, None) or Lark(P.GRAMMAR_PATH.read_text(), **P._OPTIONS)
    driver = LALRDriver.from_lark(lark)
    for start, text in every_text:
        assert _shape(driver.parse(text, start)) == _shape(lark.parse(text, start=start)), text


def test_a_node_dropped_while_parsing_lends_nobody_its_parenthesis():
    """A repeated named argument (an error, raised once the text is parsed) drops its first
    value mid-parse; where a later node begins must not depend on which id Python gives it
    (the '(' of the dropped value once moved the attr node below to column 9 or 10)."""
    for inner in ("[(x)]", "(x) + 1", "(x).z", "-(x)"):
        for tail in (".y", "[0]", " + 1"):
            text = f"g(b=f(a={inner}, a=1){tail}, b=2).w"
            for _ in range(20):
                want, got = _both(text, "expr_only")
                assert got == want and want[2:4] == (1, 1), text


ERRORS = ["let = 3", "1 +", "gain(me, $)", "if x { y = 1", "move(a b)", "for in x { }", "x[1 = 2", "'open",
          "a.", "choose c in by me", "one_of { a { } }", "let x = 1 2", "}", "", "return 5 5", "x +* y"]


@pytest.mark.parametrize("text", ERRORS)
def test_a_text_lark_refuses_is_given_back_to_lark(text):
    for start in ("start", "expr_only"):
        want, got = _both(text, start)
        if isinstance(want, type):
            assert got is None  # (then _parse asks Lark, which raises its error)
        else:
            assert got == want


WORDS = ["let", "x", "=", "1", "+", "*", "-", "(", ")", "[", "]", "{", "}", ",", ".", "if", "then", "else",
         "elif", "for", "in", "not", "and", "or", "==", "<=", "'s'", "move", "me", "choose", "by", "where",
         "label", "optional", "ask", "one_of", "may", "return", "emit", "repeat", "while", "\n", ";", "%"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), max_size=14), st.sampled_from(["start", "expr_only"]))
def test_random_token_soup_parses_alike_or_is_given_back(words, start):
    want, got = _both(" ".join(words), start)
    assert got == (None if isinstance(want, type) else want)


def test_a_thread_parsing_while_another_makes_the_parser_waits_for_the_whole_of_it(monkeypatch):
    """The parser, its callbacks and its driver are made by one thread and published together:
    a second thread never finds the parser without its driver (a KeyError once)."""
    import threading

    made = P._driver
    inside = threading.Event()

    def slow_driver(parser):
        inside.set()
        threading.Event().wait(0.3)  # (the other thread asks now)
        return made(parser)

    monkeypatch.setattr(P, "_parsers", {})
    monkeypatch.setattr(P, "_driver", slow_driver)
    got, failed = [], []

    def second():
        inside.wait(5)
        try:
            got.append(P._parse("x = 1", "start").kind)
        except Exception as exc:
            failed.append(repr(exc))

    t = threading.Thread(target=second)
    t.start()
    P.get_parser()
    t.join(10)
    assert failed == [] and got == ["block"]
