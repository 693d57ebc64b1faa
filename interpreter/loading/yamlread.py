"""PyYAML, as the rule files are read with it: the C safe loader with a record of duplicate
keys and errors that say where a value cannot be read, and the C composer that gives the
positions (yamlsrc.Source). Imported only where a text is parsed or a position asked: a load
that finds every file's data in the cache does not import PyYAML (a fifth of it)."""
from __future__ import annotations

import re
import sys

# PyYAML's pure-Python reader compiles, as it is imported, a pattern of the characters YAML
# refuses (the complement of the allowed ranges), which the C loader used here never runs: some
# 55 M instructions, a fortieth of a large game's first load. The same characters written as the
# ranges refused compile in a twelfth of that, and are put in re's cache under the reader's
# pattern, where the import finds them. (A private table of re: where it is not one, the
# reader compiles its own pattern as before; either matches the same characters.)
_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
_REFUSED = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"  # (the same: a test checks)
if "yaml" not in sys.modules and type(getattr(re, "_cache", None)) is dict:
    re._cache.setdefault((str, _NON_PRINTABLE, 0), re.compile(_REFUSED))

import yaml  # noqa: E402

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_STR = "tag:yaml.org,2002:str"
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_MERGE, _VALUE = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"
_IMPLICIT = _Base.yaml_implicit_resolvers  # first character -> [(tag, pattern)]: YAML 1.1's plain values
_PLAIN = not _Base.yaml_path_resolvers and None not in _IMPLICIT  # (the safe loader's: Loader.resolve)


class Loader(_Base):
    """The C safe loader, plus a record of duplicate keys (YAML itself keeps the last one), and
    a plain document's data made in one walk (construct_document)."""

    def __init__(self, stream):
        super().__init__(stream)
        self.duplicates = []

    def construct_document(self, node):
        """The document's data as the safe constructor makes it, in one walk over the nodes in
        its order (each level of the tree after the one above, so a value that cannot be read
        is the same first one) without a generator and two calls for each value; a document
        with a list or mapping met twice (an alias), merge keys or tagged lists and mappings is
        left to the constructor."""
        try:
            return self._plain(node)
        except _NotPlain:
            self.duplicates = []
            self.constructed_objects, self.recursive_objects, self.state_generators = {}, {}, []
        return super().construct_document(node)

    def _plain(self, root):
        scalar, mapping, sequence = yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode
        construct = self.construct_object
        todo = []  # (node, its value, still empty), walked as it grows
        walked = set()  # (the lists and mappings met: one met again is an alias, shared)

        def value(node):
            if type(node) is scalar:
                if node.tag == _STR:
                    return node.value
                made = construct(node)
                if self.state_generators:  # (a list or mapping tag on a scalar)
                    raise _NotPlain
                return made
            if node.tag == _MAP and type(node) is mapping:
                made = {}
            elif node.tag == _SEQ and type(node) is sequence:
                made = []
            else:
                raise _NotPlain
            if id(node) in walked:
                raise _NotPlain
            walked.add(id(node))
            todo.append((node, made))
            return made

        data = value(root)
        for node, made in todo:
            if type(made) is list:
                made.extend([value(x) for x in node.value])
                continue
            seen = set()  # (duplicate keys, as construct_mapping records them)
            for key_node, _ in node.value:
                if type(key_node) is not scalar or key_node.tag in (_MERGE, _VALUE):
                    raise _NotPlain
                k = key_node.value
                if k in seen:
                    self.duplicates.append((k, key_node.start_mark))
                seen.add(k)
            for key_node, value_node in node.value:
                made[key_node.value if key_node.tag == _STR else value(key_node)] = value(value_node)
        self.constructed_objects, self.recursive_objects = {}, {}
        return data

    if _PLAIN:
        def resolve(self, kind, value, implicit):
            """The tag of a node, as the safe loader's resolver gives it (which also asks for
            path resolvers and resolvers of any first character, which it has none of): one
            call for each of a file's values."""
            if kind is yaml.ScalarNode:
                if implicit[0]:
                    for tag, pattern in _IMPLICIT.get(value[:1], ()):
                        if pattern.match(value):
                            return tag
                return _STR
            return "tag:yaml.org,2002:seq" if kind is yaml.SequenceNode else "tag:yaml.org,2002:map"

    def construct_object(self, node, deep=False):
        if node.tag == _STR and type(node) is yaml.ScalarNode:  # most values: the text itself, as
            return node.value  # construct_yaml_str gives it (a string is kept by no table: none changes)
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as exc:
            # a tagged value that is not one (!!bool maybe, !!int x, !!timestamp x), a number too long
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            if not isinstance(node, yaml.ScalarNode):
                problem = f"this value cannot be read as {tag}"
            elif "digits" in str(exc):  # (Python reads ints of at most 4,300 digits)
                problem = f"a number of {len(node.value):,} digits"
            else:
                problem = f"{node.value[:40]!r} is not a {tag}"
            raise BadValue(problem, node.start_mark) from None

    def construct_mapping(self, node, deep=False):
        if not isinstance(node, yaml.MappingNode):  # (a !!map or !!set tag on a list or a scalar)
            raise BadValue(f"a {node.tag.replace('tag:yaml.org,2002:', '!!')} must be a mapping", node.start_mark)
        seen = set()
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode):  # a list or mapping used as a key
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping", node.start_mark,
                    "a key must be a plain name or number, not a list or mapping", key_node.start_mark)
            k = key_node.value
            if k in seen and key_node.tag != "tag:yaml.org,2002:merge":
                self.duplicates.append((k, key_node.start_mark))
            seen.add(k)
        return super().construct_mapping(node, deep)


Loader.add_constructor("tag:yaml.org,2002:map", Loader.construct_yaml_map)


class _NotPlain(Exception):
    """A document Loader._plain leaves to PyYAML's constructor."""


class BadValue(yaml.YAMLError):
    """A value YAML parses but cannot construct (Loader): what it is, and where."""

    def __init__(self, problem: str, mark):
        super().__init__(problem)
        self.problem, self.problem_mark = problem, mark


def scalar(text: str):
    """A value written on its own (a command line's --option name=value, a game's settings:
    3, true, discard), read as in a rule file; ValueError saying why it cannot be read."""
    loader = Loader(text)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise ValueError(getattr(exc, "problem", None) or str(exc).split("\n")[0]) from None
    except (ValueError, RecursionError) as exc:
        raise ValueError(str(exc).split("\n")[0][:120]) from None
    finally:
        loader.dispose()


class Composer(_Base):
    """The C composer for positions only: no node's tag is worked out (a third of composing),
    as nothing is constructed from the nodes; their values and marks are the same."""

    def resolve(self, kind, value, implicit):
        return ""
