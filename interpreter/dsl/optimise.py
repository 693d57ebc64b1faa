"""Rewrite the checked IR for speed, keeping its meaning.

* A trivial game function (a few cheap operations: no list walked, no chance) is written into
  its callers instead of called: a call and a memo lookup cost more than such a body. It is not
  memoised either. Calling another game function is cheap (its memo keeps what it costs): a
  function that only tests what another returns is written in too.
* ``count([... for ...]) > 0`` (and ``== 0``, ``>= 1``) becomes a search that stops at the first
  element.
* A list of constants is one constant, built once (rules never change a list in place).

It also finds the functions that count pieces at one place only, a parameter (``located``): a
move of pieces then makes stale only their values for the places it moved from and to.
"""
from __future__ import annotations

from . import ir

CHEAP_PRIMS = {"pieces", "other", "next_player", "key_of", "owner_of", "zone_of", "is_facedown", "size",
               "empty", "connected", "get", "team_of"}
MAX_NODES = 14


_FIELDS: dict = {}  # a node class -> the names of its fields that may hold nodes (_names)
_EXPR_FIELDS: dict = {}  # ... of the expression classes alone (Optimiser.expr: anything else stays as it is)
_SCALARS = frozenset({"str", "int", "bool", "frozenset"})  # fields declared so hold no node


def _names(e) -> tuple:
    """The names of a node's fields that may hold other nodes (or lists of them): its type,
    reads, names and numbers are left out (worked out once per class)."""
    t = type(e)
    names = _FIELDS.get(t)
    if names is None:
        names = _FIELDS[t] = tuple(n for n, kind in zip(t.FIELDS, t.TYPES) if kind not in _SCALARS)
    return names


def _children(e):
    for name in _names(e):
        v = getattr(e, name)
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
    if isinstance(e, ir.ListOf) and all(isinstance(x, ir.Const) for x in e.items):
        budget[0] -= len(e.items)  # a list of constants: built once (Optimiser.expr), read in place
        return budget[0] >= 0
    if isinstance(e, (ir.Comp, ir.Exists, ir.Seq, ir.ListOf)):  # walks or builds a list
        return False
    # (ir.Items, a zone's items, is cheap: the zone's own list, built only for a tableau)
    if isinstance(e, ir.Arith) and any(t.type != "int" for t in e.operands):
        return False
    if isinstance(e, ir.Prim) and e.name not in CHEAP_PRIMS:
        return False
    if isinstance(e, ir.Call):
        fn = functions.get(e.name)
        if fn is None or e.name in seen or fn.body is None or "!" in fn.reads:
            return False
        # a trivial function is written in too; a call of any other keeps that function's own
        # memoised values: one lookup, as cheap as a call of this one would be
        trivial(fn, functions, seen | {e.name})
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
    if not isinstance(e, ir.Expr):
        return e
    changes = {}
    for name in _names(e):
        v = getattr(e, name)
        if isinstance(v, ir.Expr):
            changes[name] = _subst(v, table)
        elif isinstance(v, list):
            changes[name] = [_subst(x, table) if isinstance(x, ir.Expr) else x for x in v]
    if not changes:
        return e
    new = object.__new__(type(e))  # (a copy with the changes: dataclasses.replace, without its checks)
    new.__dict__.update(e.__dict__)
    new.__dict__.update(changes)
    return new


class Optimiser:
    def __init__(self, functions: dict):
        self.functions = functions

    def expr(self, e):
        """The optimised expression (children first); anything else as it is."""
        t = type(e)
        names = _EXPR_FIELDS.get(t)
        if names is None:
            if not isinstance(e, ir.Expr):
                return e
            names = _EXPR_FIELDS[t] = _names(e)
        fields = e.__dict__  # (read and set in place: the optimiser's hot loop)
        for name in names:
            v = fields[name]
            if type(v) is list:
                fields[name] = [self.expr(x) for x in v]  # (a new list: a copy may share the old one)
            elif v is not None:
                new = self.expr(v)
                if new is not v:
                    fields[name] = new
        if t is ir.Call:
            return self.inline(e)
        if t is ir.Compare:
            return self.exists(e)
        if t is ir.ListOf and all(type(x) is ir.Const for x in e.items):
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
        for name in _names(s):
            v = getattr(s, name)
            if isinstance(v, ir.Expr):
                setattr(s, name, self.expr(v))
            elif isinstance(v, list):
                out = []
                for x in v:
                    if isinstance(x, ir.Expr):
                        x = self.expr(x)
                    elif isinstance(x, tuple):
                        x = tuple(self.expr(y) if isinstance(y, ir.Expr) else y for y in x)
                    out.append(x)
                setattr(s, name, out)



def _keyed(c: str) -> bool:
    """Channels whose writes say the keys they touched (st.moved): piece kinds (the owner and
    both places of a move: shift_pieces) and zone families (the zone's key, its owner too)."""
    return c.startswith("kind:") or c.startswith("zone:")


def _key(e, near: dict):
    """What a key expression says of a place: ("at", i) parameter i itself, ("near", i) a
    region next to it (the variable of ``[... for x in adjacent(parameter i)]``), else None."""
    if isinstance(e, ir.PyName):
        if e.name[:1] == "a" and e.name[1:].isdigit():
            return "at", int(e.name[1:])
        return near.get(e.name)
    return None


def _sites(e, functions, rules, out: list, near: dict) -> None:
    """Add to out (channels, keys) for each place in an expression that reads keyed channels:
    what each key says of the place all the state read there is filed under (_key)."""
    if isinstance(e, ir.Zone):
        out.append((("zone:" + e.family,), (_key(e.key, near),) if e.key is not None else ()))
    elif isinstance(e, ir.Prim) and e.name in ("pieces", "pieces_at", "mod"):
        a = e.args  # (check._note_reads: the primitives that read piece kinds or zones unnamed)
        if e.name == "pieces" and len(a) == 3:
            kinds = [a[0].value] if isinstance(a[0], ir.Const) and a[0].value in rules.kinds else rules.kinds
            out.append((tuple("kind:" + k for k in kinds), (_key(a[1], near), _key(a[2], near))))
        elif e.name == "pieces_at" and len(a) == 2:
            out.append((tuple("kind:" + k for k in rules.owned_kinds), (_key(a[0], near), _key(a[1], near))))
        elif e.name == "mod" and a:  # the player's active zones: its own (their key)
            out.append((tuple("zone:" + f for f in rules.active_families), (_key(a[0], near),)))
        else:
            out.append((("*",), ()))
    elif isinstance(e, ir.Prim) and e.name == "occupied":  # pieces of every place: under no key
        out.append((tuple("kind:" + k for k in rules.kinds), ()))
    elif isinstance(e, ir.Call):
        fn = functions.get(e.name)
        if fn is not None:
            chans = {c for c in fn.reads if _keyed(c)}
            at = located(fn, functions, rules)
            if at is not None and at[0] < len(e.args):
                k = _key(e.args[at[0]], near)
                if at[2] == "near":  # next to the argument: next to a parameter at best
                    k = ("near", k[1]) if k is not None and k[0] == "at" else None
                out.append((tuple(at[1]), (k,)))
                chans -= at[1]
            out.append((tuple(chans), ()))
    elif isinstance(e, ir.Comp) and isinstance(e.source, ir.Prim) and e.source.name == "adjacent" \
            and e.source.args and (_key(e.source.args[0], near) or ("",))[0] == "at":
        _sites(e.source, functions, rules, out, near)
        inner = dict(near)
        inner[e.var] = ("near", _key(e.source.args[0], near)[1])
        for c in (e.elem, e.cond):
            if c is not None:
                _sites(c, functions, rules, out, inner)
        return
    for c in _children(e):
        _sites(c, functions, rules, out, near)


def located(fn, functions, rules):
    """(i, channels, how): the parameter that every read of those channels (piece kinds, zone
    families) is filed under, in the function itself or the functions it calls, e.g.
    units(s, r) counting pieces at r only, or skills_of(p) reading area[p] only (how: "at"), or
    under it and the regions next to it (how: "near", e.g. [x for x in adjacent(r) if units(s,
    x) > 0]); a write to them then makes stale only the values for the places it touched (and
    for "near", the regions next to those). None when there is none."""
    if getattr(fn, "_at", 0) != 0:
        return fn._at
    fn._at = None
    keyed = {c for c in fn.reads if _keyed(c)}
    if fn.body is None or "*" in fn.reads or not keyed:
        return None
    sites = []
    _sites(fn.body, functions, rules, sites, {})
    best = None
    for i in range(len(fn.params)):
        for how, fits in (("at", {("at", i)}), ("near", {("at", i), ("near", i)})):
            ok = {c for c in keyed if any(c in chans for chans, _ in sites)}
            for chans, keys in sites:
                if not any(k in fits for k in keys):
                    ok.difference_update(chans)
            if ok and (best is None or len(ok) > len(best[1])):
                best = (i, frozenset(ok), how)
    fn._at = best
    return best
