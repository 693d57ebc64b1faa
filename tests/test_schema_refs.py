"""The rule files' validators have their schemas' references inlined (loading/validators.py): the
same errors as jsonschema following the references, without looking them up as it validates."""
import json

from jsonschema import Draft7Validator
from referencing import Registry, Resource

from interpreter.loading import validators
from interpreter.loading.loader import KINDS
from interpreter.loading.validators import _validator, schema


def _by_reference(kind, definition=None):
    registry = Registry().with_resources(
        (f"{k}.schema.json", Resource.from_contents(schema(k))) for k in ("common", kind))
    target = schema(kind) if definition is None else {"$ref": f"{kind}.schema.json#/definitions/{definition}"}
    return Draft7Validator(target, registry=registry)


def _errors(validator, data):
    return [(e.message, list(e.absolute_path), e.validator, sorted((e.schema.get("properties") or {})),
             e.schema.get("description"), [c.message for c in e.context or []])
            for e in validator.iter_errors(data)]


def test_every_kind_of_file_is_validated_without_references():
    for kind in KINDS:
        assert '"$ref"' not in json.dumps(_validator(kind).schema), kind
    assert '"$ref"' not in json.dumps(_validator("scenario", "scenario").schema)


def test_the_errors_are_those_of_the_schemas_with_their_references():
    board = {"kind": "board", "regions": {"9x": {"bad key": 1}, "ok": 3},
             "connections": [["a"], {"between": ["a", "b"], "do": 1}, ["a", "b c"]], "extra": True}
    cards = {"kind": "cards", "type": "card", "items": [{"id": "1x", "effect": [1], "effects": {"e": {"if": 1}},
                                                         "abilities": [{"event": "x"}, {"event": "9", "do": 2}]}]}
    game = {"kind": "game", "name": 3, "players": [{"x": 1}], "procedures": {"bad name()": "x"}, "agent": {"default": 4}}
    scenario = [{"name": "s", "setup": {"vars": 1, "nope": 2}, "actions": "x", "expect": [1]}, 4]
    for kind, data in (("board", board), ("cards", cards), ("game", game), ("scenario", scenario)):
        new = _errors(_validator(kind), data)
        assert new and new == _errors(_by_reference(kind), data), kind
    assert _errors(_validator("scenario", "scenario"), scenario[0]) == \
        _errors(_by_reference("scenario", "scenario"), scenario[0])


def test_a_schema_referring_to_itself_keeps_its_references(monkeypatch):
    loops = {"$schema": "http://json-schema.org/draft-07/schema#",
             "definitions": {"node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/node"}}}},
             "$ref": "#/definitions/node"}
    real = validators.schema
    monkeypatch.setattr(validators, "schema", lambda kind: loops if kind == "loop" else real(kind))
    v = validators._validator.__wrapped__("loop")
    assert [e.message for e in v.iter_errors({"next": {"next": 3}})] == ["3 is not of type 'object'"]
