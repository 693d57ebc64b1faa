"""The schemas compiled into predicates (interpreter/loading/quickschema.py) answer exactly what
jsonschema answers: valid or not, for every rule file of every game, mod, scenario and bad-rules
example, and for thousands of mutations of them. A first load asks the predicate alone, and
imports jsonschema only for a file it rejects."""
import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.loading import quickschema, validators
from interpreter.loading.loader import KINDS, _jsonable
from interpreter.loading.validators import _validator, quick_check
from interpreter.loading.yamlsrc import Source

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("games", "tools/bench_games", "tests/games", "tests/bad_rules")


def _corpus():
    """(file, kind, definition, data) for every rule and scenario file in the repository."""
    out = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.yaml")):
            try:
                src = Source(str(path), path.read_text(encoding="utf-8"), path.name)
            except UnicodeDecodeError:
                continue
            if src.parse([]) is None and src.data is None:  # (not YAML, or refused: an alias bomb...)
                continue
            data = _jsonable(src.data)
            name = str(path.relative_to(ROOT))
            if "scenarios" in path.parts or (isinstance(data, dict) and "scenarios" in data):
                if isinstance(data, dict) and "scenarios" in data:
                    out.append((name, "scenario", "file", data))
                elif isinstance(data, list):
                    out += [(name, "scenario", "scenario", case) for case in data]
                else:
                    out.append((name, "scenario", "scenario", data))
            elif isinstance(data, dict) and data.get("kind") in KINDS:
                out.append((name, data["kind"], None, data))
    return out


CORPUS = _corpus()


def _valid(kind, definition, data) -> bool:
    return next(iter(_validator(kind, definition).iter_errors(data)), None) is None


def test_the_corpus_holds_every_kind_valid_and_not():
    kinds = {(k, d) for _, k, d, _ in CORPUS}
    assert {("game", None), ("board", None), ("cards", None), ("mod", None), ("rules", None),
            ("scenario", "file"), ("scenario", "scenario")} <= kinds
    answers = [_valid(k, d, x) for _, k, d, x in CORPUS]
    assert len(CORPUS) > 600 and answers.count(True) > 400 and answers.count(False) >= 10


def test_every_file_gets_the_answer_jsonschema_gives():
    for name, kind, definition, data in CORPUS:
        quick = quick_check(kind, definition)
        assert quick is not None, (kind, definition)
        assert quick(data) == _valid(kind, definition, data), name


_VALUES = [None, True, False, 0, -1, 1, 1.0, 2.5, 100, "", "x", "9x", "a b", "end", "first", [], [1], ["a"],
           ["a", "b"], [["a", "b"]], {}, {"x": 1}, {"do": "x"}, {"id": "a"}, {"kind": "cards"}]


def _places(x, path=()):
    """Every (path, value) below x."""
    yield path, x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _places(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _places(v, path + (i,))


def _mutate(data, rng):
    """data with one change: a value replaced (by a stock value or one from elsewhere in the
    file), a key removed, added or renamed, a value wrapped in a list or taken out of one."""
    data = copy.deepcopy(data)
    places = list(_places(data))
    path, value = rng.choice(places)
    op = rng.randrange(6)
    if not path:
        return rng.choice(_VALUES) if op == 0 else data
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if op == 0:
        parent[last] = copy.deepcopy(rng.choice(_VALUES))
    elif op == 1:
        parent[last] = copy.deepcopy(rng.choice(places)[1])
    elif op == 2:
        del parent[last]
    elif op == 3 and isinstance(parent, dict):
        parent[rng.choice(["extra", "x", "9", "id", "do", "if", "when", last + "s" if isinstance(last, str) else "y"])] = \
            copy.deepcopy(rng.choice(_VALUES + [value]))
    elif op == 4:
        parent[last] = [value]
    elif op == 5 and isinstance(value, list) and value:
        parent[last] = value[0]
    elif isinstance(parent, dict) and isinstance(last, str):  # rename the key
        parent[last + "_"] = parent.pop(last)
    return data


def test_mutated_files_get_the_answer_jsonschema_gives():
    rng = random.Random(16)
    seen = {True: 0, False: 0}
    for name, kind, definition, data in CORPUS:
        quick = quick_check(kind, definition)
        for _ in range(6):
            x = _mutate(data, rng)
            want = _valid(kind, definition, x)
            seen[want] += 1
            assert quick(x) == want, (name, json.dumps(x)[:400])
    assert min(seen.values()) > 1000, seen


@pytest.mark.parametrize("schema,good,bad", [
    ({"type": "integer"}, [1, 1.0, -3], [True, 1.5, "1", None]),
    ({"type": "number", "minimum": 0, "maximum": 2}, [0, 2, 1.5], [-1, 2.5, True]),
    ({"enum": [1, "a", [1, 2]]}, [1, 1.0, "a", [1, 2], [1.0, 2]], [True, "b", [2, 1], [True, 2]]),
    ({"const": False}, [False], [0, None, 0.0]),
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, [1.5], [1, "x"]),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "patternProperties": {"^b": {"type": "integer"}},
      "additionalProperties": False, "required": ["a"]},
     [{"a": "x"}, {"a": "x", "b1": 2}], [{}, {"a": 1}, {"a": "x", "c": 1}, {"a": "x", "b": "y"}]),
    ({"propertyNames": {"pattern": "^[a-z]+$"}, "minItems": 1}, [{"ab": 1}, [1], "x"], [{"Ab": 1}, []]),
    ({"items": {"type": "string"}, "maxItems": 2, "not": {"const": ["b"]}}, [[], ["a", "b"]], [["a", 1], ["a"] * 3, ["b"]]),
])
def test_each_keyword_as_draft_7_has_it(schema, good, bad):
    quick = quickschema.compile_schema(schema)
    from jsonschema import Draft7Validator

    for x in good + bad:
        assert quick(x) == Draft7Validator(schema).is_valid(x) == any(x is g for g in good), (schema, x)


def test_a_schema_with_a_keyword_it_does_not_know_is_left_to_jsonschema(monkeypatch, tmp_path):
    assert quickschema.compile_schema({"type": "string", "minLength": 2}) is None
    assert quickschema.compile_schema({"properties": {"a": {"uniqueItems": True}}}) is None
    real = validators.schema
    odd = {"type": "object", "properties": {"kind": {"const": "board"}, "name": {"type": "string", "minLength": 3}}}
    monkeypatch.setattr(validators, "schema", lambda kind: odd if kind == "board" else real(kind))
    validators.quick_check.cache_clear()
    validators._inlined.cache_clear()
    validators._validator.cache_clear()
    try:
        assert quick_check("board") is None
        from interpreter.loading.loader import Spec, _check_schema

        src = Source(str(tmp_path / "b.yaml"), "kind: board\nname: ab\n", "b.yaml")
        src.parse([])
        spec = Spec(root=tmp_path)
        assert not _check_schema(src, "board", spec)
        assert [d.line for d in spec.diags] == [2] and "too short" in spec.diags[0].message
    finally:
        validators.quick_check.cache_clear()
        validators._inlined.cache_clear()
        validators._validator.cache_clear()


def test_a_first_load_of_valid_rules_does_not_import_jsonschema(tmp_path):
    code = ("import sys, interpreter; interpreter.load_game('war-of-the-ring'); "
            "print('jsonschema' in sys.modules)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
