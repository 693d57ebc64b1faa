"""The effect-language parser's AST: node positions (where each node's text begins, which
diagnostics point at) and the order of its errors."""
import pytest

from interpreter.dsl.parse import DSLSyntaxError, Node, parse, parse_expr


def _positions(node):
    """(kind, line, col) of every node, depth first."""
    out = []

    def walk(x):
        if isinstance(x, Node):
            out.append((x.kind, x.line, x.col))
            for c in x.a:
                walk(c)
        elif isinstance(x, (list, tuple)):
            for c in x:
                walk(c)
        elif isinstance(x, dict):
            for c in x.values():
                walk(c)

    walk(node)
    return out


def test_an_expression_after_an_opening_parenthesis_begins_at_it():
    # (a + b) * c: the product begins at '(', the sum inside it at a
    assert _positions(parse_expr("(a + b) * c")) == [
        ("arith", 1, 1), ("arith", 1, 2), ("name", 1, 2), ("name", 1, 6), ("name", 1, 11)]
    assert _positions(parse_expr("((x)).y")) == [("attr", 1, 1), ("name", 1, 3)]
    assert _positions(parse_expr("(l)[0] == 1 and (p) or q")) == [
        ("or", 1, 1), ("and", 1, 1), ("cmp", 1, 1), ("index", 1, 1), ("name", 1, 2), ("const", 1, 5),
        ("const", 1, 11), ("name", 1, 18), ("name", 1, 24)]
    assert _positions(parse_expr(" (a)")) == [("name", 1, 3)]


def test_a_named_argument_given_twice_is_an_error_at_its_second_name():
    with pytest.raises(DSLSyntaxError) as e:
        parse("gain(me, n = 1,\n     n = (2))")
    assert (e.value.message, e.value.line, e.value.col) == ("named argument 'n' given twice", 2, 6)
    assert e.value.hint == "give each named argument once"
    parse("gain(me, n = 1, m = 2)")  # (each once: no error)


def test_statements_begin_at_their_first_word():
    text = "let x = 1\n  score[me] += (2)\nif x { f(by=me) } else { emit e(n=-x) }"
    assert _positions(parse(text)) == [
        ("block", 1, 1), ("let", 1, 1), ("const", 1, 9), ("assign", 2, 3), ("name", 2, 9), ("const", 2, 17),
        ("if", 3, 1), ("name", 3, 4), ("block", 3, 6), ("call", 3, 8), ("name", 3, 13),
        ("block", 3, 24), ("emit", 3, 26), ("neg", 3, 35), ("name", 3, 36)]
    assert _positions(parse("")) == [("block", 1, 1)]
    assert _positions(parse("\n\n  # nothing")) == [("block", 1, 1)]


def test_a_number_too_long_to_read_is_reported_after_the_syntax_errors():
    with pytest.raises(DSLSyntaxError) as e:
        parse("let x = " + "1" * 5000)
    assert e.value.message.startswith("cannot read a value") and (e.value.line, e.value.col) == (1, 1)
    with pytest.raises(DSLSyntaxError) as e:  # the unbalanced ')' is found first
        parse("let x = " + "1" * 5000 + " )")
    assert e.value.message == "unexpected ')'" and e.value.col == 5010


def test_a_deep_text_is_refused_by_its_height():
    with pytest.raises(DSLSyntaxError) as e:
        parse_expr("(" * 3000 + "1" + ")" * 3000 + " + " + "[" * 600 + "1" + "]" * 600)
    assert "nested more than" in e.value.message


def test_a_tree_is_at_most_one_taller_than_its_text_is_long():
    from interpreter.dsl.parse import MAX_DEPTH, height

    texts = ["-" * 498 + "1", "not " * 120 + "x", "[" * 240 + "]" * 240, "f(" * 200 + ")" * 200,
             "a" + ".b" * 240, "x" + "[0]" * 160, "if (a) { if b { let c = -(-d) } }", "(((((a)))))"]
    for text in texts:
        node = parse_expr(text) if not text.startswith("if") else parse(text)
        assert height(node) <= len(text) + 1, text
    assert height(parse_expr("-" * 498 + "1")) == MAX_DEPTH - 1
    with pytest.raises(DSLSyntaxError):
        parse_expr("-" * 500 + "1")


def test_a_tree_pickles_whole():
    import pickle

    node = parse("let x = [a.b for a in f(1, k='s') if not a] \n emit e(n=-1)")
    assert _positions(pickle.loads(pickle.dumps(node))) == _positions(node)
    assert repr(pickle.loads(pickle.dumps(node))) == repr(node)


def test_named_arguments_count_in_a_tree_s_height():
    with pytest.raises(DSLSyntaxError) as e:
        parse_expr("f(x=" * 600 + "1" + ")" * 600)
    assert "nested more than" in e.value.message
    assert parse_expr("f(x=" * 100 + "1" + ")" * 100)


def test_parses_in_threads_keep_their_own_results():
    """The web server loads games in threads: two parses at once keep their own state (a number
    too long to read in one text is that text's error, never the other's)."""
    import threading

    from interpreter.dsl.parse import _parse

    good, bad = "let x = 1 + 2 * 3", "let x = " + "9" * 5000
    wrong = []

    def work(text, fails):
        for _ in range(150):
            try:
                _parse(text, "start")
                ok = True
            except DSLSyntaxError:
                ok = False
            if ok == fails:
                wrong.append(text[:12])

    import sys

    threads = [threading.Thread(target=work, args=(good, False)), threading.Thread(target=work, args=(bad, True))]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns as often as they can
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert wrong == []
