"""The JSON Schemas of the rule files, and the validators that check files against them."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from .quickschema import compile_schema

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"


@lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text())


def _target(kind: str, definition: str | None) -> dict:
    return schema(kind) if definition is None else {"$ref": f"{kind}.schema.json#/definitions/{definition}"}


@lru_cache(maxsize=None)
def _inlined(kind: str, definition: str | None = None) -> dict | None:
    """The schema of a kind of file (or of one of its definitions) with its references
    inlined, or None for one that refers to itself or elsewhere."""
    try:
        return _inline_refs(_target(kind, definition), kind)
    except _KeepRefs:
        return None


@lru_cache(maxsize=None)
def quick_check(kind: str, definition: str | None = None):
    """Whether data is valid against the kind's schema, as a predicate (quickschema.py), or
    None where only jsonschema can say."""
    inlined = _inlined(kind, definition)
    return None if inlined is None else compile_schema(inlined)


@lru_cache(maxsize=None)
def _validator(kind: str, definition: str | None = None):
    """A validator for a kind of file, or for one of its definitions (a part of such a file)."""
    from jsonschema import Draft7Validator

    inlined = _inlined(kind, definition)
    if inlined is not None:
        return Draft7Validator(inlined)
    from referencing import Registry, Resource  # (one that refers to itself keeps its references)

    registry = Registry().with_resources(
        (f"{k}.schema.json", Resource.from_contents(schema(k))) for k in ("common", kind))
    return Draft7Validator(_target(kind, definition), registry=registry)


class _KeepRefs(Exception):
    pass


_DATA_KEYWORDS = {"enum", "const", "default", "examples"}  # their values are data, not schemas
_SCHEMA_MAPS = {"properties", "patternProperties", "definitions", "dependencies"}  # name -> schema


def _inline_refs(target: dict, kind: str) -> dict:
    """The schema with each {"$ref": ...} replaced by the schema it refers to (in the kind's own
    file or in common.schema.json). Draft-07 validates a $ref alone (its siblings are ignored),
    so the errors are the same, with the same messages and schemas; looking references up as
    the data is validated took more than half of jsonschema's time."""
    docs = {f"{k}.schema.json": schema(k) for k in ("common", kind)}
    done: dict = {}
    open_refs: set = set()

    def resolve(ref: str, doc: str):
        name, _, pointer = ref.partition("#")
        name = name or doc
        key = (name, pointer)
        if key in done:
            return done[key]
        if key in open_refs or name not in docs:
            raise _KeepRefs(ref)
        node = docs[name]
        try:
            for part in [p for p in pointer.split("/") if p]:
                node = node[part.replace("~1", "/").replace("~0", "~")]
        except (KeyError, IndexError, TypeError):
            raise _KeepRefs(ref) from None
        open_refs.add(key)
        done[key] = walk(node, name)
        open_refs.discard(key)
        return done[key]

    def walk(x, doc):
        """A schema (or a list of schemas) with its references inlined."""
        if isinstance(x, list):
            return [walk(v, doc) for v in x]
        if not isinstance(x, dict):
            return x
        if isinstance(x.get("$ref"), str):
            return resolve(x["$ref"], doc)
        out = {}
        for k, v in x.items():
            if k in _DATA_KEYWORDS:
                out[k] = v
            elif k in _SCHEMA_MAPS and isinstance(v, dict):
                out[k] = {name: walk(sub, doc) for name, sub in v.items()}
            else:
                out[k] = walk(v, doc)
        return out

    return walk(target, f"{kind}.schema.json")
