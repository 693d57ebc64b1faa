"""The cache of checked rules: a game whose rule files (and mods, and this engine) are unchanged
since its last build loads its ``Rules`` from disk, without parsing, checking and optimising its
effect text again, and links them to its generated module (cache.py) as a build does
(code.link). The build's own diagnostics (warnings) are kept with them. The declarations, which
only checking more text later needs (scenarios, explanations), are read on first use.

Kept next to the generated modules, keyed by the rules' digest, where the game was loaded from,
how its files are named from where the command runs, its mods and the engine
(cache.module_key). Written whole or not at all; a cache that cannot be read is rebuilt, never
an error. The rule files (their text and data, which the rules and the declarations both point
to) are kept as their numbers in the loaded spec: the spec a load reads them from has them,
the same, since the digest is the same.
"""
from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle

from ..loading.yamlsrc import Source
from .cache import _cache_dir, module_key, read_module


class _Tables:
    """The part of the declarations the generated module's namespace needs (engine/link.py)."""

    def __init__(self, decl):
        self.prop_names, self.var_families = decl.prop_names, decl.var_families


def key(spec, digest: str) -> str:
    """Also keyed by the files' names as messages give them (relative to where the command
    runs): rules kept by a run elsewhere would name their files as that run saw them."""
    h = hashlib.sha256(str(spec.root.resolve()).encode())
    for m in spec.mods:
        h.update(b"\0" + str(m).encode())
    for s in spec.sources:
        h.update(b"\0" + s.display.encode())
    return f"{module_key(digest)}-{h.hexdigest()[:12]}"


def _path(k: str) -> str:
    return os.path.join(_cache_dir(), k + ".rules")


def _source(n):  # (a rule file by its number in the spec: what _Reader.find_class gives for this name)
    raise pickle.UnpicklingError("a rule file's number read without its spec")


def _dumps(obj, sources) -> bytes:
    """obj pickled, each of the spec's sources as its number (_source)."""
    numbers = {id(s): i for i, s in enumerate(sources)}

    def reduce(s):
        n = numbers.get(id(s))
        return s.__reduce__() if n is None else (_source, (n,))

    out = io.BytesIO()
    p = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    p.dispatch_table = {**copyreg.dispatch_table, Source: reduce}  # (called for sources only)
    p.dump(obj)
    return out.getvalue()


class _Reader(pickle.Unpickler):
    """Reads what _dumps wrote: a source's number is that source of the spec loaded now."""

    def __init__(self, data: bytes, sources):
        super().__init__(io.BytesIO(data))
        self.sources = sources

    def find_class(self, module, name):
        if module == __name__ and name == "_source":
            return self.sources.__getitem__
        return super().find_class(module, name)


def save(spec, rules, decl, fnames, diags) -> None:
    """Keep the rules of a build (called before the module is linked into them: they hold
    no compiled code yet). A failure to write, or rules that do not pickle, never fail a load."""
    from ..dsl.treecache import deep_recursion
    from ..loading.cachefile import write_atomically

    try:
        with deep_recursion():
            data = pickle.dumps({"rules": _dumps((rules, _Tables(decl)), spec.sources),
                                 "decl": _dumps(decl, spec.sources),
                                 "fnames": fnames, "diags": diags}, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return
    write_atomically(_path(key(spec, rules.digest)), lambda fh: fh.write(data))


def load(spec, digest: str, namespace):
    """(rules, a loader of the declarations, the build's diagnostics) from the cache, or None."""
    from ..dsl.treecache import deep_recursion
    from .module import link

    try:
        with open(_path(key(spec, digest)), "rb") as fh:
            data = pickle.load(fh)
        mod = read_module(module_key(digest))
        if mod is None:
            return None
        sources = list(spec.sources)
        with deep_recursion():
            rules, tables = _Reader(data["rules"], sources).load()
        link(rules, tables, data["fnames"], mod, module_key(digest), namespace)
    except Exception:  # no cache, or one this engine cannot read: build the rules again
        return None
    blob = data["decl"]

    def declarations():
        with deep_recursion():
            return _Reader(blob, sources).load()

    return rules, declarations, data["diags"]
