"""Check the effect language: parsed text -> the typed IR of ``ir.py``, every problem reported.

Every name is resolved (locals, game variables, zones, regions, items, players, enum values,
functions, procedures, moves, events), every call is checked against its signature
(``signatures.py`` for primitives), types are followed, and the *channels* each rule reads are
collected (zone families, piece kinds, variables: what decides when a memoised function is
forgotten and when a trigger is checked; some are settled once every rule is checked:
``resolve``). Problems become diagnostics at the exact line and
column of the rule file; what is wrong becomes an ``ir.Nothing`` so the rest is still checked.

A parameter's type is learnt from how the rule uses it (passed where a number is needed, added
to...), and every call is checked against it once everything is checked (``check_calls``).

Why this module is large: one method per construct of the language, in the grammar's order
(names, expressions, calls, statements, decisions); the checker's state (scope, channels read,
parameter types) is shared by all of them.
"""
from __future__ import annotations

import re

from ..errors import Diagnostic, did_you_mean
from ..loading.yamlsrc import Src  # noqa: F401 (where a text lives; kept where loading keeps sources)
from . import ir
from .ir import ANY
from .parse import DSLSyntaxError, Node, parse, parse_expr
from .signatures import SIGNATURES

def compatible(want: str, got: str) -> bool:
    if "|" in want:  # one of several types, e.g. item|list
        return any(compatible(w, got) for w in want.split("|"))
    if want == "conn":  # a kind of board connection, written as text
        want = "str"
    if want == ANY or got == ANY or want == got:
        return True
    if want == "list" and got == "zone":
        return True
    if want == "str" and got.startswith("enum:"):
        return True
    return got == "none"


class Function:
    """A game function as checked: its body, type, the channels it reads, whether it reads
    `me`, and whether it draws on chance."""

    __slots__ = ("name", "params", "body", "type", "reads", "uses_me", "src", "_node", "memo", "mask", "_trivial",
                 "_at", "param_reads", "text")

    def __init__(self, name, params, node, src, text=None):
        """text: what node was parsed from (None for a text that did not parse)."""
        self.name, self.params, self._node, self.src, self.text = name, params, node, src, text
        self.body, self.type, self.reads, self.uses_me = None, ANY, frozenset(), False
        # channels it reads only through some parameters: '*' (a parameter that may be a zone,
        # a value of unknown type used as a list) and 'where' (zone_of(parameter)) -> those
        # parameters; a call reads them as its arguments there say (Checker._read_via)
        self.param_reads = {}
        self.memo, self.mask, self._trivial = True, 0, None
        self._at = 0  # (parameter, channels read only under it), worked out by optimise.located

    @property
    def node(self):
        """The parsed text (None where it did not parse). Kept in the declarations' cache
        (checked.py) without it, a third of that cache: parsed again when read, to word an
        explanation (engine/wording.py)."""
        node = self._node
        if node is None and self.text is not None:
            from .parse import parse_expr

            node = self._node = parse_expr(self.text)
        return node

    def __getstate__(self):
        return None, {k: getattr(self, k) for k in self.__slots__ if k != "_node" or self.text is None}

    def __setstate__(self, state):
        self._node = None
        for k, v in state[1].items():
            setattr(self, k, v)


class Checker:
    def __init__(self, rules, decl, diags: list, removed: dict | None = None):
        self.r = rules   # the running game's tables (zones, kinds, regions, channels...)
        self.d = decl    # what the build declared (names, types, procedures)
        self.diags = diags
        self.removed = removed or {}  # names a mod removed -> a hint saying which mod, where
        self.blocks: list = []        # every ir.Block, by id
        self.functions: dict = {}     # name -> Function (checked on first use)
        self.used: set = set()        # symbols, functions and procedures some rule uses
        self.reads: list = []         # open collectors of the channels being read
        self._checking: list = []     # functions being checked (recursion)
        self._uses_me: list = []      # per function being checked: does it read me?
        self._via: list = []          # per function being checked: channel -> parameters it is read through
        self.var_sets: dict = {}      # game variable -> the values assigned to it
        self._holds_zone: dict = {}   # game variable -> whether it may hold a zone (resolve)
        self.usable_reads: set = set()  # what the items' conditions read (the build fills it)
        self._names = 0
        # a parameter's type, learnt from its body, checked against every call at the end
        self._param_of: dict = {}     # id(scope entry) -> (entry, owner, index)
        self._needs: dict = {}        # (owner, index) -> {type: where it is needed}
        self._calls: list = []        # (owner, index, arg type, arg node, src, arg's own param key)
        # where each decision is asked, by its label (an ask: 'ask' and its lone move): the types
        # of the locals in scope there, one dict per place (a display prompt may read them)
        self.decisions: dict = {}
        # a node's kind -> the function checking it as an expression (False: none), and as a
        # statement: looked up once (functions of the class, not bound methods: no cycle)
        self._exprs: dict = {}
        self._stmts: dict = {}

    # ------------------------------------------------------------ diagnostics
    def error(self, src: Src, node, code, message, hint=""):
        line, col = (node.line, node.col) if node is not None else (1, 1)
        if src is None or src.source is None:
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

    def _pyname(self, var: str) -> str:
        self._names += 1
        return f"v_{var}_{self._names}"

    # ------------------------------------------------------------ entry points
    def expr_text(self, text, src: Src, scope: dict) -> ir.Expr:
        node = self._parse(text, src, expr=True)
        if node is None:
            return ir.Const(None)
        try:
            return self.expr(node, scope, src)
        except RecursionError:
            self._too_complex(src)
            return ir.Const(None)

    def block_text(self, text, src: Src, scope: dict) -> ir.Block:
        node = self._parse(text, src, expr=False)
        if node is None:
            return self.new_block([], src)
        try:
            return self.block(node, scope, src)
        except RecursionError:
            self._too_complex(src)
            return self.new_block([], src)

    def _too_complex(self, src):
        self.error(src, None, "E201", f"{src.what or 'effect'} is too deeply nested or too long to compile",
                   "split it with let or into procedures")

    def new_block(self, stmts, src=None) -> ir.Block:
        b = ir.Block(len(self.blocks), stmts, src)
        self.blocks.append(b)
        return b

    # ------------------------------------------------------------ names and channels
    def _visible_names(self, scope):
        return list(scope) + list(self.d.symbols) + list(self.r.var_defs) + list(self.functions)

    def _read(self, chan):
        for s in self.reads:
            s.add(chan)

    def _scope_value(self, entry) -> ir.Expr:
        kind, val, typ = entry
        if kind == "code":
            if val == "me" and self._uses_me:
                self._uses_me[-1] = True
            return ir.PyName(val, type=typ)
        return ir.Local(val, type=typ)

    def name(self, node: Node, scope: dict, src: Src) -> ir.Expr:
        n = node.a[0]
        b = scope.get(n)
        if b is not None:
            return self._scope_value(b)
        r = self.r
        if n in r.var_defs:
            self._read("var:" + n)
            return ir.Var(n, type=self.d.var_types.get(n, ANY))
        sym = self.d.symbols.get(n)
        if sym is not None:
            self.used.add(n)
            typ, value = sym
            if typ == "family":
                self.error(src, node, "E402", f"'{n}' is a family and needs a key, as in {n}[key]",
                           f"write {n}[me] or {n}[<key>]")
                return ir.Const(None)
            if typ == "zone" and value in r.zones:
                self._read("zone:" + r.zones[value].family)
                return ir.Zone(value, type="zone")
            return ir.Const(value, type=typ)
        if n in self.functions:
            if not self.functions[n].params:  # a function without parameters reads like a name
                return self.call_function(node, n, [], {}, scope, src)
            self.error(src, node, "E404", f"function '{n}' needs arguments", f"write {n}(...)")
            return ir.Const(None)
        hint = self.removed.get(n) or did_you_mean(n, self._visible_names(scope))
        self.error(src, node, "E301", f"unknown name '{n}'", hint)
        return ir.Const(None)

    # ------------------------------------------------------------ parameter types
    def param(self, owner: str, index: int, entry: tuple) -> tuple:
        """Register a scope entry as parameter `index` of a function or procedure."""
        self._param_of[id(entry)] = (entry, owner, index)
        return entry

    def _param_key(self, node, scope):
        """(owner, index) when node is a bare parameter of the rule being checked."""
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

    def given_lists(self) -> set:
        """The game functions given a list: a parameter used as one, or a call passing one."""
        out = {owner for owner, i, typ, *_ in self._calls if typ == "list"}
        out.update(owner for (owner, i), types in self._needs.items() if "list" in types)
        return out & set(self.functions)

    def check_calls(self):
        """After everything is checked: a call passing a value that a parameter cannot take
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
            for want in needs.get((owner, i), {}):
                if typ != ANY and not compatible(want, typ):
                    names = self._param_names(owner)
                    name = names[i] if i < len(names) else str(i)
                    self.error(src, node, "E402", f"argument '{name}' of '{owner}' must be "
                                                  f"{want.replace('|', ' or ')}, got {typ}",
                               f"'{owner}' uses {name} as {want.replace('|', ' or ')}")
                    break

    def _param_names(self, owner):
        if owner in self.d.procedures:
            return self.d.procedures[owner][0]
        if owner in self.functions:
            return self.functions[owner].params
        return []

    # ------------------------------------------------------------ expressions
    def to_list(self, e: ir.Expr) -> ir.Expr:
        """A list: a zone's items (tableau holes skipped), or the value itself. A value of
        unknown type (a parameter, a loop variable) is checked at run time, and may be any
        zone: the expression then reads every channel."""
        if e.type == "zone":
            return ir.Items(e, type="list")
        if e.type == ANY:
            self._read_any_zone(e)
            return ir.Seq(e, type="list")
        return e

    def _read_any_zone(self, e: ir.Expr) -> None:
        """A value that may be any zone is read: every channel, unless it is a parameter of the
        function being checked (then that function's callers say what they pass it)."""
        if self._via and isinstance(e, ir.PyName) and re.fullmatch(r"a\d+", e.name):
            self._via[-1].setdefault("*", set()).add(int(e.name[1:]))
        elif isinstance(e, ir.Var):  # a zone only if the variable ever holds one (resolve)
            self._read("seq:" + e.name)
        else:
            self._read("*")

    def resolve(self, reads) -> frozenset:
        """The channels read, once every rule is checked: 'seq:v' (the zone variable v may
        name) is every channel if v ever holds a zone or a value of unknown type, else none;
        'usable' (an item's condition) is what the items' conditions read."""
        out = set()
        for c in reads:
            if c.startswith("seq:"):
                held = self._holds_zone.get(c)
                if held is None:  # (resolve runs once every rule is checked: the answer stays)
                    held = self._holds_zone[c] = self._may_hold_zone(c[4:])
                if held:
                    out.add("*")
            elif c == "usable":
                out |= self.resolve(self.usable_reads - {"usable"}) if "usable" not in self.usable_reads else {"*"}
            else:
                out.add(c)
        return frozenset(out)

    def _may_hold_zone(self, name, seen=None) -> bool:
        r = self.r
        seen = seen if seen is not None else set()
        if name in seen:
            return False
        seen.add(name)
        inits = [v for k, v in r.var_defs.items() if k == name or k.startswith(name + ".")]
        return any(isinstance(v, str) and v in r.zones for v in inits) or \
            any(self._may_be_zone(e, seen) for e in self.var_sets.get(name, ()))

    def _may_be_zone(self, e, seen) -> bool:
        if e.type in ("list", "none", "int", "bool"):
            return False
        if isinstance(e, ir.Var):
            return self._may_hold_zone(e.name, seen)
        if isinstance(e, ir.IfExpr):
            return self._may_be_zone(e.then, seen) or self._may_be_zone(e.other, seen)
        return True

    def zone_items(self, e: ir.Expr) -> ir.Expr:
        """A zone's items where a zone is known to stand; anything else unchanged."""
        return ir.Items(e, type="list") if e.type == "zone" else e

    def expr(self, node: Node, scope: dict, src: Src) -> ir.Expr:
        m = self._exprs.get(node.kind)
        if m is None:
            m = self._exprs[node.kind] = getattr(type(self), "x_" + node.kind, False)
        if not m:
            self.error(src, node, "E404", f"{node.kind} is not an expression")
            return ir.Const(None)
        return m(self, node, scope, src)

    def x_const(self, node, scope, src):
        v = node.a[0]
        typ = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "none" if v is None else "str"
        return ir.Const(v, type=typ)

    x_name = name

    def x_list(self, node, scope, src):
        return ir.ListOf([self.expr(e, scope, src) for e in node.a[0]], type="list")

    def x_comp(self, node, scope, src):
        elem, var, it, cond = node.a
        source = self.to_list(self.expr(it, scope, src))
        if source.type in ("int", "bool", "player", "region", "item", "kind", "track") or source.type.startswith("enum:"):
            self.error(src, it, "E402", f"'[... for {var} in ...]' needs a list, got {source.type}")
        pv = self._pyname(var)
        inner = dict(scope)
        inner[var] = ("code", pv, ANY)
        e = self.expr(elem, inner, src)
        c = self.expr(cond, inner, src) if cond is not None else None
        return ir.Comp(e, pv, source, c, type="list")

    def x_attr(self, node, scope, src):
        base, prop = node.a
        b = self.expr(base, scope, src)
        if prop not in self.d.prop_names:
            self.error(src, node, "E303", f"unknown property '{prop}'",
                       did_you_mean(prop, self.d.prop_names) or "properties are declared in item_types")
        return ir.Attr(b, prop, type=self.d.prop_types.get(prop, ANY))

    def x_index(self, node, scope, src):
        base, idx = node.a
        r = self.r
        k = self.expr(idx, scope, src)
        if base.kind == "name" and base.a[0] not in scope:
            n = base.a[0]
            sym = self.d.symbols.get(n)
            if sym is not None and sym[0] in ("family", "track"):
                fam = sym[1]
                if fam in r.zone_families:
                    self._read("zone:" + fam)
                    self._check_key(fam, idx, r.zone_families[fam], src)
                    return ir.Zone(fam, k, type="zone")
                if fam in self.d.var_families:
                    self._read("var:" + fam)
                    self._check_key(fam, idx, self.d.var_families[fam], src)
                    return ir.Var(fam, k, type=self.d.var_types.get(fam, ANY))
        b = self.zone_items(self.expr(base, scope, src))
        return ir.Index(b, k)

    def _check_key(self, fam, idx, keys, src):
        if idx.kind == "name" and idx.a[0] in self.d.symbols:
            v = self.d.symbols[idx.a[0]][1]
            if v not in keys:
                self.error(src, idx, "E306", f"'{v}' is not a key of '{fam}'",
                           did_you_mean(v, keys) or f"keys: {', '.join(map(str, keys))}")
        elif idx.kind == "const" and idx.a[0] not in keys and str(idx.a[0]) not in map(str, keys):
            self.error(src, idx, "E306", f"{idx.a[0]!r} is not a key of '{fam}'",
                       f"keys: {', '.join(map(str, keys))}")

    def x_arith(self, node, scope, src):
        operands, ops = node.a
        parts = [self.zone_items(self.expr(o, scope, src)) for o in operands]
        typ = parts[0].type
        for op, part, o in zip(ops, parts[1:], operands[1:]):
            gt = part.type
            for t, on in ((typ, operands[0]), (gt, o)):
                if t in ("bool", "str", "player", "region", "item", "kind", "track") or t.startswith("enum:"):
                    self.error(src, on, "E402", f"'{op}' needs numbers (or lists for + and *), got {t}")
                elif t == "list" and op not in "+*":
                    self.error(src, on, "E402", f"'{op}' needs numbers, got a list")
            if op in "-/%":
                for on in (operands[0], o):
                    self._need(on, scope, "int", src)
            typ = "list" if "list" in (typ, gt) else "int"
        return ir.Arith(parts, list(ops), type=typ)

    def x_cmp(self, node, scope, src):
        op, a, b = node.a
        left = self.expr(a, scope, src)
        right = self.expr(b, scope, src)
        at, bt = left.type, right.type
        if op in ("in", "not in"):
            if bt != "zone":
                right = self.to_list(right)
            return ir.Compare(op, left, right, type="bool")
        known = ("int", "str", "player", "region", "item", "zone", "kind", "track")
        if at in known and bt in known and at != bt and not (at == "str" or bt == "str"):
            self.error(src, node, "E402", f"comparing {at} with {bt} is always false")
        if op not in ("==", "!="):
            for t, o in ((at, a), (bt, b)):
                if t not in ("int", ANY, "none"):
                    self.error(src, o, "E402", f"'{op}' needs numbers, got {t}")
                self._need(o, scope, "int", src)
        return ir.Compare(op, left, right, type="bool")

    def x_and(self, node, scope, src):
        return ir.BoolOp("and", [self.expr(e, scope, src) for e in node.a[0]], type="bool")

    def x_or(self, node, scope, src):
        return ir.BoolOp("or", [self.expr(e, scope, src) for e in node.a[0]], type="bool")

    def x_not(self, node, scope, src):
        return ir.Not(self.expr(node.a[0], scope, src), type="bool")

    def x_neg(self, node, scope, src):
        v = self.expr(node.a[0], scope, src)
        if v.type not in ("int", ANY):
            self.error(src, node, "E402", f"'-' needs a number, got {v.type}")
        return ir.Neg(v, type="int")

    def x_cond(self, node, scope, src):
        c, a, b = (self.expr(x, scope, src) for x in node.a)
        return ir.IfExpr(c, a, b, type=a.type if a.type == b.type else ANY)

    def x_fcall(self, node, scope, src):
        name, pos, kw = node.a
        r = self.r
        if name in self.functions:
            return self.call_function(node, name, pos, kw, scope, src)
        sig = self.signature(node, name, "fn", src)
        if sig is None:
            return ir.Const(None)
        args = self.args(node, sig, pos, kw, scope, src)
        self._note_reads(sig, pos, scope)
        if name == "zone_of" and args:
            self._read_where(args[0])
        if name == "mod" and len(pos) == 2 and pos[1].kind == "const" and pos[1].a[0] not in self.d.grant_names:
            self.error(src, pos[1], "E306", f"no item grants a modifier named {pos[1].a[0]!r}",
                       did_you_mean(pos[1].a[0], self.d.grant_names) or "modifiers come from items' grants:")
        return ir.Prim(name, args, type=sig.returns)

    def signature(self, node, name, kind, src):
        """The primitive called ``name`` of this kind ("fn" or "stmt"), or None after reporting
        why not (unknown, or a statement used as a value and the other way round)."""
        sig = SIGNATURES.get(name)
        if sig is not None and sig.kind == kind:
            return sig
        other = self.d.procedures if kind == "fn" else self.functions
        if sig is not None or name in other:
            if kind == "fn":
                self.error(src, node, "E404", f"'{name}' is a statement and gives no value",
                           "call it on a line of its own")
            else:
                self.error(src, node, "E404", f"'{name}' is a function: its value is unused",
                           "use it in an expression, e.g. let x = ...")
            return None
        own = self.functions if kind == "fn" else self.d.procedures
        cands = [p for p, v in SIGNATURES.items() if v.kind == kind] + list(own)
        what = "function" if kind == "fn" else "statement or procedure"
        self.error(src, node, "E302", f"unknown {what} '{name}'", self.removed.get(name) or
                   did_you_mean(name, cands) or "see `lotr-rules schema dsl` for the primitives")
        return None

    def _note_reads(self, sig, pos, scope):
        if not self.reads:
            return
        n = sig.name
        r = self.r
        if sig.chance:
            self._read("!")
        if n == "pieces" and pos and pos[0].kind == "name" and pos[0].a[0] in r.kinds:
            self._read("kind:" + pos[0].a[0])
        elif n in ("pieces_at",):
            for k in r.owned_kinds:
                self._read("kind:" + k)
        elif n == "occupied" and pos and pos[0].kind == "list" and all(
                x.kind == "name" and x.a[0] in r.kinds and x.a[0] not in scope for x in pos[0].a[0]):
            for x in pos[0].a[0]:
                self._read("kind:" + x.a[0])
        elif n in ("pieces", "occupied"):
            for k in r.kinds:
                self._read("kind:" + k)
        elif n == "pos":
            t = pos[0].a[0] if pos and pos[0].kind == "name" else None
            if t in r.tracks and t not in scope:
                self._read("var:" + t)
            else:
                self._read("*")
        elif n == "mod":
            for fam in r.active_families:
                self._read("zone:" + fam)
        elif n == "usable":  # an item's own condition: what all of them read (resolve)
            self._read("usable")
        elif n == "zone_of":
            pass  # (x_fcall: _read_where, from the checked argument)
        elif n in ("is_facedown", "available"):  # what lies face down
            self._read("face")
        elif n == "known_to":
            self._read("face")
            self._read("where")
        if n in ("key_of", "owner_of"):  # what the rules say of a zone, not what it holds
            return
        for (pname, ptyp, *_), a in zip(sig.params, pos):
            if ptyp == "zone" and not self._static_zone(a, scope):  # a zone known only at run time
                entry = scope.get(a.a[0]) if a.kind == "name" else None
                if entry is not None and entry[0] == "code":
                    self._read_any_zone(ir.PyName(entry[1], type=ANY))
                else:
                    self._read("*")  # any zone may be read

    def _static_zone(self, node, scope) -> bool:
        """True if the zone (family) an expression names is known when checking."""
        if node.kind == "name" and node.a[0] not in scope:
            return self.d.symbols.get(node.a[0], ("",))[0] == "zone" or node.a[0] in self.functions
        if node.kind == "index" and node.a[0].kind == "name" and node.a[0].a[0] not in scope:
            return node.a[0].a[0] in self.r.zone_families
        if node.kind == "cond":
            return self._static_zone(node.a[1], scope) and self._static_zone(node.a[2], scope)
        return node.kind == "fcall" and node.a[0] in self.functions

    def args(self, node, sig, pos, kw, scope, src) -> list:
        """Check arguments against a primitive's signature; return them, in order."""
        params = sig.params
        variadic = params and params[-1][4]
        fixed = params[:-1] if variadic else params
        out = []
        required = sum(1 for p in fixed if not p[2])
        if len(pos) < required - len(kw) or (not variadic and len(pos) > len(fixed)):
            want = f"{required}" if required == len(fixed) else f"{required} to {len(fixed)}"
            self.error(src, node, "E401",
                       f"'{sig.name}' takes {want}{' or more' if variadic else ''} argument(s), got {len(pos) + len(kw)}",
                       f"{sig.name}({', '.join(p[0] for p in params)})")
        names = [p[0] for p in fixed]
        for k in kw:
            if k not in names:
                self.error(src, node, "E401", f"'{sig.name}' has no parameter '{k}'",
                           did_you_mean(k, names) or f"parameters: {', '.join(names)}")
        for i, p in enumerate(fixed):
            pname, ptyp, has_default, default, _ = p
            if i < len(pos):
                a = pos[i]
            elif pname in kw:
                a = kw[pname]
            elif has_default:
                out.append(ir.Const(default))
                continue
            else:
                out.append(ir.Const(None))
                continue
            e = self.expr(a, scope, src)
            if not compatible(ptyp, e.type):
                self.error(src, a, "E402", f"argument '{pname}' of '{sig.name}' must be "
                                           f"{ptyp.replace('|', ' or ')}, got {e.type}")
            self._need(a, scope, ptyp, src)
            if ptyp == "conn" and a.kind == "const" and a.a[0] not in self.r.adj_kind:
                kinds = [k for k in self.r.adj_kind if k]
                self.error(src, a, "E306", f"no connection of the board has kind {a.a[0]!r}",
                           did_you_mean(str(a.a[0]), kinds) or f"kinds: {', '.join(kinds) or 'none declared'}")
            if ptyp == "list":
                e = self.to_list(e)
            out.append(e)
        if variadic:
            ptyp = params[-1][1]
            for a in pos[len(fixed):]:
                e = self.expr(a, scope, src)
                if not compatible(ptyp, e.type):
                    self.error(src, a, "E402", f"extra arguments of '{sig.name}' must be {ptyp}, got {e.type}")
                out.append(e)
        return out

    # ------------------------------------------------------------ game functions
    def call_function(self, node, name, pos, kw, scope, src) -> ir.Expr:
        """A call of a game function: check the arguments, then call its generated function."""
        params = self.functions[name].params
        if len(pos) + len(kw) != len(params) or any(k not in params for k in kw):
            self.error(src, node, "E401", f"'{name}' takes {len(params)} argument(s), got {len(pos) + len(kw)}",
                       f"{name}({', '.join(params)})")
            for a in [*pos, *kw.values()]:  # (their own problems are reported too: all at once)
                self.expr(a, scope, src)
            return ir.Const(None)
        self.used.add(name)
        fn = self.function(node, name, src)
        if fn is None:
            return ir.Const(None)
        via = fn.param_reads
        if self.reads:  # the caller reads what the function reads
            chans = fn.reads.difference(via) if via else fn.reads
            for s in self.reads:
                s |= chans
        me = None
        if fn.uses_me:
            me = self._scope_value(scope.get("me", ("local", "me", "player")))
        args = []
        for i, p in enumerate(params):
            a = pos[i] if i < len(pos) else kw[p]
            e = self.expr(a, scope, src)
            self._note_call(name, i, e.type, a, scope, src)
            for chan, ps in via.items():
                if i in ps:
                    self._read_via(chan, e)
            args.append(e)
        return ir.Call(name, me, args, type=fn.type)

    def function(self, node, name, src=None) -> Function | None:
        """Check (once) a game function's body: its type, what it reads, whether it reads me."""
        fn = self.functions[name]
        if fn.body is not None:
            return fn
        if name in self._checking:
            self.error(src, node, "E403", f"function '{name}' calls itself",
                       "a function's value cannot depend on itself; use a procedure with a loop")
            return None
        if fn.node is None:
            return None
        inner = {"me": ("code", "me", "player")}
        for i, p in enumerate(fn.params):  # positional names: no rule-file text enters the code
            inner[p] = self.param(name, i, ("code", f"a{i}", ANY))
        self._checking.append(name)
        self._uses_me.append(False)
        reads = set()
        self.reads.append(reads)
        self._via.append({})
        try:
            body = self.expr(fn.node, inner, fn.src)
        finally:
            self._checking.pop()
            fn.uses_me = self._uses_me.pop()
            self.reads.pop()
            via = self._via.pop()
        fn.param_reads = {chan: frozenset(ps) for chan, ps in via.items() if chan not in reads}
        reads.update(via)  # (its own memoised values depend on them, whatever it is given)
        fn.body, fn.type, fn.reads = body, body.type, frozenset(reads)
        return fn

    def _read_via(self, chan: str, e: ir.Expr) -> None:
        """What a call reads through an argument of a function that reads chan through that
        parameter (Function.param_reads)."""
        if chan == "*":
            if e.type in (ANY, "zone", "str"):
                self._read_any_zone(e)  # this argument may be a zone the function reads
        elif chan == "where":
            self._read_where(e)
        else:
            self._read(chan)

    def _read_where(self, e: ir.Expr) -> None:
        """zone_of(e): where one item named in the rules lies has a channel of its own (every
        move of that item writes it: primitives._move_item); a parameter's is its callers' to say."""
        if self._via and isinstance(e, ir.PyName) and re.fullmatch(r"a\d+", e.name):
            self._via[-1].setdefault("where", set()).add(int(e.name[1:]))
        elif isinstance(e, ir.Const) and isinstance(e.value, str) and e.value in self.r.props:
            self.r.item_bits[e.value] = self.r.bit("where:" + e.value)
            self._read("where:" + e.value)
        else:
            self._read("where")

    # ------------------------------------------------------------ statements
    def block(self, node: Node, scope: dict, src: Src) -> ir.Block:
        """Check a block; ``scope`` is extended in place by ``let`` (a shared env)."""
        b = self.new_block(None, src)
        stmts = []
        for s in node.a[0]:
            m = self._stmts.get(s.kind)
            if m is None:
                m = self._stmts[s.kind] = getattr(type(self), "s_" + s.kind, False)
            if not m:
                self.error(src, s, "E404", f"{s.kind} is not a statement")
                continue
            out = m(self, s, scope, src)
            out.line, out.col = s.line, s.col
            stmts.append(out)
        b.stmts = stmts
        return b

    def s_let(self, node, scope, src):
        name, e = node.a
        v = self.expr(e, scope, src)
        if name in self.r.var_defs or self.d.symbols.get(name):
            self.error(src, node, "E402", f"'{name}' is already a game name; choose another local name")
        scope[name] = ("local", name, v.type)
        return ir.Let(name, v)

    def s_assign(self, node, scope, src):
        name, idx, op, e = node.a
        v = self.expr(e, scope, src)
        t = v.type
        r = self.r
        target = scope[name][2] if name in scope else self.d.var_types.get(name, ANY)
        if op != "=":  # += and -= count: a parameter given here is a number
            if target != "list":
                self._need(e, scope, "int", src)
            if not compatible("int|list", t) or (target not in (ANY, "none") and not compatible("int|list", target)):
                self.error(src, e, "E402", f"'{op}' needs numbers (or lists), got {t if t != ANY else target}")
        elif name not in scope and target not in (ANY, "none") and t not in (ANY, "none") \
                and not compatible(target, t) and not (target == "str" and t.startswith("enum:")):
            self.error(src, e, "E402", f"'{name}' holds {target}, not {t}",
                       f"it was declared under vars: with a {target} value")
        if idx is None and name in scope and scope[name][0] == "local":
            return ir.SetLocal(scope[name][1], op, v)
        self.var_sets.setdefault(name, []).append(v)  # (what a variable may hold: resolve)
        if idx is None and name in r.var_defs:
            return ir.SetVar(name, None, op, v, bit=r.bit("var:" + name))
        if idx is not None and self.d.symbols.get(name, (None,))[0] == "family" and name in self.d.var_families:
            k = self.expr(idx, scope, src)
            self._check_key(name, idx, self.d.var_families[name], src)
            return ir.SetVar(name, k, op, v, bit=r.bit("var:" + name))
        if idx is None and name in self.d.var_families:
            self.error(src, node, "E402", f"'{name}' is a family and needs a key, as in {name}[key]",
                       f"write {name}[me] or {name}[<key>]")
            return ir.Nothing()
        self.error(src, node, "E301", f"cannot assign to '{name}': not a local or a game variable",
                   did_you_mean(name, list(scope) + list(r.var_defs)) or "declare it under vars: or with let")
        return ir.Nothing()

    def s_call(self, node, scope, src):
        name, pos, kw = node.a
        if name in self.d.procedures:
            return self.call_procedure(node, name, pos, kw, scope, src)
        sig = self.signature(node, name, "stmt", src)
        if sig is None:
            return ir.Nothing()
        return ir.Do(name, self.args(node, sig, pos, kw, scope, src), env=sig.env)

    def call_procedure(self, node, name, pos, kw, scope, src):
        self.used.add(name)
        params, block_ref, _ = self.d.procedures[name]
        kw = dict(kw)
        me = self.expr(kw.pop("me"), scope, src) if "me" in kw else None
        if len(pos) + len(kw) != len(params) or any(k not in params for k in kw):
            self.error(src, node, "E401", f"'{name}' takes {len(params)} argument(s), got {len(pos) + len(kw)}",
                       f"{name}({', '.join(params)})")
            for a in [*pos, *kw.values()]:  # (their own problems are reported too: all at once)
                self.expr(a, scope, src)
            return ir.Nothing()
        args = []
        for i, p in enumerate(params):
            a = pos[i] if i < len(pos) else kw[p]
            e = self.expr(a, scope, src)
            self._note_call(name, i, e.type, a, scope, src)
            args.append((p, e))
        return ir.CallProc(name, block_ref, me, args)

    def s_if(self, node, scope, src):
        clauses, other = node.a
        out = [(self.expr(c, scope, src), self.block(b, scope, src)) for c, b in clauses]
        return ir.If(out, self.block(other, scope, src) if other is not None else None)

    def s_repeat(self, node, scope, src):
        n = self.expr(node.a[0], scope, src)
        if not compatible("int", n.type):
            self.error(src, node.a[0], "E402", f"repeat needs a number, got {n.type}")
        return ir.Repeat(n, self.block(node.a[1], scope, src))

    def s_for(self, node, scope, src):
        var, it, blk = node.a
        source = self.to_list(self.expr(it, scope, src))
        scope[var] = ("local", var, ANY)
        return ir.For(var, source, self.block(blk, scope, src))

    def s_while(self, node, scope, src):
        c = self.expr(node.a[0], scope, src)
        return ir.While(c, self.block(node.a[1], scope, src))

    def _by(self, by, scope, src):
        if by is None:
            return None
        e = self.expr(by, scope, src)
        if not compatible("player", e.type):
            self.error(src, by, "E402", f"'by' needs a player, got {e.type}")
        return e

    def _decision(self, key, scope):
        self.decisions.setdefault(key, []).append({n: e[2] for n, e in scope.items() if e[0] == "local"})

    def s_choose(self, node, scope, src):
        var, opts, where, by, label, optional, about = node.a
        self._decision(label, scope)
        options = self.to_list(self.expr(opts, scope, src))
        ab = self.expr(about, scope, src) if about is not None else None
        scope[var] = ("local", var, ANY)
        w = self.expr(where, scope, src) if where is not None else None
        return ir.Choose(var, options, w, self._by(by, scope, src), label, optional, ab)

    def s_ask(self, node, scope, src):
        names, by = node.a
        self._decision("ask", scope)
        if len(names) == 1:
            self._decision(names[0][0], scope)
        for n, (line, col) in names:
            if n not in self.r.moves:
                self.error(src, Node("x", [], line, col), "E304", f"unknown move '{n}'",
                           self.removed.get(n) or did_you_mean(n, self.r.moves) or "moves are declared under moves:")
        return ir.Ask([n for n, _ in names], self._by(by, scope, src))

    def _branches(self, kind, node, scope, src):
        label, by, branches = node.a
        self._decision(label, scope)
        out, seen = [], set()
        for name, cond, blk, (line, col) in branches:
            if name in seen:
                self.error(src, Node("x", [], line, col), "E305", f"branch '{name}' appears twice in '{label}'")
            seen.add(name)
            c = self.expr(cond, scope, src) if cond is not None else None
            out.append((name, c, self.block(blk, scope, src)))
        return ir.Branches(kind, label, self._by(by, scope, src), out)

    def s_one_of(self, node, scope, src):
        return self._branches("one_of", node, scope, src)

    def s_any_order(self, node, scope, src):
        return self._branches("any_order", node, scope, src)

    def s_may(self, node, scope, src):
        label, by, blk = node.a
        self._decision(label, scope)
        byf = self._by(by, scope, src)
        return ir.Branches("may", label, byf, [("yes", None, self.block(blk, scope, src)), ("no", None, None)])

    def s_emit(self, node, scope, src):
        name, pos, kw = node.a
        ev = self.d.events.get(name)
        if ev is None:
            self.error(src, node, "E304", f"unknown event '{name}'",
                       did_you_mean(name, self.d.events) or "events are declared under events:")
            return ir.Nothing()
        if pos:
            self.error(src, node, "E401", f"event '{name}' takes named arguments only",
                       f"emit {name}({', '.join(f'{p}=...' for p in ev)})")
        for k in kw:
            if k not in ev:
                self.error(src, node, "E401", f"event '{name}' has no argument '{k}'",
                           did_you_mean(k, ev) or f"arguments: {', '.join(ev)}")
        return ir.Emit(name, [(k, self.expr(v, scope, src)) for k, v in kw.items()])

    def s_return(self, node, scope, src):
        return ir.Return()
