"""A rule file's JSON Schema as one Python predicate: is the file valid? (jsonschema says why not).

A first load of a large game spent about a quarter of its time in jsonschema: importing it
(its specifications, referencing and attrs) and walking every file with its validator objects.
Most files are valid, and for a valid file only the answer matters. So each schema (its
references already inlined, validators.py) is compiled here into nested closures that answer
exactly what Draft 7 answers, for the keywords the schemas use; jsonschema is imported only
for a file this predicate rejects, and reports its errors as before. A schema with a keyword
this module does not know gets no predicate (``compile_schema`` returns None) and every file
goes to jsonschema. A test runs both on every rule file of every game, mod and scenario, and
on thousands of mutations of them, and compares their answers.
"""
from __future__ import annotations

import numbers
import re

# keywords that say nothing about validity (annotations), and those compiled below
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples",
                          "definitions", "readOnly", "writeOnly"})


class _Unknown(Exception):
    """A keyword (or form of one) this module does not compile."""


def _is_integer(x) -> bool:  # (Draft 6 and later: 1.0 is an integer too)
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


def _is_number(x) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, bool)


_TYPES = {
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "integer": _is_integer,
    "null": lambda x: x is None,
    "number": _is_number,
    "object": lambda x: isinstance(x, dict),
    "string": lambda x: isinstance(x, str),
}


def _equal(a, b) -> bool:
    """Equality as JSON Schema has it: true is not 1, and lists and objects compare inside."""
    if a is b:
        return True
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, bool) or isinstance(b, bool):
        return False  # (a is b was checked: true, false and a number never equal each other)
    return a == b


def compile_schema(schema):
    """A predicate for the schema (no $ref left in it), or None when it uses a keyword this
    module does not compile."""
    try:
        return _compile(schema)
    except _Unknown:
        return None


def _compile(s):
    if s is True or s == {}:
        return lambda x: True
    if s is False:
        return lambda x: False
    if not isinstance(s, dict):
        raise _Unknown(s)
    checks = []
    for key, value in s.items():
        if key in _ANNOTATIONS:
            continue
        make = _KEYWORDS.get(key)
        if make is None:
            raise _Unknown(key)
        check = make(value, s)
        if check is not None:
            checks.append(check)
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    checks = tuple(checks)
    return _every(checks)


def _every(checks: tuple):
    """One check of several, each in turn (a loop: cheaper than all() over a generator)."""
    def every(x):
        for c in checks:
            if not c(x):
                return False
        return True
    return every


def _each(check):
    """Whether every element of a list (or key of a mapping) passes a check."""
    def each(xs):
        for v in xs:
            if not check(v):
                return False
        return True
    return each


def _type(value, s):
    names = value if isinstance(value, list) else [value]
    try:
        tests = tuple(_TYPES[n] for n in names)
    except (KeyError, TypeError):
        raise _Unknown("type") from None
    if len(tests) == 1:
        return tests[0]
    return lambda x: any(t(x) for t in tests)


def _object_keywords(value, s):
    """properties, patternProperties and additionalProperties as one check (the last applies
    to the keys the other two leave)."""
    if not isinstance(s.get("properties", {}), dict) or not isinstance(s.get("patternProperties", {}), dict):
        raise _Unknown("properties")
    props = {k: _compile(v) for k, v in (s.get("properties") or {}).items()}
    patterns = [(re.compile(p), _compile(v)) for p, v in (s.get("patternProperties") or {}).items()]
    extra = s.get("additionalProperties", True)
    extra_check = None if extra is True else _compile(extra)
    either = re.compile("|".join(p for p in (s.get("patternProperties") or {}))) if patterns else None

    def check(x):
        if not isinstance(x, dict):
            return True
        for k, v in x.items():
            c = props.get(k)
            if c is not None and not c(v):
                return False
            if patterns and isinstance(k, str):  # (a key may be both named and matched)
                for p, pc in patterns:
                    if p.search(k) and not pc(v):
                        return False
                if either.search(k):  # (jsonschema finds the extra keys with all patterns as one)
                    continue
            if c is None and extra_check is not None and not extra_check(v):
                return False
        return True
    return check


def _first_of_object_keywords(key):
    """The three object keywords share one check: the first of them in the schema makes it."""
    def make(value, s):
        first = next(k for k in s if k in ("properties", "patternProperties", "additionalProperties"))
        return _object_keywords(value, s) if key == first else None
    return make


def _property_names(value, s):
    each = _each(_compile(value))
    return lambda x: not isinstance(x, dict) or each(x)


def _required(value, s):
    names = frozenset(value)
    return lambda x: not isinstance(x, dict) or x.keys() >= names


def _items(value, s):
    if isinstance(value, list):
        raise _Unknown("items")  # (a list of schemas, one per place: not used by the schemas)
    each = _each(_compile(value))
    return lambda x: not isinstance(x, list) or each(x)


def _count(compare):
    def make(value, s):
        if not _is_integer(value):
            raise _Unknown("count")
        return lambda x: not isinstance(x, list) or compare(len(x), value)
    return make


def _bound(compare):
    def make(value, s):
        if not _is_number(value):
            raise _Unknown("bound")
        return lambda x: not _is_number(x) or compare(x, value)
    return make


def _enum(value, s):
    values = tuple(value)
    strings = frozenset(v for v in values if isinstance(v, str))
    return lambda x: (x in strings) if isinstance(x, str) else any(_equal(x, v) for v in values)


def _const(value, s):
    return lambda x: _equal(x, value)


def _pattern(value, s):
    p = re.compile(value)
    return lambda x: not isinstance(x, str) or p.search(x) is not None


def _any_of(value, s):
    cs = tuple(_compile(v) for v in value)
    return lambda x: any(c(x) for c in cs)


def _all_of(value, s):
    cs = tuple(_compile(v) for v in value)
    return _every(cs)


def _one_of(value, s):
    cs = tuple(_compile(v) for v in value)
    return lambda x: sum(1 for c in cs if c(x)) == 1


def _not(value, s):
    c = _compile(value)
    return lambda x: not c(x)


_KEYWORDS = {
    "type": _type,
    "properties": _first_of_object_keywords("properties"),
    "patternProperties": _first_of_object_keywords("patternProperties"),
    "additionalProperties": _first_of_object_keywords("additionalProperties"),
    "propertyNames": _property_names,
    "required": _required,
    "items": _items,
    "minItems": _count(lambda n, v: n >= v),
    "maxItems": _count(lambda n, v: n <= v),
    "minimum": _bound(lambda x, v: x >= v),
    "maximum": _bound(lambda x, v: x <= v),
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    "anyOf": _any_of,
    "allOf": _all_of,
    "oneOf": _one_of,
    "not": _not,
}
