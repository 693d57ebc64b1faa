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
