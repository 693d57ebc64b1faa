"""Check the effect language and compile it to generated Python.

One walk does both jobs: every name is resolved (locals, game variables, zones, regions,
items, players, enum values, functions, procedures, moves, events) and every call is
checked against the registry's signature; problems become diagnostics pointing at the
exact line and column of the rule file. What survives is compiled:

* an expression becomes Python source, compiled into ``f(state, env) -> value``
  (comprehensions are real Python comprehensions, constants are literals);
* a statement becomes ``s(state, frame)`` placed in a *block* (a list of statements)
  that the interpreter (``engine.vm``) runs frame by frame. Simple statements (let,
  assignment, a primitive call, if, while) are generated code too; the others (loops,
  choices, procedure calls) are closures that push frames or set the pending decision.
  Blocks are numbered in compile order, so a saved stack ``[block, pc, env, aux]``
  resumes after a reload of the same rules.

No text from a rule file is pasted into generated code except as ``repr()`` literals or
names the grammar already restricts to identifiers (prefixed); parameters of game
functions become positional names ``a0, a1, ...``.

Each game function becomes one generated Python function whose value is memoised in
``state._memo`` together with the *channels* (zone families, piece kinds, variables) it
reads; the interpreter drops the value after a step that writes one of them. Trigger
conditions record their channels the same way, so a trigger is checked only after a step
that wrote something it reads.
"""
from __future__ import annotations

import itertools
import re

from ..errors import Diagnostic, RuleFailure, describe_value, did_you_mean
from .. import limits
from . import registry
from .parser import DSLSyntaxError, Node, parse, parse_expr

ANY = "any"
_counter = itertools.count()
_MISSING = object()


def _compatible(want: str, got: str) -> bool:
    if "|" in want:  # one of several types, e.g. item|list
        return any(_compatible(w, got) for w in want.split("|"))
    if want == "conn":  # a kind of board connection, written as text
        want = "str"
    if want == ANY or got == ANY or want == got:
        return True
    if want == "list" and got == "zone":
        return True
    if want == "str" and got.startswith("enum:"):
        return True
    if got == "none":
        return True
    return False


class GeneratedCodeError(Exception):
    """Python refused the code generated for a rule (nesting too deep, too long)."""


class Src:
    """Where a DSL text lives: a Source (file) and the YAML path of the scalar."""

    __slots__ = ("source", "path", "what")

    def __init__(self, source, path, what=""):
        route = getattr(source, "route", None)  # a game merged with mods: find the entry's own file
        if route is not None:
            source, path = route(tuple(path))
        self.source, self.path, self.what = source, tuple(path), what


class Compiler:
    def __init__(self, rules, diags: list[Diagnostic], removed: dict | None = None):
        self.r = rules
        self.diags = diags
        self.removed = removed or {}  # names a mod removed -> a hint saying which mod, where
        self._consts: dict = {}
        self._functions: dict = {}  # game function name -> (python name, type, reads)
        # the namespace of generated code: helpers and constants
        self.ns = {"_P": rules.props, "_E": {}, "_items": _items, "_seq": _seq, "_index": _index,
                   "_MISS": _MISSING, "_mul": limits.mul, "_add": limits.add, "_each": limits.each}
        self.reads: list[set] = []  # open collectors of the channels an expression reads
        self.used: set = set()  # names of symbols, functions and procedures some rule uses
        self._inlining: list[str] = []
        # what the rules need of each parameter of a game function or procedure, learnt from
        # its body (passed where a number is needed...), checked against every call at the end
        self._param_of: dict = {}   # id(scope entry) -> (entry, owner, index)
        self._needs: dict = {}      # (owner, index) -> {type: where it is needed}
        self._calls: list = []      # (owner, index, arg type, arg node, src, arg's own param key)
        self._heights: list = []    # see code(): deep code is split into helper functions

    # ------------------------------------------------------------ diagnostics
    def error(self, src: Src, node, code, message, hint=""):
        line, col = (node.line, node.col) if node is not None else (1, 1)
        if src.source is None:
            fl, fc, path = line, col, "<text>"
        else:
            fl, fc = src.source.text_pos(src.path, line, col)
            path = src.source.display
        self.diags.append(Diagnostic(path, fl, fc, code, message, hint))

    def _parse(self, text, src: Src, expr: bool):
        if not isinstance(text, str):
            text = str(text).lower() if isinstance(text, bool) else str(text)
        try:
            return parse_expr(text) if expr else parse(text)
        except DSLSyntaxError as exc:
            n = Node("x", [], exc.line, exc.col)
            self.error(src, n, "E201", f"syntax error in {src.what or 'effect'}: {exc.message}", exc.hint)
            return None

    # ------------------------------------------------------------ entry points
    def expr_text(self, text, src: Src, scope: dict):
        node = self._parse(text, src, expr=True)
        if node is not None:
            try:
                return self.expr(node, scope, src)
            except (RecursionError, GeneratedCodeError) as exc:
                self._too_complex(src, exc)
        return (lambda st, env: None), ANY

    def block_text(self, text, src: Src, scope: dict) -> int:
        node = self._parse(text, src, expr=False)
        if node is not None:
            try:
                return self.block(node, scope, src)
            except (RecursionError, GeneratedCodeError) as exc:
                self._too_complex(src, exc)
        return self.new_block([])

    def _too_complex(self, src, exc):
        self.error(src, None, "E201", f"{src.what or 'effect'} is too deeply nested or too long to compile",
                   "split it with let or into procedures")

    def new_block(self, stmts) -> int:
        self.r.blocks.append(stmts)
        return len(self.r.blocks) - 1

    # ------------------------------------------------------------ names
    def _visible_names(self, scope):
        return list(scope) + list(self.r.symbols) + list(self.r.var_defs) + list(self.r.functions)

    def _read(self, chan):
        for s in self.reads:
            s.add(chan)

    def const(self, value) -> str:
        """Code for a constant: a literal, or a name bound in the generated code's namespace."""
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        key = ("k", id(value))
        name = self._consts.get(key)
        if name is None:
            name = self._consts[key] = f"_k{len(self._consts)}"
            self.ns[name] = value
        return name

    def name(self, node: Node, scope: dict, src: Src):
        n = node.a[0]
        b = scope.get(n)
        if b is not None:
            kind, val, typ = b
            if kind == "local":
                return f"env.get({val!r})", typ
            return val, typ  # "code": a Python expression (function parameter, loop variable)
        r = self.r
        if n in r.var_defs:
            self._read("var:" + n)
            return f"st.vars[{n!r}]", r.var_types.get(n, ANY)
        sym = r.symbols.get(n)
        if sym is not None:
            self.used.add(n)
            typ, value = sym
            if typ == "family":
                self.error(src, node, "E402", f"'{n}' is a family and needs a key, as in {n}[key]",
                           f"write {n}[me] or {n}[<key>]")
                return "None", ANY
            if typ == "zone" and value in r.zones:
                self._read("zone:" + r.zones[value].family)
            return self.const(value), typ
        if n in r.functions:
            if not r.functions[n][0]:  # a function without parameters reads like a name
                return self.call_function(node, n, [], {}, scope, src)
            self.error(src, node, "E404", f"function '{n}' needs arguments", f"write {n}(...)")
            return "None", ANY
        hint = self.removed.get(n) or did_you_mean(n, self._visible_names(scope))
        self.error(src, node, "E301", f"unknown name '{n}'", hint)
        return "None", ANY

    # ------------------------------------------------------------ parameter types
    def param(self, owner: str, index: int, entry: tuple) -> tuple:
        """Register a scope entry as parameter `index` of a function or procedure."""
        self._param_of[id(entry)] = (entry, owner, index)
        return entry

    def _param_key(self, node, scope):
        """(owner, index) when node is a bare parameter of the rule being compiled."""
        if node is not None and node.kind == "name":
            e = scope.get(node.a[0])
            hit = self._param_of.get(id(e)) if e is not None else None
            if hit is not None and hit[0] is e:
                return hit[1], hit[2]
        return None

    def _need(self, node, scope, typ: str, src):
        key = self._param_key(node, scope)
        if key is not None and typ != ANY:
            self._needs.setdefault(key, {}).setdefault(typ, (src, node))

    def _note_call(self, owner, i, typ, node, scope, src):
        self._calls.append((owner, i, typ, node, src, self._param_key(node, scope)))

    def check_calls(self):
        """After everything is compiled: a call passing a value that a parameter cannot take
        (gain('three') where gain's n is counted as a number) is an error at the call."""
        needs = self._needs
        changed = True
        while changed:  # a parameter passed on to another rule needs what that one needs
            changed = False
            for owner, i, typ, node, src, own in self._calls:
                if own is not None and (owner, i) in needs:
                    mine = needs.setdefault(own, {})
                    for t, w in needs[(owner, i)].items():
                        if t not in mine:
                            mine[t] = w
                            changed = True
        for owner, i, typ, node, src, own in self._calls:
            for want, (wsrc, wnode) in needs.get((owner, i), {}).items():
                if typ != ANY and not _compatible(want, typ):
                    name = self._param_names(owner)[i] if i < len(self._param_names(owner)) else str(i)
                    self.error(src, node, "E402", f"argument '{name}' of '{owner}' must be "
                                                  f"{want.replace('|', ' or ')}, got {typ}",
                               f"'{owner}' uses {name} as {want.replace('|', ' or ')}")
                    break

    def _param_names(self, owner):
        r = self.r
        if owner in r.procedures:
            return r.procedures[owner][0]
        if owner in r.functions:
            return r.functions[owner][0]
        return []

    # ------------------------------------------------------------ expressions
    def to_list(self, code, typ):
        """Code giving a list: a zone's items (tableau holes skipped), or the value itself.
        A value of unknown type (a parameter, a loop variable) is checked at run time, and
        may be any zone: the expression then reads every channel."""
        if typ == "zone":
            return f"_items(st, {code})", "list"
        if typ == ANY:
            self._read("*")
            return f"_seq(st, {code})", "list"
        return code, typ

    def zone_items(self, code, typ):
        """A zone's items where a zone is known to stand; anything else unchanged."""
        return (f"_items(st, {code})", "list") if typ == "zone" else (code, typ)

    def as_list(self, f, typ):
        """The closure version of to_list, for statements."""
        if typ == "zone":
            items = self.ns["_items"]
            return lambda st, env: items(st, f(st, env))
        if typ == ANY:
            seq = self.ns["_seq"]
            return lambda st, env: seq(st, f(st, env))
        return f

    def function(self, code: str, args: str = "st, env"):
        """Compile a code string into a Python function of (st, env)."""
        name = f"_e{next(_counter)}"
        src = f"def {name}({args}):\n    return {code}\n"
        try:
            exec(compile(src, f"<effect {name}>", "exec"), self.ns)
        except (SyntaxError, RecursionError, MemoryError) as exc:  # too deep or too long
            raise GeneratedCodeError(str(exc)) from None
        return self.ns[name]

    def expr(self, node: Node, scope: dict, src: Src):
        """Check and compile an expression into ``f(st, env)``."""
        code, typ = self.code(node, scope, src)
        return self.function(code), typ

    HOIST_EVERY = 30  # nesting levels of generated code between two helper functions

    def code(self, node: Node, scope: dict, src: Src):
        m = getattr(self, "x_" + node.kind, None)
        if m is None:
            self.error(src, node, "E404", f"{node.kind} is not an expression")
            return "None", ANY
        heights = self._heights  # the nesting height of each piece of code being generated
        heights.append(0)
        try:
            c, t = m(node, scope, src)
        finally:
            h = heights.pop() + 1
        if h >= self.HOIST_EVERY:
            c, h = self._hoist(c, scope), 1
        if heights and heights[-1] < h:
            heights[-1] = h
        return c, t

    def _hoist(self, code: str, scope: dict) -> str:
        """A deeply nested piece of generated code moved into a helper function of its own, so
        any expression the parser accepts compiles (Python refuses code nested ~200 deep). The
        helper takes the names the piece uses from the code around it (parameters, loop
        variables) as arguments."""
        names = sorted({v for k, v, *_ in scope.values() if k == "code" and re.search(rf"\b{v}\b", code)})
        args = "".join(", " + n for n in names)
        name = f"_h{next(_counter)}"
        src = f"def {name}(st, env{args}):\n    return {code}\n"
        try:
            exec(compile(src, f"<effect {name}>", "exec"), self.ns)
        except (SyntaxError, RecursionError, MemoryError) as exc:
            raise GeneratedCodeError(str(exc)) from None
        return f"{name}(st, env{args})"

    def x_const(self, node, scope, src):
        v = node.a[0]
        typ = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "none" if v is None else "str"
        return repr(v), typ

    def x_name(self, node, scope, src):
        return self.name(node, scope, src)

    def x_list(self, node, scope, src):
        return "[" + ", ".join(self.code(e, scope, src)[0] for e in node.a[0]) + "]", "list"

    def x_comp(self, node, scope, src):
        elem, var, it, cond = node.a
        itc, ityp = self.to_list(*self.code(it, scope, src))
        if ityp in ("int", "bool", "player", "region", "item", "kind", "track") or ityp.startswith("enum:"):
            self.error(src, it, "E402", f"'[... for {var} in ...]' needs a list, got {ityp}")
        pv = f"v_{var}_{next(_counter)}"
        inner = dict(scope)
        inner[var] = ("code", pv, ANY)
        ec, _ = self.code(elem, inner, src)
        cc = f" if {self.code(cond, inner, src)[0]}" if cond is not None else ""
        return f"[{ec} for {pv} in _each(st, {itc}){cc}]", "list"  # walking a list draws on the budget

    def x_attr(self, node, scope, src):
        base, prop = node.a
        bc, _ = self.code(base, scope, src)
        if prop not in self.r.prop_names:
            self.error(src, node, "E303", f"unknown property '{prop}'",
                       did_you_mean(prop, self.r.prop_names) or "properties are declared in item_types")
        return f"{self.prop_table(prop)}.get({bc})", self.r.prop_types.get(prop, ANY)

    def prop_table(self, prop) -> str:
        """The name of a {id: value} table of one property (rules are immutable, so it is
        built once; one dict lookup per attribute read)."""
        key = ("prop", prop)
        name = self._consts.get(key)
        if name is None:
            name = self._consts[key] = f"_a{len(self._consts)}"
            self.ns[name] = {i: p.get(prop) for i, p in self.r.props.items()}
        return name

    def x_index(self, node, scope, src):
        base, idx = node.a
        r = self.r
        kc, _ = self.code(idx, scope, src)
        if base.kind == "name" and base.a[0] not in scope:
            n = base.a[0]
            sym = r.symbols.get(n)
            if sym is not None and sym[0] in ("family", "track"):
                fam = sym[1]
                if fam in r.zone_families:
                    self._read("zone:" + fam)
                    self._check_key(fam, idx, r.zone_families[fam], src)
                    return f"({fam + '.'!r} + str({kc}))", "zone"
                if fam in r.var_families:
                    self._read("var:" + fam)
                    self._check_key(fam, idx, r.var_families[fam], src)
                    return f"st.vars[{fam + '.'!r} + str({kc})]", r.var_types.get(fam, ANY)
        bc, btyp = self.zone_items(*self.code(base, scope, src))
        return f"_index({bc}, {kc})", ANY

    def _check_key(self, fam, idx, keys, src):
        if idx.kind == "name" and idx.a[0] in self.r.symbols:
            v = self.r.symbols[idx.a[0]][1]
            if v not in keys:
                self.error(src, idx, "E306", f"'{v}' is not a key of '{fam}'",
                           did_you_mean(v, keys) or f"keys: {', '.join(map(str, keys))}")
        elif idx.kind == "const" and idx.a[0] not in keys and str(idx.a[0]) not in map(str, keys):
            self.error(src, idx, "E306", f"{idx.a[0]!r} is not a key of '{fam}'",
                       f"keys: {', '.join(map(str, keys))}")

    _PYOP = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}

    def x_arith(self, node, scope, src):
        operands, ops = node.a
        parts = [self.code(o, scope, src) for o in operands]
        code, typ = self.zone_items(*parts[0])
        for op, part, o in zip(ops, parts[1:], operands[1:]):
            g, gt = self.zone_items(*part)
            for t, on in ((typ, operands[0]), (gt, o)):
                if t in ("bool", "str", "player", "region", "item", "kind", "track") or t.startswith("enum:"):
                    self.error(src, on, "E402", f"'{op}' needs numbers (or lists for + and *), got {t}")
                elif t == "list" and op not in "+*":
                    self.error(src, on, "E402", f"'{op}' needs numbers, got a list")
            if op in "-/%":
                for on in ((operands[0], o) if op else ()):
                    self._need(on, scope, "int", src)
            if self._heights and code.count("(") > 4 * self.HOIST_EVERY:  # a long chain: keep it shallow
                code = self._hoist(code, scope)
            if op == "*":
                code = f"_mul(st, {code}, {g})"
            elif op == "+" and (typ != "int" or gt != "int"):  # may be lists or texts: sized, charged
                code = f"_add(st, {code}, {g})"
            else:
                code = f"({code} {self._PYOP[op]} {g})"
            typ = "list" if "list" in (typ, gt) else "int"
        return code, typ

    _PYCMP = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

    def x_cmp(self, node, scope, src):
        op, a, b = node.a
        ac, at = self.code(a, scope, src)
        bc, bt = self.code(b, scope, src)
        if op in ("in", "not in"):
            if bt == "zone":
                test = f"(st.where.get({ac}) == {bc})"
            else:
                test = f"({ac} in {self.to_list(bc, bt)[0]})"
            return (test if op == "in" else f"(not {test})"), "bool"
        known = ("int", "str", "player", "region", "item", "zone", "kind", "track")
        if at in known and bt in known and at != bt and not (at == "str" or bt == "str"):
            self.error(src, node, "E402", f"comparing {at} with {bt} is always false")
        if op not in ("==", "!="):
            for t, o in ((at, a), (bt, b)):
                if t not in ("int", ANY, "none"):
                    self.error(src, o, "E402", f"'{op}' needs numbers, got {t}")
                self._need(o, scope, "int", src)
        return f"({ac} {self._PYCMP[op]} {bc})", "bool"

    def x_and(self, node, scope, src):
        return "(" + " and ".join(self.code(e, scope, src)[0] for e in node.a[0]) + ")", "bool"

    def x_or(self, node, scope, src):
        return "(" + " or ".join(self.code(e, scope, src)[0] for e in node.a[0]) + ")", "bool"

    def x_not(self, node, scope, src):
        return f"(not {self.code(node.a[0], scope, src)[0]})", "bool"

    def x_neg(self, node, scope, src):
        c, t = self.code(node.a[0], scope, src)
        if t not in ("int", ANY):
            self.error(src, node, "E402", f"'-' needs a number, got {t}")
        return f"(-{c})", "int"

    def x_cond(self, node, scope, src):
        (cc, _), (ac, at), (bc, bt) = (self.code(x, scope, src) for x in node.a)
        return f"({ac} if {cc} else {bc})", (at if at == bt else ANY)

    # Primitives whose call is written straight into the generated code (same meaning as
    # their registry implementation, without a Python call).
    _INLINE = {
        "count": "len({0})",
        "sum": "sum({0})",
        "any": "any({0})",
        "all": "all({0})",
        "pieces": "st.pieces.get(({0}, {1}, {2}), 0)",
    }

    def x_fcall(self, node, scope, src):
        name, pos, kw = node.a
        r = self.r
        if name in r.functions:
            return self.call_function(node, name, pos, kw, scope, src)
        prim = self.primitive(node, name, "fn", src)
        if prim is None:
            return "None", ANY
        args = self.args(node, prim, pos, kw, scope, src)
        self._note_reads(prim, pos, scope)
        if name == "mod" and len(pos) == 2 and pos[1].kind == "const" and pos[1].a[0] not in r.grant_names:
            self.error(src, pos[1], "E306", f"no item grants a modifier named {pos[1].a[0]!r}",
                       did_you_mean(pos[1].a[0], r.grant_names) or "modifiers come from items' grants:")
        if name in self._INLINE and len(args) == len(prim.params):
            return self._INLINE[name].format(*args), prim.returns
        if name == "pieces_at" and len(args) == 2 and self.r.owned_kinds and all(
                a.isidentifier() or a.startswith("env.get(") or a.startswith("'") for a in args):
            # simple arguments: sum the owned kinds in place (each argument read once per kind)
            o, loc = args
            return "(" + " + ".join(f"st.pieces.get(({k!r}, {o}, {loc}), 0)" for k in self.r.owned_kinds) + ")", "int"
        impl = self.ns.get(f"_p_{name}")
        if impl is None:
            self.ns[f"_p_{name}"] = prim.impl
        return f"_p_{name}(st{''.join(', ' + a for a in args)})", prim.returns

    def primitive(self, node, name, kind, src):
        """The registry primitive called ``name`` of this kind ("fn" or "stmt"), or None after
        reporting why not (unknown, or a statement used as a value and the other way round)."""
        prim = registry.REGISTRY.get(name)
        if prim is not None and prim.kind == kind:
            return prim
        other = self.r.procedures if kind == "fn" else self.r.functions
        if prim is not None or name in other:
            if kind == "fn":
                self.error(src, node, "E404", f"'{name}' is a statement and gives no value",
                           "call it on a line of its own")
            else:
                self.error(src, node, "E404", f"'{name}' is a function: its value is unused",
                           "use it in an expression, e.g. let x = ...")
            return None
        own = self.r.functions if kind == "fn" else self.r.procedures
        cands = [p for p, v in registry.REGISTRY.items() if v.kind == kind] + list(own)
        what = "function" if kind == "fn" else "statement or procedure"
        self.error(src, node, "E302", f"unknown {what} '{name}'", self.removed.get(name) or
                   did_you_mean(name, cands) or "see `lotr-rules schema dsl` for the primitives")
        return None

    def _note_reads(self, prim, pos, scope):
        if not self.reads:
            return
        n = prim.name
        if prim.chance:
            self._read("!")
        if n == "pieces" and pos and pos[0].kind == "name" and pos[0].a[0] in self.r.kinds:
            self._read("kind:" + pos[0].a[0])
        elif n == "pieces_at":
            for k in self.r.owned_kinds:
                self._read("kind:" + k)
        elif n == "pieces":
            for k in self.r.kinds:
                self._read("kind:" + k)
        elif n == "pos":
            t = pos[0].a[0] if pos and pos[0].kind == "name" else None
            if t in self.r.tracks and t not in scope:
                self._read("var:" + t)
            else:
                self._read("*")
        elif n == "mod":
            for fam in self.r.active_families:
                self._read("zone:" + fam)
        elif n == "usable":  # an item's own condition may read anything
            self._read("*")
        elif n == "zone_of":
            self._read("where")
        elif n in ("is_facedown", "available"):  # what lies face down (see registry: reveal)
            self._read("face")
        elif n == "known_to":
            self._read("face")
            self._read("where")
        for (pname, ptyp, *_), a in zip(prim.params, pos):
            if ptyp == "zone" and not self._static_zone(a, scope):
                self._read("*")  # a zone known only at run time: any zone may be read

    def _static_zone(self, node, scope) -> bool:
        """True if the zone (family) an expression names is known when compiling."""
        if node.kind == "name" and node.a[0] not in scope:
            return self.r.symbols.get(node.a[0], ("",))[0] == "zone" or node.a[0] in self.r.functions
        if node.kind == "index" and node.a[0].kind == "name" and node.a[0].a[0] not in scope:
            return node.a[0].a[0] in self.r.zone_families
        if node.kind == "cond":
            return self._static_zone(node.a[1], scope) and self._static_zone(node.a[2], scope)
        return node.kind == "fcall" and node.a[0] in self.r.functions

    def args(self, node, prim, pos, kw, scope, src):
        """Check arguments against a primitive's signature; return their code, in order."""
        params = prim.params
        variadic = params and params[-1][4]
        fixed = params[:-1] if variadic else params
        out = []
        required = sum(1 for p in fixed if not p[2])
        if len(pos) < required - len(kw) or (not variadic and len(pos) > len(fixed)):
            want = f"{required}" if required == len(fixed) else f"{required} to {len(fixed)}"
            self.error(src, node, "E401",
                       f"'{prim.name}' takes {want}{' or more' if variadic else ''} argument(s), got {len(pos) + len(kw)}",
                       f"{prim.name}({', '.join(p[0] for p in params)})")
        names = [p[0] for p in fixed]
        for k in kw:
            if k not in names:
                self.error(src, node, "E401", f"'{prim.name}' has no parameter '{k}'",
                           did_you_mean(k, names) or f"parameters: {', '.join(names)}")
        for i, p in enumerate(fixed):
            pname, ptyp, has_default, default, _ = p
            if i < len(pos):
                a = pos[i]
            elif pname in kw:
                a = kw[pname]
            elif has_default:
                out.append(repr(default))
                continue
            else:
                out.append("None")
                continue
            c, t = self.code(a, scope, src)
            if not _compatible(ptyp, t):
                self.error(src, a, "E402", f"argument '{pname}' of '{prim.name}' must be "
                                           f"{ptyp.replace('|', ' or ')}, got {t}")
            self._need(a, scope, ptyp, src)
            if ptyp == "conn" and a.kind == "const" and a.a[0] not in self.r.adj_kind:
                kinds = [k for k in self.r.adj_kind if k]
                self.error(src, a, "E306", f"no connection of the board has kind {a.a[0]!r}",
                           did_you_mean(str(a.a[0]), kinds) or f"kinds: {', '.join(kinds) or 'none declared'}")
            if ptyp == "list":
                c, _ = self.to_list(c, t)
            out.append(c)
        if variadic:
            ptyp = params[-1][1]
            for a in pos[len(fixed):]:
                c, t = self.code(a, scope, src)
                if not _compatible(ptyp, t):
                    self.error(src, a, "E402", f"extra arguments of '{prim.name}' must be {ptyp}, got {t}")
                out.append(c)
        return out

    def call_function(self, node, name, pos, kw, scope, src):
        """A call of a game function: check the arguments, then call its generated function."""
        r = self.r
        params = r.functions[name][0]
        if len(pos) + len(kw) != len(params) or any(k not in params for k in kw):
            self.error(src, node, "E401", f"'{name}' takes {len(params)} argument(s), got {len(pos) + len(kw)}",
                       f"{name}({', '.join(params)})")
            return "None", ANY
        self.used.add(name)
        fn = self.game_function(node, name, src)
        if fn is None:
            return "None", ANY
        fname, typ, reads, uses_me = fn
        for chan in reads:  # the caller reads what the function reads
            self._read(chan)
        me = scope.get("me", ("local", "me", "player"))
        # a function that never reads `me` gets none, so its memo is shared by every player
        mec = ("None" if not uses_me else f"env.get({me[1]!r})" if me[0] == "local" else me[1])
        args = []
        for i, p in enumerate(params):
            a = pos[i] if i < len(pos) else kw[p]
            c, t = self.code(a, scope, src)
            self._note_call(name, i, t, a, scope, src)
            args.append(c)
        return f"{fname}(st, {mec}{''.join(', ' + a for a in args)})", typ

    def game_function(self, node, name, src):
        """Generate (once) the Python function of a game function.

        Its value is memoised in ``state._memo`` under (name, me, args) together with the
        channels it reads; the interpreter drops the entry when a step writes one of them
        (``engine.vm.forget``). A function that draws on chance is never memoised."""
        done = self._functions.get(name)
        if done is not None:
            return done
        params, body_node, fsrc = self.r.functions[name]
        if name in self._inlining:
            self.error(src, node, "E403", f"function '{name}' calls itself",
                       "a function's value cannot depend on itself; use a procedure with a loop")
            return None
        if body_node is None:
            return None
        inner = {"me": ("code", "me", "player")}
        for i, p in enumerate(params):  # positional names: no rule-file text enters the code
            inner[p] = self.param(name, i, ("code", f"a{i}", ANY))
        self._inlining.append(name)
        reads = set()
        self.reads.append(reads)
        try:
            body, typ = self.code(body_node, inner, fsrc)
        finally:
            self._inlining.pop()
            self.reads.pop()
        fname = f"_fn_{name}"
        argl = "".join(f", a{i}" for i in range(len(params)))
        uses_me = re.search(r"\bme\b", body) is not None
        if "!" in reads:
            code = f"def {fname}(st, me{argl}):\n    return {body}\n"
        else:
            mask = self.r.mask_of(reads)
            keyt = f"({name!r}, me{argl},)"
            # memo: {read mask: {key: value}}, so a write drops whole groups at once
            code = (f"def {fname}(st, me{argl}):\n"
                    f"    key = {keyt}\n"
                    f"    grp = st._memo.get({mask})\n"
                    f"    if grp is None:\n"
                    f"        grp = st._memo[{mask}] = {{}}\n"
                    f"    try:\n"
                    f"        v = grp.get(key, _MISS)\n"
                    f"    except TypeError:\n"
                    f"        return {body}\n"
                    f"    if v is _MISS:\n"
                    f"        v = grp[key] = {body}\n"
                    f"    return v\n")
        try:
            exec(compile(code, f"<function {name}>", "exec"), self.ns)
        except (SyntaxError, RecursionError, MemoryError) as exc:
            raise GeneratedCodeError(str(exc)) from None
        done = self._functions[name] = (fname, typ, frozenset(reads), uses_me)
        return done

    # ------------------------------------------------------------ statements
    def block(self, node: Node, scope: dict, src: Src) -> int:
        """Compile a block; ``scope`` is extended in place by ``let`` (shared env)."""
        bid = self.new_block(None)
        stmts, where = [], []
        for s in node.a[0]:
            m = getattr(self, "s_" + s.kind, None)
            if m is None:
                self.error(src, s, "E404", f"{s.kind} is not a statement")
                continue
            stmts.append(m(s, scope, src))
            where.append((src, s.line, s.col))
        self.r.blocks[bid] = stmts
        self.r.block_src[bid] = where
        return bid

    def statement(self, body: str):
        """Compile the body of a statement into ``s(st, fr)`` (``env`` is the frame's env)."""
        name = f"_s{next(_counter)}"
        lines = "\n".join("    " + ln for ln in body.strip("\n").split("\n"))
        src = f"def {name}(st, fr):\n    env = fr[2]\n{lines}\n"
        try:
            exec(compile(src, f"<statement {name}>", "exec"), self.ns)
        except (SyntaxError, RecursionError, MemoryError) as exc:
            raise GeneratedCodeError(str(exc)) from None
        return self.ns[name]

    def s_let(self, node, scope, src):
        name, e = node.a
        code, t = self.code(e, scope, src)
        if name in self.r.var_defs or self.r.symbols.get(name):
            self.error(src, node, "E402", f"'{name}' is already a game name; choose another local name")
        scope[name] = ("local", name, t)
        return self.statement(f"env[{name!r}] = {code}\nfr[1] += 1")

    def s_assign(self, node, scope, src):
        name, idx, op, e = node.a
        code, t = self.code(e, scope, src)
        r = self.r
        target = scope[name][2] if name in scope else r.var_types.get(name, ANY)
        if op != "=":  # += and -= count: a parameter given here is a number
            if target != "list":
                self._need(e, scope, "int", src)
            if not _compatible("int|list", t) or (target not in (ANY, "none") and not _compatible("int|list", target)):
                self.error(src, e, "E402", f"'{op}' needs numbers (or lists), got {t if t != ANY else target}")
        elif name not in scope and target not in (ANY, "none") and t not in (ANY, "none") \
                and not _compatible(target, t) and not (target == "str" and t.startswith("enum:")):
            self.error(src, e, "E402", f"'{name}' holds {target}, not {t}",
                       f"it was declared under vars: with a {target} value")
        dirty = ""
        if idx is None and name in scope and scope[name][0] == "local":
            target = f"env[{scope[name][1]!r}]"
            if op != "=":
                code = f"env.get({scope[name][1]!r}) {op[0]} ({code})"
        elif idx is None and name in r.var_defs:
            target = f"st.vars[{name!r}]"
            dirty = f"st.dirty |= {r.bit('var:' + name)}"
            if op != "=":
                code = f"{target} {op[0]} ({code})"
        elif idx is not None and r.symbols.get(name, (None,))[0] == "family" and name in r.var_families:
            kc, _ = self.code(idx, scope, src)
            self._check_key(name, idx, r.var_families[name], src)
            target = "st.vars[_key]"
            dirty = (f"if _key not in st.vars:\n    raise KeyError(f'no variable {{_key}}')\n"
                     f"st.dirty |= {r.bit('var:' + name)}")
            code = f"{target} {op[0]} ({code})" if op != "=" else code
            return self.statement(f"_key = {name + '.'!r} + str({kc})\n{dirty}\n{target} = {code}\nfr[1] += 1")
        elif idx is None and name in r.var_families:
            self.error(src, node, "E402", f"'{name}' is a family and needs a key, as in {name}[key]",
                       f"write {name}[me] or {name}[<key>]")
            return _skip
        else:
            self.error(src, node, "E301", f"cannot assign to '{name}': not a local or a game variable",
                       did_you_mean(name, list(scope) + list(r.var_defs)) or "declare it under vars: or with let")
            return _skip
        return self.statement(f"{target} = {code}\n{dirty}\nfr[1] += 1")

    def s_call(self, node, scope, src):
        name, pos, kw = node.a
        r = self.r
        if name in r.procedures:
            return self.call_procedure(node, name, pos, kw, scope, src)
        prim = self.primitive(node, name, "stmt", src)
        if prim is None:
            return _skip
        codes = self.args(node, prim, pos, kw, scope, src)
        pname = f"_p_{name}"
        self.ns.setdefault(pname, prim.impl)
        envarg = "env, " if getattr(prim.impl, "wants_env", False) else ""
        return self.statement(f"fr[1] += 1\n{pname}(st, {envarg}{', '.join(codes)})")

    def call_procedure(self, node, name, pos, kw, scope, src):
        self.used.add(name)
        params, block_ref, _ = self.r.procedures[name]
        kw = dict(kw)
        me_f = None
        if "me" in kw:
            me_f, _ = self.expr(kw.pop("me"), scope, src)
        if len(pos) + len(kw) != len(params) or any(k not in params for k in kw):
            self.error(src, node, "E401", f"'{name}' takes {len(params)} argument(s), got {len(pos) + len(kw)}",
                       f"{name}({', '.join(params)})")
            return _skip
        fs = []
        for i, p in enumerate(params):
            a = pos[i] if i < len(pos) else kw[p]
            f, t = self.expr(a, scope, src)
            self._note_call(name, i, t, a, scope, src)
            fs.append((p, f))

        def call(st, fr):
            fr[1] += 1
            env = fr[2]
            new = {"me": me_f(st, env) if me_f else env.get("me")}
            for p, f in fs:
                new[p] = f(st, env)
            st.stack.append([block_ref[0], 0, new, None])
        return call

    def s_if(self, node, scope, src):
        clauses, else_blk = node.a
        lines = ["fr[1] += 1"]
        for i, (c, b) in enumerate(clauses):
            cc = self.code(c, scope, src)[0]
            lines.append(f"{'if' if i == 0 else 'elif'} {cc}:")
            lines.append(f"    st.stack.append([{self.block(b, scope, src)}, 0, env, None])")
        if else_blk is not None:
            lines.append("else:")
            lines.append(f"    st.stack.append([{self.block(else_blk, scope, src)}, 0, env, None])")
        return self.statement("\n".join(lines))

    def s_repeat(self, node, scope, src):
        nf, t = self.expr(node.a[0], scope, src)
        if not _compatible("int", t):
            self.error(src, node.a[0], "E402", f"repeat needs a number, got {t}")
        body = self.block(node.a[1], scope, src)

        def repeat(st, fr):
            if fr[3] is None:
                fr[3] = int(nf(st, fr[2]) or 0)
            if fr[3] > 0:
                fr[3] -= 1
                st.stack.append([body, 0, fr[2], None])
            else:
                fr[3] = None
                fr[1] += 1
        return repeat

    def s_for(self, node, scope, src):
        var, it, blk = node.a
        itf, t = self.expr(it, scope, src)
        itf = self.as_list(itf, t)
        scope[var] = ("local", var, ANY)
        body = self.block(blk, scope, src)

        def for_(st, fr):
            env = fr[2]
            if fr[3] is None:
                fr[3] = [list(itf(st, env)), 0]
            lst, i = fr[3]
            if i < len(lst):
                fr[3][1] = i + 1
                env[var] = lst[i]
                st.stack.append([body, 0, env, None])
            else:
                fr[3] = None
                fr[1] += 1
        return for_

    def s_while(self, node, scope, src):
        cc, _ = self.code(node.a[0], scope, src)
        body = self.block(node.a[1], scope, src)
        return self.statement(f"if {cc}:\n    st.stack.append([{body}, 0, env, None])\nelse:\n    fr[1] += 1")

    def _by(self, by, scope, src):
        if by is None:
            return lambda st, env: env.get("me")
        f, t = self.expr(by, scope, src)
        if not _compatible("player", t):
            self.error(src, by, "E402", f"'by' needs a player, got {t}")
        return f

    def s_choose(self, node, scope, src):
        var, opts, where, by, label, optional, about = node.a
        of, t = self.expr(opts, scope, src)
        of = self.as_list(of, t)
        af = self.expr(about, scope, src)[0] if about is not None else None
        scope[var] = ("local", var, ANY)
        wf = self.expr(where, scope, src)[0] if where is not None else None
        byf = self._by(by, scope, src)

        def choose(st, fr):
            env = fr[2]
            options = list(dict.fromkeys(of(st, env)))
            if wf is not None:
                keep = []
                for o in options:
                    env[var] = o
                    if wf(st, env):
                        keep.append(o)
                options = keep
            if not optional and len(options) <= 1:
                env[var] = options[0] if options else None
                fr[1] += 1
                return
            if optional and not options:
                env[var] = None
                fr[1] += 1
                return
            st.pending = {"type": "choose", "player": byf(st, env), "label": label, "var": var,
                          "options": options, "optional": optional}
            if af is not None:  # what the choice is about: shown in its labels, not in its ids
                st.pending["about"] = af(st, env)
        return choose

    def s_ask(self, node, scope, src):
        names, by = node.a
        for n, (line, col) in names:
            if n not in self.r.moves:
                self.error(src, Node("x", [], line, col), "E304", f"unknown move '{n}'",
                           self.removed.get(n) or did_you_mean(n, self.r.moves) or "moves are declared under moves:")
        moves = [n for n, _ in names]
        byf = self._by(by, scope, src)

        def ask(st, fr):
            st.pending = {"type": "ask", "player": byf(st, fr[2]), "moves": moves}
        return ask

    def _branches(self, node, scope, src):
        label, by, branches = node.a
        out = []
        seen = set()
        for name, cond, blk, (line, col) in branches:
            if name in seen:
                self.error(src, Node("x", [], line, col), "E305", f"branch '{name}' appears twice in '{label}'")
            seen.add(name)
            cf = self.expr(cond, scope, src)[0] if cond is not None else None
            out.append((name, cf, self.block(blk, scope, src)))
        return label, self._by(by, scope, src), out

    def s_one_of(self, node, scope, src):
        label, byf, branches = self._branches(node, scope, src)

        def one_of(st, fr):
            env = fr[2]
            opts = [n for n, c, b in branches if c is None or c(st, env)]
            if len(opts) <= 1:
                fr[1] += 1
                for n, c, b in branches:
                    if opts and n == opts[0]:
                        st.stack.append([b, 0, env, None])
                return
            st.pending = {"type": "branch", "player": byf(st, env), "label": label, "options": opts}
        one_of.branches = {n: b for n, c, b in branches}
        one_of.logged = True
        return one_of

    def s_any_order(self, node, scope, src):
        label, byf, branches = self._branches(node, scope, src)

        def any_order(st, fr):
            env = fr[2]
            if fr[3] is None:
                fr[3] = [n for n, c, b in branches]
            opts = [n for n, c, b in branches if n in fr[3] and (c is None or c(st, env))]
            if not opts:
                fr[3] = None
                fr[1] += 1
                return
            if len(opts) == 1:
                fr[3].remove(opts[0])
                st.stack.append([any_order.branches[opts[0]], 0, env, None])
                return
            st.pending = {"type": "order", "player": byf(st, env), "label": label, "options": opts}
        any_order.branches = {n: b for n, c, b in branches}
        return any_order

    def s_may(self, node, scope, src):
        label, by, blk = node.a
        byf = self._by(by, scope, src)
        body = self.block(blk, scope, src)

        def may(st, fr):
            st.pending = {"type": "branch", "player": byf(st, fr[2]), "label": label, "options": ["yes", "no"]}
        may.branches = {"yes": body}
        may.logged = False  # yes/no may answer a question whose answer is not for everyone
        return may

    def s_emit(self, node, scope, src):
        name, pos, kw = node.a
        ev = self.r.events.get(name)
        if ev is None:
            self.error(src, node, "E304", f"unknown event '{name}'",
                       did_you_mean(name, self.r.events) or "events are declared under events:")
            return _skip
        if pos:
            self.error(src, node, "E401", f"event '{name}' takes named arguments only",
                       f"emit {name}({', '.join(f'{p}=...' for p in ev)})")
        for k in kw:
            if k not in ev:
                self.error(src, node, "E401", f"event '{name}' has no argument '{k}'",
                           did_you_mean(k, ev) or f"arguments: {', '.join(ev)}")
        fs = [(k, self.expr(v, scope, src)[0]) for k, v in kw.items()]
        emit_impl = self.r.emit

        def emit(st, fr):
            fr[1] += 1
            env = fr[2]
            emit_impl(st, name, {k: f(st, env) for k, f in fs}, env.get("me"))
        return emit

    def s_return(self, node, scope, src):
        def ret(st, fr):
            env = fr[2]
            stack = st.stack
            while stack and stack[-1][2] is env:
                stack.pop()
        return ret


def _skip(st, fr):
    fr[1] += 1


def _items(st, z):
    """A zone's items as a list (empty tableau slots skipped)."""
    if z is None:
        return []
    lst = st.zones[z]
    return [i for i in lst if i is not None] if st.rules.zones[z].tableau else lst


def _seq(st, v):
    """A value used as a list whose type is known only at run time: a zone id means the
    zone's items; None means empty; anything else is taken as it is."""
    if isinstance(v, str):
        return _items(st, v) if v in st.rules.zones else [v]
    return v if v is not None else []


def _index(b, k):
    """xs[i] of a list (an error past its end), m[k] of a map (0 for a missing key)."""
    if isinstance(b, dict):
        return b.get(k, 0)
    if isinstance(b, list):
        if not isinstance(k, int) or isinstance(k, bool):
            raise RuleFailure(f"a list index must be a number, not {describe_value(k)}")
        if -len(b) <= k < len(b):
            return b[k]
        raise RuleFailure(f"index {k} is past the end of a list of {len(b)}"
                          if b else f"index {k} of an empty list")
    if b is None:
        raise RuleFailure(f"[{describe_value(k)}] of none: there is no list here")
    raise RuleFailure(f"[...] needs a list or a map, not {describe_value(b)}")
