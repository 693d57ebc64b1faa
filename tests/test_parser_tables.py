"""The effect language's LALR tables, built in advance into grammar/effects.tables
(tools/parser_tables.py), so that a first load need not build them (about a third of a small
game's first load)."""
import pytest

from interpreter.dsl import parse as P


def _key_line(path) -> str:
    with open(path, "rb") as fh:
        return fh.readline().rstrip(b"\n").decode()


def test_the_shipped_tables_are_built_from_the_grammar_as_it_is():
    grammar_now = P.tables_key().split()[0]
    assert _key_line(P.TABLES_PATH).split()[0] == grammar_now, \
        "grammar/effects.lark changed: run python tools/parser_tables.py"


def _fits() -> bool:
    return _key_line(P.TABLES_PATH) == P.tables_key()


def _tree(parser, rules, text, start):
    rules.reset()
    node = parser.parse(text, start=start)
    out = []

    def walk(x):
        if isinstance(x, P.Node):
            out.append((x.kind, x.line, x.col))
            for c in x.a:
                walk(c)
        elif isinstance(x, (list, tuple)):
            out.append(len(x))
            for c in x:
                walk(c)
        elif isinstance(x, dict):
            for k, c in sorted(x.items()):
                out.append(k)
                walk(c)
        else:
            out.append(repr(x))

    walk(node)
    return out


TEXTS = [  # every statement and expression form of grammar/effects.lark, and three errors
    ("start", "let n = count([u for u in pieces(me) if u.size > 2])\nif n >= 3 { gain(me, 'coin', n * 2) } "
              "elif n == 0 { x[1] += 1 } else { log('{} waits', me); return }"),
    ("start", "for r in regions() { repeat 2 { move('army', r, 'reserve', 1) } }\nwhile not done { done = true }"),
    ("start", "choose c in hand(me) where c.cost <= 3 by rival(me) label pick about 'a card' optional\n"
              "ask a, b by me\none_of act by me { fight if strong { attack() } wait { } }\n"
              "any_order steps { first { } second { } }\nmay draw by me { draw(me, n = 2,) }\nemit played(c, by = me)"),
    ("expr_only", "if a then (b + c) * -d[2] / 3 % 4 else [1, 2, 3,]"),
    ("expr_only", "x in [1] and y not in [] or not z.w != none and true == false and 1 < 2 and 2 <= 3 and 4 > 3 and 4 >= 'a'"),
    ("start", "let = 3"),
    ("expr_only", "1 +"),
    ("start", "gain(me, $)"),
]


@pytest.mark.skipif(not _fits(), reason="the shipped tables are for another Lark or Python: the engine builds its own")
def test_the_shipped_tables_parse_exactly_as_tables_built_from_the_grammar_now():
    from lark import Lark

    P.get_parser()  # (binds the module's Token, which the callbacks use)
    shipped_rules, built_rules = P._Rules(), P._Rules()
    shipped = P._read_tables(P.TABLES_PATH, shipped_rules)
    assert shipped is not None
    built = Lark(P.GRAMMAR_PATH.read_text(), transformer=built_rules, **P._OPTIONS)
    parsed = 0
    for start, text in TEXTS:
        try:
            want = _tree(built, built_rules, text, start)
        except Exception as exc:  # a text the grammar refuses must be refused alike
            with pytest.raises(type(exc)):
                _tree(shipped, shipped_rules, text, start)
            continue
        assert _tree(shipped, shipped_rules, text, start) == want
        parsed += 1
    assert parsed == len(TEXTS) - 3


def test_tables_for_another_grammar_or_lark_are_not_used(tmp_path):
    good = P.TABLES_PATH.read_bytes()
    body = good.split(b"\n", 1)[1]
    stale = tmp_path / "stale.tables"
    stale.write_bytes(b"0000000000000000 lark-0.0 python-3.11\n" + body)
    assert P._read_tables(stale, P._Rules()) is None
    broken = tmp_path / "broken.tables"
    broken.write_bytes(P.tables_key().encode() + b"\n" + body[: len(body) // 2])
    assert P._read_tables(broken, P._Rules()) is None  # a cut file: built again, no crash
    assert P._read_tables(tmp_path / "missing.tables", P._Rules()) is None


def test_without_fitting_tables_the_parser_is_built_and_kept_in_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(P, "TABLES_PATH", tmp_path / "none.tables")
    monkeypatch.setattr(P, "DRIVER_PATH", tmp_path / "none.driver")
    monkeypatch.setattr(P, "_parsers", {})
    node = P._parse("gain(me, 'coin', 2)", "start")
    assert node is not None
    cache = P._cache_file()
    assert _key_line(cache) == P.tables_key()
    assert P._read_tables(cache, P._Rules()) is not None
    driver = cache.replace(".lark.cache", ".driver.cache")  # the driver's tables, kept beside them
    assert _key_line(driver) == P.tables_key()
    monkeypatch.setattr(P, "_parsers", {})
    assert P._read_driver(driver, P.tables_key()) is not None and P._parse("x = 1", "start") is not None
    assert "p" not in P._parsers  # (parsed by the driver, from the cache: no Lark parser made)


@pytest.mark.skipif(not _fits(), reason="the shipped tables are for another Lark or Python: the engine builds its own")
def test_the_parser_is_made_from_the_shipped_tables_without_building_one(tmp_path, monkeypatch):
    import lark

    def no_building(self, *a, **k):
        raise AssertionError("Lark built a parser from the grammar")

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(P, "_parsers", {})
    monkeypatch.setattr(lark.Lark, "__init__", no_building)
    assert P._parse("gain(me, 'coin', 2)", "start") is not None


@pytest.mark.skipif(not _fits(), reason="the shipped tables are for another Lark or Python: the engine builds its own")
def test_the_shipped_driver_tables_are_those_of_the_shipped_parser():
    """grammar/effects.driver holds what the LALR driver reads of Lark's parser, as plain data
    (tools/parser_tables.py writes both files)."""
    import pickle

    from interpreter.dsl.lalr import _read_lark, savable

    lark = P._read_tables(P.TABLES_PATH, P._Rules())
    data = _read_lark(lark)[0]
    with open(P.DRIVER_PATH, "rb") as fh:
        assert fh.readline().rstrip(b"\n").decode() == P.tables_key()
        assert pickle.load(fh) == data and savable(data)


@pytest.mark.skipif(not _fits(), reason="the shipped tables are for another Lark or Python: the engine builds its own")
def test_a_first_load_parses_every_effect_without_importing_lark(tmp_path):
    """Lark is imported only to word a syntax error (a tenth of a large game's first load)."""
    import os
    import subprocess
    import sys

    code = ("import sys, interpreter; interpreter.load_game('war-of-the-ring'); print('lark' in sys.modules); "
            "from interpreter.dsl.parse import DSLSyntaxError, parse\n"
            "try:\n    parse('let = 3')\nexcept DSLSyntaxError as e:\n    print(e.line, e.col, e.message)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                         cwd=P.GRAMMAR_PATH.parents[1])
    assert out.stdout.splitlines() == ["False", "1 5 unexpected '='"]
