"""Build a game's ``Rules`` from its loaded rule files (a ``Spec``): declare every name and check
the data (declare.py), check every piece of effect-language text and write it as one Python
module (code.py), and warn about likely mistakes (lint.py). Every problem is collected as a
diagnostic; the build never stops at the first.

The engine passes ``namespace(rules)``: the run-time names the generated module calls (the
build itself knows nothing of how a game runs)."""
from __future__ import annotations

import hashlib
import os

from ..dsl.parse import GRAMMAR_PATH
from . import checked


def digest(spec) -> str:
    """The grammar, the rule files' text and names within the game folder (not where the
    command ran), and the order of the mods."""
    h = hashlib.sha256(GRAMMAR_PATH.read_bytes())
    for s in sorted(spec.sources, key=lambda s: _in_game(s.path, spec.root)):
        h.update(_in_game(s.path, spec.root).encode() + b"\0" + s.text.encode())
    if spec.mods:  # the order mods apply in changes the rules (each overlays the ones before)
        from ..loading.mods import resolve_mod_dir

        order = [resolve_mod_dir(str(m), spec.root).resolve().name for m in spec.mods]
        h.update(b"\0mods\0" + "\0".join(order).encode())
    return h.hexdigest()[:16]


def _in_game(path, root) -> str:
    try:
        return os.path.relpath(path, root).replace(os.sep, "/")
    except ValueError:
        return str(path)


def build_rules(spec, namespace) -> tuple:
    """(rules, declarations) of a game: the checked rules kept from an earlier build of the same
    files when there are (checked.py; the declarations are then a function reading them on
    first use), else built now."""
    if not any(d.severity == "error" for d in spec.diags):
        hit = checked.load(spec, digest(spec), namespace)
        if hit is not None:
            rules, declarations, diags = hit
            spec.diags.extend(diags)
            return rules, declarations
    from .builder import Builder  # (an unchanged game loads without the checker and code writer)

    b = Builder(spec, namespace)
    return b.build(), b.d
