"""Rewrite the checked IR for speed, keeping its meaning.

* A trivial game function (a few cheap operations: no list walked, no chance) is written into
  its callers instead of called: a call and a memo lookup cost more than such a body. It is not
  memoised either.
* ``count([... for ...]) > 0`` (and ``== 0``, ``>= 1``) becomes a search that stops at the first
  element.
* A list of constants is one constant, built once (rules never change a list in place).

It also finds the functions that count pieces at one place only, a parameter (``located``): a
move of pieces then makes stale only their values for the places it moved from and to.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass, replace

from . import ir

CHEAP_PRIMS = {"pieces", "other", "next_player", "key_of", "owner_of", "zone_of", "is_facedown", "size",
               "empty", "connected", "get", "team_of"}
MAX_NODES = 14


def _children(e):
    for f in fields(e):
        v = getattr(e, f.name)
        if isinstance(v, ir.Expr):
            yield v
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, ir.Expr):
                    yield x
                elif isinstance(x, tuple):
                    yield from (y for y in x if isinstance(y, ir.Expr))


def _cheap(e, functions, budget: list, seen: set) -> bool:
    """Whether an expression is cheap enough to write into its callers."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if isinstance(e, (ir.Comp, ir.Exists, ir.Seq, ir.ListOf, ir.Items)):  # walks or builds a list
        return False
    if isinstance(e, ir.Arith) and any(t.type != "int" for t in e.operands):
        return False
    if isinstance(e, ir.Prim) and e.name not in CHEAP_PRIMS:
        return False
    if isinstance(e, ir.Call):
        fn = functions.get(e.name)
        if fn is None or e.name in seen or not trivial(fn, functions, seen | {e.name}):
            return False
    return all(_cheap(c, functions, budget, seen) for c in _children(e))


def trivial(fn, functions, seen=frozenset()) -> bool:
    if fn.body is None or "!" in fn.reads:
        return False
    if getattr(fn, "_trivial", None) is None:
        fn._trivial = _cheap(fn.body, functions, [MAX_NODES], set(seen) | {fn.name})
    return fn._trivial


def _uses(e, name: str) -> int:
    """How many times a code name appears in an expression."""
    if isinstance(e, ir.PyName):
        return int(e.name == name)
    return sum(_uses(c, name) for c in _children(e))


def _simple(e) -> bool:
    return isinstance(e, (ir.Const, ir.Local, ir.PyName))


def _subst(e, table: dict):
    """A copy of an expression with code names replaced (a function's parameters by the
    arguments of a call)."""
    if isinstance(e, ir.PyName) and e.name in table:
        return table[e.name]
    if not is_dataclass(e):
        return e
    changes = {}
    for f in fields(e):
        v = getattr(e, f.name)
        if isinstance(v, ir.Expr):
            changes[f.name] = _subst(v, table)
        elif isinstance(v, list):
            changes[f.name] = [_subst(x, table) if isinstance(x, ir.Expr) else x for x in v]
    return replace(e, **changes) if changes else e


class Optimiser:
    def __init__(self, functions: dict):
        self.functions = functions

    def expr(self, e):
        """The optimised expression (children first)."""
        if e is None or not isinstance(e, ir.Expr):
            return e
        changes = {}
        for f in fields(e):
            v = getattr(e, f.name)
            if isinstance(v, ir.Expr):
                changes[f.name] = self.expr(v)
            elif isinstance(v, list):
                changes[f.name] = [self.expr(x) if isinstance(x, ir.Expr) else x for x in v]
        for k, v in changes.items():
            setattr(e, k, v)
        if isinstance(e, ir.Call):
            return self.inline(e)
        if isinstance(e, ir.Compare):
            return self.exists(e)
        if isinstance(e, ir.ListOf) and all(isinstance(x, ir.Const) for x in e.items):
            return ir.Const([x.value for x in e.items], type="list")  # built once, not at every use
        return e

    def inline(self, e: ir.Call):
        fn = self.functions.get(e.name)
        if fn is None or not trivial(fn, self.functions):
            return e
        table = {}
        if fn.uses_me:
            if e.me is None or (not _simple(e.me) and _uses(fn.body, "me") > 1):
                return e
            table["me"] = e.me
        for i, a in enumerate(e.args):
            if not _simple(a) and _uses(fn.body, f"a{i}") > 1:
                return e  # an argument that would be computed twice
            table[f"a{i}"] = a
        return self.expr(_subst(fn.body, table))

    def exists(self, e: ir.Compare):
        left, right = e.left, e.right
        if isinstance(left, ir.Prim) and left.name == "count" and len(left.args) == 1 \
                and isinstance(left.args[0], ir.Comp) and isinstance(right, ir.Const) and type(right.value) is int:
            found = ir.Exists(left.args[0], type="bool")
            if (e.op, right.value) in ((">", 0), (">=", 1), ("!=", 0)):
                return found
            if (e.op, right.value) in (("==", 0), ("<", 1), ("<=", 0)):
                return ir.Not(found, type="bool")
        return e

    def block(self, b: ir.Block):
        for s in b.stmts:
            self.stmt(s)

    def stmt(self, s):
        for f in fields(s):
            v = getattr(s, f.name)
            if isinstance(v, ir.Expr):
                setattr(s, f.name, self.expr(v))
            elif isinstance(v, list):
                out = []
                for x in v:
                    if isinstance(x, ir.Expr):
                        x = self.expr(x)
                    elif isinstance(x, tuple):
                        x = tuple(self.expr(y) if isinstance(y, ir.Expr) else y for y in x)
                    out.append(x)
                setattr(s, f.name, out)


def _places(e, functions, out: set) -> bool:
    """Add to out the places (expressions) at which an expression counts pieces (pieces,
    pieces_at: the only primitives reading piece kinds, check._note_reads), following the
    functions it calls; False when a called function counts them at more than one place."""
    if isinstance(e, ir.Prim) and e.name == "pieces" and len(e.args) == 3:
        out.add(e.args[2])
    elif isinstance(e, ir.Prim) and e.name == "pieces_at" and len(e.args) == 2:
        out.add(e.args[1])
    elif isinstance(e, ir.Call):
        fn = functions.get(e.name)
        if fn is not None and any(c.startswith("kind:") for c in fn.reads):
            at = located(fn, functions)
            if at is None or at >= len(e.args):
                return False
            out.add(e.args[at])
    return all(_places(c, functions, out) for c in _children(e))


def located(fn, functions) -> int | None:
    """The parameter (its index) that is the only place where a function counts pieces: every
    pieces(kind, owner, place) it reads, itself or through the functions it calls, has that
    parameter as the place. None when it counts none, or at other places, or reads anything."""
    if fn.body is None or "*" in fn.reads or not any(c.startswith("kind:") for c in fn.reads):
        return None
    places = set()
    if not _places(fn.body, functions, places):
        return None
    names = {p.name if isinstance(p, ir.PyName) else None for p in places}
    if len(names) != 1:
        return None
    name = names.pop()
    for i in range(len(fn.params)):
        if name == f"a{i}":
            return i
    return None
