"""How rule files are read (interpreter/loading/yamlread.py): the fast tag resolver gives every
value the tag PyYAML's own safe resolver gives it."""
import random

import pytest
import yaml

from interpreter.loading import yamlread

VALUES = ["", "~", "null", "Null", "NULL", "yes", "No", "on", "OFF", "true", "y", "n", "1", "-1", "+3", "0x1F",
          "0b101", "017", "1_000", "1:30", "1.5", ".5", "-.inf", ".NaN", "1e3", "1.0e+3", "<<", "=", "abc", "a b",
          "2024-01-02", "2024-01-02T10:00:00Z", "12:30:00", "\u00e9", "@x", "-", "+", ".", "--", "Yes!", "trueish"]


@pytest.mark.skipif(not yamlread._PLAIN, reason="this PyYAML's safe loader has resolvers the fast path leaves to it")
def test_the_fast_resolver_tags_every_value_as_the_safe_loader_does():
    rng = random.Random(1)
    chars = "yYnNtTfFoO0123456789-+.:_<=~ abe@xX"
    values = VALUES + ["".join(rng.choice(chars) for _ in range(rng.randrange(1, 8))) for _ in range(5000)]
    ours, theirs = yamlread.Loader(""), yamlread._Base("")
    for v in values:
        for implicit in [(True, False), (False, True), (False, False)]:
            assert ours.resolve(yaml.ScalarNode, v, implicit) == yamlread._Base.resolve(
                theirs, yaml.ScalarNode, v, implicit), (v, implicit)
    for kind in (yaml.SequenceNode, yaml.MappingNode):
        assert ours.resolve(kind, None, (True, False)) == yamlread._Base.resolve(theirs, kind, None, (True, False))
    # and a file reads the same
    text = "a: [1, 1.5, yes, ~, x, '1', 2024-01-02]\nb: &b {c: 0x10, d: on}\ne: {<<: *b, f: -.inf}\n"
    assert yaml.load(text, Loader=yamlread.Loader) == yaml.load(text, Loader=yamlread._Base)


def _both_ways(text):
    """(data, duplicate keys) of a text read by the one-walk construct_document, and by PyYAML's
    own constructor (the path taken for aliases, merge keys and tags)."""
    out = []
    for plain in (True, False):
        loader = yamlread.Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:  # (an empty file: yamlsrc reads it as no data)
                data = None
            elif plain:
                data = loader.construct_document(node)
            else:
                data = yaml.constructor.SafeConstructor.construct_document(loader, node)
            out.append((data, [(k, m.line, m.column) for k, m in loader.duplicates]))
        except yaml.YAMLError as exc:
            out.append(type(exc).__name__ + ": " + str(getattr(exc, "problem", exc)))
        finally:
            loader.dispose()
    return out


EDGE_TEXTS = ["", "a: 1\na: 2\nb: {c: 1, c: [x, y]}\n", "- [1, 2, [3, {x: yes}]]\n- ~\n", "a: &x [1]\nb: *x\n",
              "a: &m {k: 1}\nb: {<<: *m, j: 2}\n", "a: !!str 12\nb: !!int '7'\n", "a: !!set {x, y}\n",
              "a: !!int x\n", "a: !!omap [{k: 1}]\n", "? [1, 2]\n: v\n", "1: a\n01: b\n", "a: 1e3\nb: 0x1F\n",
              "a: !!map [1]\n", "a: !!seq {k: 1}\n", "a: 2024-01-02\n"]


def test_a_document_is_made_in_one_walk_as_the_safe_constructor_makes_it():
    """The same data, the same duplicate keys in the same order, the same first error."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    texts = EDGE_TEXTS + [p.read_text(encoding="utf-8") for d in ("games", "tools/bench_games")
                          for p in sorted((root / d).rglob("*.yaml"))]
    assert len(texts) > 100
    for text in texts:
        ours, theirs = _both_ways(text)
        assert ours == theirs, text[:200]


def test_the_refused_characters_pattern_put_in_res_cache_is_pyyamls_own():
    """yamlread puts, under the pattern of characters PyYAML's reader refuses, one written as the
    ranges refused: it must refuse exactly the same code points (every one, surrogates too)."""
    import re

    everything = "".join(map(chr, range(0x110000)))
    theirs = re.compile(yamlread._NON_PRINTABLE, re.UNICODE)  # (other flags: not the one put in the cache)
    ours = re.compile(yamlread._REFUSED)
    assert [m.start() for m in ours.finditer(everything)] == [m.start() for m in theirs.finditer(everything)]
    assert yaml.reader.Reader.NON_PRINTABLE.pattern == yamlread._NON_PRINTABLE  # (the pattern PyYAML uses)


@pytest.mark.skipif(__import__("sys").version_info[:2] != (3, 11), reason="re's private cache as Python 3.11 keeps it")
def test_pyyamls_reader_takes_the_pattern_put_in_the_cache():
    import subprocess
    import sys

    code = "import interpreter.loading.yamlread as y, yaml; print(yaml.reader.Reader.NON_PRINTABLE.pattern == y._REFUSED)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
