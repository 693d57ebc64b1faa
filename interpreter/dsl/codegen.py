"""Write a game's checked rules (``ir.py``) as one readable Python module.

Every rule becomes a function named after it, with the rule file and line in a comment, so
profiles and tracebacks speak rule names:

* a game function ``f_<name>(st, me, a0, ...)``, memoised with the channels it reads;
* an expression ``e_<n>(st, env)`` (a move's argument or condition, a trigger's condition...);
* a statement ``s_<block>_<pc>(st, fr)``; a run of simple statements (let, assignments,
  primitive statements) is one function that settles after each write (triggers fire between
  two statements exactly as when they run one by one), the single statements staying in the
  block for resuming after an interruption;
* a move's enumerator ``m_<move>(st, me, out)``, listing its legal actions.

The module reads the names it needs from its namespace (``engine/link.py`` provides them):
``_A_<prop>`` (a property's table), ``_ZK_<family>`` / ``_VK_<family>`` (the zone and variable
ids of a family, by key), ``_p_<primitive>``, the runtime's helpers. No text of a rule file
enters the code except as ``repr()`` literals or names the grammar restricts to identifiers.

Why this module is large: one short method per kind of IR node (expressions, statements,
moves), in ``ir.py``'s order; splitting them would scatter one translation over files.
"""
from __future__ import annotations

import re

from . import ir
from .ir import ANY
from ..limits import MAX_LIST

HOIST_EVERY = 30  # nesting levels of generated code between two helper functions

# primitives written straight into the code (same meaning as their implementation)
_NEXT = "st.seats[(st.seats.index({0}) + 1) % len(st.seats)]"
INLINE = {"count": "len({0})", "sum": "sum({0})", "any": "any({0})", "all": "all({0})",
          "players": "list(st.seats)", "other": _NEXT, "next_player": _NEXT}  # (and pieces: Module.pieces)
PYOP = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}
FRAME_PUSHERS = {"resolve", "advance", "end_game"}  # primitive statements that are not simple
_TEXT = re.compile(r"'[^'\\]*'")  # the code of a text constant (Module.pieces)
_PLAIN = r"(?:env\.get\('\w+'\)|'[^'\\]*'|-?\d+|None|True|False|me|a\d+|x\d+|v_\w+)"
_PLAIN_VALUES = re.compile(rf"\{{(?:'\w+': {_PLAIN}(?:, '\w+': {_PLAIN})*)?\}}")  # (codegen.unheard)


class GeneratedCodeError(Exception):
    """Python refused the code generated for a rule (too long)."""


# The last statement of a block done: its write (if any) is settled here, and the frame leaves
# the stack at once, unless a trigger fired: it runs above the finished frame, which the
# block's end (vm.end) then takes away, as it does a frame whose last statement pushed one.
# The stack is the same at every decision as when every finished frame waited for its end:
# saves do not change.
END_RUN = ["if not st.dirty or not _settle(st):  # the block is done", "    st.stack.pop()"]
END_ONE = ["if st.dirty and _settle(st):  # a trigger fired: it runs first", "    fr[1] += 1",
           "else:  # the block is done", "    st.stack.pop()"]


def ident(text: str) -> str:
    return re.sub(r"\W", "_", str(text))


NESTABLE = ("list", ANY)  # the types of values that may be lists
SHORT_LIST = 64  # a sum of written lists this long at most is built without charging (x_Arith)


def written_length(e):
    """The most elements a list written out in the rule can hold ([a, b], a constant list, a
    choice between such lists: if c then [a] else [], their sum), or None for any other list.
    Such a list is no longer than its text says, as a written list is: building one short
    enough is not charged to the work budget (limits)."""
    if isinstance(e, ir.ListOf):
        return len(e.items)
    if isinstance(e, ir.Const):
        return len(e.value) if type(e.value) is list else None
    if isinstance(e, ir.IfExpr):
        a, b = written_length(e.then), written_length(e.other)
        return None if a is None or b is None else max(a, b)
    if isinstance(e, ir.Arith) and all(op == "+" for op in e.ops):
        parts = [written_length(x) for x in e.operands]
        return None if None in parts else sum(parts)
    return None


def may_hold_lists(e) -> bool:
    """Whether a written list (written_length) may hold lists: then a sum of such lists counts
    the lists inside it (limits.nested), as each of them does."""
    if isinstance(e, ir.ListOf):
        return any(x.type in NESTABLE for x in e.items)
    if isinstance(e, ir.Const):
        return type(e.value) is list and list in map(type, e.value)
    if isinstance(e, ir.IfExpr):
        return may_hold_lists(e.then) or may_hold_lists(e.other)
    return isinstance(e, ir.Arith) and any(may_hold_lists(x) for x in e.operands)


class Module:
    """The Python source of one game, built function by function."""

    def __init__(self, rules, where):
        self.r = rules
        self.where = where  # where(src, line, col) -> 'file:line (what)' for comments
        self.parts: list[str] = []
        self.sink = self.parts  # where definitions go: the module's first part, or a block's chunk
        self.consts: dict = {}  # repr -> name
        self.names: set = set()
        self._n = 0
        self._heights: list = []
        self.plain: dict = {}  # locals held in plain Python variables (a move's arguments), by name
        self.invariant = None  # in an enumerator's loops: a count of pieces the same at every pass -> its local (pieces)
        self.item_vars: set = set()  # comprehension variables walking a zone's items (x_Attr)
        self._fits: dict = {}  # property -> whether every item's value of it fits in one list (_props_fit)
        self.read = -1  # the channels a memoised function or a trigger reads (build/code.py: once they are known)
        self.memo_masks: dict = {}  # a memoised function's number (its key in st._memo) -> its read mask
        self.memo_at: dict = {}  # ... of those reading some channels under one key only -> those channels' mask
        self.memo_near: list = []  # ... of those, the ones reading them at the regions next to the key too
        self.function_chunks: list = []  # (text, name) of each game function (game_function)
        self._writers: dict = {}  # an IR class -> the function writing it (x_<its name>; not bound: no cycle)

    # ------------------------------------------------------------ module text
    def fresh(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def define(self, name: str, args: str, body: list[str], comment: str = "") -> str:
        if name in self.names:
            name = self.fresh(name + "_")
        self.names.add(name)
        head = f"def {name}({args}):" + (f"  # {comment}" if comment else "")
        self.sink.append("\n".join([head] + ["    " + ln for ln in body]) + "\n")
        return name

    def const(self, value) -> str:
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        text = repr(value)
        name = self.consts.get(text)
        if name is None:
            code = self.literal(value, 0) if text.count("[") + text.count("{") >= HOIST_EVERY else text
            name = self.consts[text] = f"_k{len(self.consts)}"
            self.parts.append(f"{name} = {code}\n")
        return name

    def literal(self, value, level: int) -> str:
        """A constant's code, its parts HOIST_EVERY levels down made constants of their own
        (Python refuses a literal nested ~200 deep, as it refuses such code: hoist)."""
        if isinstance(value, list):
            if level == HOIST_EVERY:
                return self.const(value)
            return "[" + ", ".join(self.literal(v, level + 1) for v in value) + "]"
        if isinstance(value, dict):
            if level == HOIST_EVERY:
                return self.const(value)
            return "{" + ", ".join(f"{k!r}: {self.literal(v, level + 1)}" for k, v in value.items()) + "}"
        return repr(value)

    def source(self) -> str:
        return "\n".join(self.parts)

    # ------------------------------------------------------------ expressions
    def expr(self, e: ir.Expr) -> str:
        """Python code for an expression (locals are read from the frame's env)."""
        heights = self._heights
        heights.append(0)
        try:
            m = self._writers.get(type(e))
            if m is None:
                m = self._writers[type(e)] = getattr(type(self), "x_" + type(e).__name__)
            code = m(self, e)
        finally:
            h = heights.pop() + 1
        if h >= HOIST_EVERY:
            code, h = self.hoist(code), 1
        if heights and heights[-1] < h:
            heights[-1] = h
        return code

    def hoist(self, code: str) -> str:
        """A deeply nested piece moved into a helper of its own (Python refuses code nested
        ~200 deep); it takes the code names it uses (parameters, loop variables) as arguments,
        but for the variables of comprehensions wholly inside it."""
        bare = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", code)  # names outside texts
        bound = set(re.findall(r"\bfor (\w+) in\b", bare))  # a comprehension's own variables
        names = sorted(set(re.findall(r"\b(?:v_\w+|a\d+|x\d+|_pc\d+|me)\b", bare)) - bound)
        args = "".join(", " + n for n in names)
        name = self.define(self.fresh("_h"), f"st, env{args}", [f"return {code}"])
        return f"{name}(st, env{args})"

    def x_Const(self, e):
        return self.const(e.value)

    def x_Local(self, e):
        plain = self.plain.get(e.name)
        return plain if plain is not None else f"env.get({e.name!r})"

    def x_PyName(self, e):
        return e.name

    def x_Var(self, e):
        if e.key is None:
            return f"st.vars[{e.name!r}]"
        return f"st.vars[_VK_{e.name}[{self.expr(e.key)}]]"

    def x_Zone(self, e):
        if e.key is None:
            return repr(e.family)
        return f"_ZK_{e.family}[{self.expr(e.key)}]"

    def x_Items(self, e):
        z = e.zone
        if isinstance(z, ir.Zone) and self._stacks(z):  # its own list (no empty slots to skip)
            return f"st.zones[{self.expr(z)}]"
        return f"_items(st, {self.expr(z)})"

    def _stacks(self, z: ir.Zone) -> bool:
        """True if a zone (or every zone of a family) is a stack, not a tableau."""
        zones = self.r.zones
        if z.key is None:
            return z.family in zones and not zones[z.family].tableau
        keys = self.r.zone_families.get(z.family)
        return bool(keys) and all(f"{z.family}.{k}" in zones and not zones[f"{z.family}.{k}"].tableau for k in keys)

    def x_Seq(self, e):
        return f"_seq(st, {self.expr(e.value)})"

    def x_Attr(self, e):
        if isinstance(e.base, ir.PyName) and e.base.name in self.item_vars:  # an item: a key of every table
            return f"_A_{e.prop}[{e.base.name}]"
        return f"_A_{e.prop}.get({self.expr(e.base)})"

    def _over_items(self, comp):
        """Whether a comprehension walks a zone's items: its variable is an item then, whose
        properties are read with a subscript (link: _A_<prop> holds every item, none or not)."""
        return isinstance(comp.source, ir.Items)

    def x_Index(self, e):
        return f"_index({self.expr(e.base)}, {self.expr(e.index)})"

    def x_Arith(self, e):
        code = self.expr(e.operands[0])
        acc = e.operands[0].type
        written = written_length(e.operands[0])  # (a short list the rule writes out: written_length)
        for op, part in zip(e.ops, e.operands[1:]):
            g = self.expr(part)
            if code.count("(") > 4 * HOIST_EVERY:  # a long chain: keep it shallow
                code = self.hoist(code)
            more = written_length(part) if op == "+" and written is not None else None
            written = None if more is None else written + more
            if op == "*":
                code = f"_mul(st, {code}, {g})"
            elif written is not None and written <= SHORT_LIST:  # as cheap as a written list
                code = f"({code} + {g})"
            elif op == "+" and (acc != "int" or part.type != "int"):  # may be lists or texts
                code = f"_add(st, {code}, {g})"
            else:
                code = f"({code} {PYOP[op]} {g})"
            acc = "list" if "list" in (acc, part.type) else "int"
        if written is not None and written <= SHORT_LIST and len(e.operands) > 1 and may_hold_lists(e):
            code = f"_nest(st, {code})"  # (short, but each list inside may be long)
        return code

    def x_Compare(self, e):
        a = self.expr(e.left)
        if e.op in ("in", "not in"):
            if e.right.type == "zone":
                test = f"(st.where.get({a}) == {self.expr(e.right)})"
            else:
                test = f"({a} in {self.expr(e.right)})"
            return test if e.op == "in" else f"(not {test})"
        b = self.expr(e.right)
        if e.op in ("==", "!=") and "None" in (a, b):  # (no value of the rules but none equals none)
            return f"({a} {'is' if e.op == '==' else 'is not'} {b})"
        return f"({a} {e.op} {b})"

    def x_BoolOp(self, e):
        return "(" + f" {e.op} ".join(self.expr(x) for x in e.items) + ")"

    def x_Not(self, e):
        return f"(not {self.expr(e.value)})"

    def x_Neg(self, e):
        return f"(-{self.expr(e.value)})"

    def x_IfExpr(self, e):
        return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.other)})"

    def x_ListOf(self, e):
        code = "[" + ", ".join(self.expr(x) for x in e.items) + "]"
        # a list that may hold lists: the lists inside count towards its size (limits.nested)
        return f"_nest(st, {code})" if any(x.type in NESTABLE for x in e.items) else code

    def x_Comp(self, e):
        src = self.expr(e.source)
        items = self._over_items(e) and e.var not in self.item_vars
        if items:
            self.item_vars.add(e.var)
        try:
            elem = self.expr(e.elem)
            cond = f" if {self.expr(e.cond)}" if e.cond is not None else ""
        finally:
            if items:
                self.item_vars.discard(e.var)
        code = f"[{elem} for {e.var} in _each(st, {src}){cond}]"  # walking a list draws on the budget
        # not counted again (limits.nested): [x for x in xs] holds xs's elements once; [c.provides
        # for c in area[p]] the items' own lists, within the limit whatever the zone (_props_fit)
        within = (isinstance(e.elem, ir.PyName) and e.elem.name == e.var) or (
            items and isinstance(e.elem, ir.Attr) and isinstance(e.elem.base, ir.PyName)
            and e.elem.base.name == e.var and self._props_fit(e.elem.prop))
        return f"_nest(st, {code})" if e.elem.type in NESTABLE and not within else code

    def _props_fit(self, prop: str) -> bool:
        """Whether a list of every item's value of a property is within limits.MAX_LIST,
        counting the elements of the lists inside it (limits.nested): the data's values of
        one item each, whichever items a comprehension takes (it takes each once)."""
        fit = self._fits.get(prop)
        if fit is None:
            def spelled(v):
                return len(v) + sum(spelled(x) for x in v if type(x) is list) if type(v) is list else 0

            total = len(self.r.props)
            for values in self.r.props.values():
                total += spelled(values.get(prop))
            fit = self._fits[prop] = total <= MAX_LIST
        return fit

    def x_Exists(self, e):
        src = self.expr(e.comp.source)
        items = self._over_items(e.comp) and e.comp.var not in self.item_vars
        if items:
            self.item_vars.add(e.comp.var)
        try:
            cond = f" if {self.expr(e.comp.cond)}" if e.comp.cond is not None else ""
        finally:
            if items:
                self.item_vars.discard(e.comp.var)
        return f"any(True for {e.comp.var} in _each(st, {src}){cond})"

    def x_Prim(self, e):
        if e.name == "count" and len(e.args) == 1 and isinstance(e.args[0], ir.Prim) \
                and e.args[0].name == "keys" and len(e.args[0].args) == 1:
            return f"len({self.expr(e.args[0].args[0])} or ())"  # count(keys(m)): no list of them made (_keys)
        args = [self.expr(a) for a in e.args]
        if e.name == "pieces" and len(args) == 3:
            return self.pieces(*args)
        if e.name in INLINE and len(args) == INLINE[e.name].count("{"):
            return INLINE[e.name].format(*args)
        if e.name in ("min", "max") and len(args) >= 2:  # of several numbers: the builtin (_p_min does the same)
            return f"{e.name}({', '.join(args)})"
        if e.name == "pieces_at" and len(args) == 2 and self.r.owned_kinds and all(
                a.isidentifier() or a.startswith("env.get(") or a.startswith("'") for a in args):
            o, loc = args  # simple arguments: sum the owned kinds in place
            return "(" + " + ".join(self.pieces(repr(k), o, loc) for k in self.r.owned_kinds) + ")"
        return f"_p_{e.name}(st{''.join(', ' + a for a in args)})"

    def pieces(self, kind: str, owner: str, place: str) -> str:
        """A count of pieces. In an enumerator's loops (self.invariant), one whose kind, owner
        and place are texts, none or the player (pieces(kind, none, me): the same at every
        pass) is a local read once, before them (enumerator): a look-up that cannot fail and
        changes nothing, so reading it first, or when no pass needs it, changes nothing either."""
        code = f"st.pieces.get(({kind}, {owner}, {place}), 0)"
        if self.invariant is None or not all(a in ("me", "None") or _TEXT.fullmatch(a) for a in (kind, owner, place)):
            return code
        name = self.invariant.get(code)
        if name is None:
            name = self.invariant[code] = f"_pc{len(self.invariant)}"
        return name

    def x_Call(self, e):
        me = self.expr(e.me) if e.me is not None else "None"
        return f"f_{e.name}(st, {me}{''.join(', ' + self.expr(a) for a in e.args)})"

    # ------------------------------------------------------------ named pieces
    def function(self, e: ir.Expr, comment: str = "", prefix: str = "e_") -> str:
        """An expression as a function of (st, env)."""
        return self.define(self.fresh(prefix), "st, env", [f"return {self.expr(e)}"], comment)

    def game_function(self, fn, comment: str, number: int = 0) -> str:
        """A game function's chunk: its definition and what it alone uses, compiled when it is
        first called (build/module.py), as a block's chunk is when the block first runs; kept
        in ``function_chunks`` as (its text, its name)."""
        self.sink = []
        try:
            name = self._game_function(fn, comment, number)
            self.function_chunks.append(("\n".join(self.sink), name))
            return name
        finally:
            self.sink = self.parts

    def _game_function(self, fn, comment: str, number: int) -> str:
        """A game function, memoised (never when it draws on chance) in ``st._memo`` under its
        number (a small int: cheap to hash); ``memo_masks`` keeps the channels it reads, from
        which the interpreter works out the numbers a write makes stale (vm.wrote). The key
        holds a dict from the arguments (and ``me`` when the body reads it) to the value, or,
        for a function of no arguments, the value itself. A function reading piece kinds or
        zones under the key a parameter gives only (pieces at place r, area[p]: fn._at,
        optimise.located) holds a dict from that key to such a dict of the other arguments
        (or to the value), so a write to those forgets only the keys it touched."""
        name = f"f_{fn.name}"
        argl = "".join(f", a{i}" for i in range(len(fn.params)))
        body = self.expr(fn.body)
        if "!" in fn.reads or fn.memo is False:
            lines = [f"return {body}"]
        else:
            key = number
            self.memo_masks[key] = fn.mask
            args = (["me"] if fn.uses_me else []) + [f"a{i}" for i in range(len(fn.params))]
            at = getattr(fn, "_at", None)
            if at:
                self.memo_at[key] = self.r.mask_of(at[1])
                if at[2] == "near":
                    self.memo_near.append(key)
                place = f"a{at[0]}"
                args.remove(place)
                lines = [f"memo = st._memo.get({key})",
                         "if memo is None:",
                         f"    memo = st._memo[{key}] = {{}}",
                         "try:"]
                if args:
                    k = args[0] if len(args) == 1 else f"({', '.join(args)})"
                    lines += [f"    memo = memo.get({place}) or memo.setdefault({place}, {{}})",
                              f"    v = memo.get({k}, _MISS)"]
                else:
                    k = place
                    lines.append(f"    v = memo.get({k}, _MISS)")
                lines += ["except TypeError:  # an argument that is a list: not memoised",
                          f"    return {body}",
                          "if v is _MISS:",
                          f"    v = memo[{k}] = {body}",
                          "return v"]
            elif not args:
                lines = [f"v = st._memo.get({key}, _MISS)",
                         "if v is _MISS:",
                         f"    v = st._memo[{key}] = {body}",
                         "return v"]
            else:
                k = args[0] if len(args) == 1 else f"({', '.join(args)})"
                lines = [f"memo = st._memo.get({key})",
                         "if memo is None:",
                         f"    memo = st._memo[{key}] = {{}}",
                         f"k = {k}",
                         "try:",
                         "    v = memo.get(k, _MISS)",
                         "except TypeError:  # an argument that is a list: kept under its elements if short",
                         "    k = _frozen(k)",
                         "    v = _MISS if k is None else memo.get(k, _MISS)",
                         "if v is _MISS:",
                         f"    v = {body}",
                         "    if k is not None:",
                         "        memo[k] = v",
                         "return v"]
        if re.search(r"\benv\b", body):  # a hoisted helper takes env: a function has none
            lines.insert(0, "env = None")
        self.names.add(name)
        self.sink.append("\n".join([f"def {name}(st, me{argl}):  # {comment}"] + ["    " + ln for ln in lines]) + "\n")
        return name

    # ------------------------------------------------------------ statements
    def chunk(self, b: ir.Block) -> tuple[str, int]:
        """(source, length) of a block's chunk: the functions of its statements and what they
        alone use, ending in ``B_<id> = [...]``, its list of statements (then its end). A chunk
        is compiled when its block first runs (build/module.py); constants stay in the module's
        first part, which every chunk may read."""
        self.sink = []
        try:
            names = self.block(b)
            self.sink.append(f"B_{b.id} = [{', '.join(names)}]\n")
            return "\n".join(self.sink), len(names)
        finally:
            self.sink = self.parts

    def block(self, b: ir.Block) -> list[str]:
        """The statements of a block, as a list of functions (their names): a run of two
        or more statements that can be fused is one function, at every position of the run;
        then the block's end (``vm.end``), which takes away a frame whose statements are done."""
        names = []
        stmts = b.stmts
        i = 0
        while i < len(stmts):
            j = i
            while j < len(stmts) and self.fusable(stmts[j]):
                j += 1
            if j - i >= 2:
                names += [self.run(b, i, j)] * (j - i)
                i = j
            else:
                names.append(self.statement(b, i))
                i += 1
        return names + ["_end"]  # (vm.end: the frame of a block done leaves)

    @staticmethod
    def simple(s) -> bool:
        return isinstance(s, (ir.Let, ir.SetLocal, ir.SetVar, ir.Nothing)) or (
            isinstance(s, ir.Do) and not s.env and s.name not in FRAME_PUSHERS)

    def fusable(self, s) -> bool:
        """Statements a run may hold: simple ones, and those that push a frame or wait for a
        decision in a way the run can tell (it returns then; resuming enters it again)."""
        return self.simple(s) or isinstance(s, (ir.If, ir.While, ir.CallProc, ir.Emit, ir.Ask, ir.Choose,
                                                ir.Return, ir.For, ir.Repeat)) or (
            isinstance(s, ir.Do) and s.env)

    def _comment(self, b, s) -> str:
        return self.where(b.src, s.line, s.col)

    def simple_code(self, s) -> tuple[list[str], bool]:
        """(lines, whether it may write the state) of a simple statement."""
        if isinstance(s, ir.Let):
            return [f"env[{s.name!r}] = {self.expr(s.value)}"], False
        if isinstance(s, ir.SetLocal):
            v = self.expr(s.value)
            if s.op != "=":
                v = f"env.get({s.name!r}) {s.op[0]} ({v})"
            return [f"env[{s.name!r}] = {v}"], False
        if isinstance(s, ir.SetVar):
            v = self.expr(s.value)
            if s.key is None:
                key, lines = repr(s.name), []
            else:
                key, lines = "_key", [f"_key = _VK_{s.name}[{self.expr(s.key)}]"]
            if s.op != "=":
                v = f"st.vars[{key}] {s.op[0]} ({v})"
            if not s.bit & self.read:  # a variable nothing memoised and no trigger reads: nothing to tell
                return lines + [f"st.vars[{key}] = {v}"], False
            # a value written again unchanged is no write: nothing reading it is forgotten or
            # checked again (the same scalar of the same type: 1 is not true; a list is written)
            return lines + [f"_v = {v}", f"_o = st.vars.get({key}, _MISS)",
                            "if _o != _v or type(_o) is not type(_v) or type(_v) is list:",
                            f"    st.vars[{key}] = _v", f"    st.dirty |= {s.bit}"], True
        if isinstance(s, ir.Do):
            args = "".join(", " + self.expr(a) for a in s.args)
            return [f"_p_{s.name}(st{args})"], True
        return [], False  # Nothing

    def fused_code(self, s, k, last=False) -> tuple[list[str], bool]:
        """(lines, whether it may write the state) of statement k inside a run: fr[1] is k
        while it runs and k + 1 after it; one that pushed a frame or waits for a decision
        returns (the interpreter runs what came up; resuming calls the run again at the pc the
        frame holds)."""
        if self.simple(s):
            lines, writes = self.simple_code(s)
            return lines + [f"fr[1] = {k + 1}"], writes
        push = "st.stack.append([{}, 0, env, None])"
        if isinstance(s, ir.If):  # a body written in (inline) goes on with the run after it
            lines = []
            writes = False
            clauses = [(f"{'if' if n == 0 else 'elif'} {self.expr(c)}:", blk) for n, (c, blk) in enumerate(s.clauses)]
            if s.other is not None:
                clauses.append(("else:", s.other))
            for head, blk in clauses:
                body = self.inline(blk)
                if body is None:
                    body = [push.format(blk.id), "return"]
                else:
                    body, w = body
                    writes = writes or w
                lines += [head, f"    fr[1] = {k + 1}"] + ["    " + ln for ln in body]
            return lines + [f"fr[1] = {k + 1}"], writes
        if isinstance(s, ir.While):  # the body's frame ends: the run is entered here again
            return [f"if {self.expr(s.cond)}:", "    " + push.format(s.body.id), "    return",
                    f"fr[1] = {k + 1}"], False
        if isinstance(s, ir.CallProc):
            if last:
                return [f"{self.call(s, True)}  # procedure {s.name}", "return"], False
            return [f"{self.call(s, False)}  # procedure {s.name}", f"fr[1] = {k + 1}", "return"], False
        if isinstance(s, ir.Emit):
            values = "{" + ", ".join(f"{n!r}: {self.expr(e)}" for n, e in s.args) + "}"
            if self.unheard(s, values):
                return [f"fr[1] = {k + 1}"], False
            return [f"values = {values}", f"fr[1] = {k + 1}",
                    f"if _emit(st, {s.event!r}, values, env.get('me')):", "    return"], False
        if isinstance(s, ir.Ask):
            return [f"_ask(st, fr, {s.moves!r}, {self._opt(s.by)})", "return"], False
        if isinstance(s, ir.Choose):  # one option is taken at once (fr[1] moves on)
            return [self.choose_call(s), "if st.pending is not None:", "    return"], False
        if isinstance(s, ir.Return):
            return ["_ret(st, fr)", "return"], False
        if isinstance(s, ir.For):  # a pass of the body pushed: fr[1] stays
            return [f"_for_each(st, fr, {s.var!r}, {self.function(s.source)}, {s.body.id})",
                    f"if fr[1] == {k}:", "    return"], False
        if isinstance(s, ir.Repeat):
            return [f"_repeat(st, fr, {self.function(s.count)}, {s.body.id})",
                    f"if fr[1] == {k}:", "    return"], False
        # a primitive given the env (resolve, advance): it may push frames and write
        args = ", ".join(self.expr(a) for a in s.args)
        return [f"_p_{s.name}(st, env, {args})", f"fr[1] = {k + 1}",
                "if (st.dirty and _settle(st)) or st.stack[-1] is not fr:", "    return"], False

    def run(self, b, i, j) -> str:
        """Statements i..j-1 as one function, entered at any of them (the frame's pc says
        which: each statement is guarded by ``if pc <= k``); after each write it settles, and
        stops there when a trigger fired (entered again at the next statement)."""
        body = ["env = fr[2]", "pc = fr[1]"]
        for k in range(i, j):
            s = b.stmts[k]
            lines, writes = self.fused_code(s, k, k == len(b.stmts) - 1)
            if writes and k < j - 1:
                lines += ["if st.dirty and _settle(st):", "    return"]
            body.append(f"if pc <= {k}:  # {self._comment(b, s)}")
            body += ["    " + ln for ln in lines]
        if j == len(b.stmts):
            body += END_RUN
        return self.define(f"s_{b.id}_{i}", "st, fr", body, f"statements {i}-{j - 1} of block {b.id}")

    def statement(self, b, k) -> str:
        s = b.stmts[k]
        name = f"s_{b.id}_{k}"
        comment = self._comment(b, s)
        if self.simple(s):
            lines, _ = self.simple_code(s)
            end = END_ONE if k == len(b.stmts) - 1 else ["fr[1] += 1"]
            return self.define(name, "st, fr", ["env = fr[2]", *lines, *end], comment)
        if isinstance(s, ir.CallProc):
            return self.s_CallProc(s, name, comment, k == len(b.stmts) - 1)
        m = getattr(self, "s_" + type(s).__name__)
        return m(s, name, comment)

    def _opt(self, e, comment="") -> str:
        return self.function(e, comment) if e is not None else "None"

    def s_Do(self, s, name, comment):
        env = "env, " if s.env else ""
        args = ", ".join(self.expr(a) for a in s.args)
        return self.define(name, "st, fr", ["env = fr[2]", f"_p_{s.name}(st, {env}{args})", "fr[1] += 1"], comment)

    def s_If(self, s, name, comment):
        lines = ["env = fr[2]"]
        clauses = [(f"{'if' if i == 0 else 'elif'} {self.expr(c)}:", blk) for i, (c, blk) in enumerate(s.clauses)]
        if s.other is not None:
            clauses.append(("else:", s.other))
        for head, blk in clauses:
            body = self.inline(blk)
            lines.append(head)
            if body is None:
                lines.append(f"    st.stack.append([{blk.id}, 0, env, None])")
            else:
                lines += ["    fr[1] += 1"] + ["    " + ln for ln in body[0]] + ([] if body[0][-1] == "return" else ["    return"])
        lines.append("fr[1] += 1")
        return self.define(name, "st, fr", lines, comment)

    def inline(self, blk: ir.Block):
        """(lines, whether they may write the state) of a branch body written into its parent's
        code, or None when it needs a frame of its own. A body of one simple statement needs
        none: it cannot wait for a decision or push a frame, the triggers its write fires run
        right after it as they would after its frame, and a failure names its own line
        (runtime.fail, in the words of vm.run). Nor does a body that only calls a procedure:
        the procedure's frame goes where the body's would have (a tail call, as in call())."""
        if len(blk.stmts) != 1:
            return None
        s = blk.stmts[0]
        if isinstance(s, ir.CallProc):  # the procedure's frame is pushed in the body's place
            lines, writes, end = [self.call(s, False) + f"  # procedure {s.name}"], False, ["return"]
        elif self.simple(s):
            (lines, writes), end = self.simple_code(s), []
        else:
            return None
        if not lines:
            return ["pass"], False
        return ["try:", *("    " + ln for ln in lines), "except Exception as _e:",
                f"    _fail(st, {blk.id}, 0, _e)", *end], writes

    def s_While(self, s, name, comment):
        return self.define(name, "st, fr", ["env = fr[2]", f"if {self.expr(s.cond)}:",
                                            f"    st.stack.append([{s.body.id}, 0, env, None])",
                                            "else:", "    fr[1] += 1"], comment)

    def s_Repeat(self, s, name, comment):
        return self.define(name, "st, fr", [f"_repeat(st, fr, {self.function(s.count)}, {s.body.id})"], comment)

    def s_For(self, s, name, comment):
        return self.define(name, "st, fr", [f"_for_each(st, fr, {s.var!r}, {self.function(s.source)}, {s.body.id})"],
                           comment)

    def call(self, s, tail: bool) -> str:
        """A procedure call: a frame of its own, with its own env (me, then the arguments). A
        call that is its block's last statement takes the place of the block's frame (a tail
        call: that frame has nothing left to run, and nothing reads it again once it is done)."""
        me = self.expr(s.me) if s.me is not None else "env.get('me')"
        new = "{" + ", ".join([f"'me': {me}"] + [f"{p!r}: {self.expr(e)}" for p, e in s.args]) + "}"
        return f"st.stack[-1] = [{s.block[0]}, 0, {new}, None]" if tail else f"st.stack.append([{s.block[0]}, 0, {new}, None])"

    def s_CallProc(self, s, name, comment, last=False):
        lines = ["env = fr[2]", self.call(s, last)] + ([] if last else ["fr[1] += 1"])
        return self.define(name, "st, fr", lines, f"{comment} -> procedure {s.name}")

    def unheard(self, s, values: str) -> bool:
        """Whether an event no listener of these rules hears is emitted with values that are
        locals and constants only (reading them cannot fail): such an emit does nothing."""
        return not self.r.listeners.get(s.event) and _PLAIN_VALUES.fullmatch(values) is not None

    def s_Emit(self, s, name, comment):
        values = "{" + ", ".join(f"{k!r}: {self.expr(e)}" for k, e in s.args) + "}"
        if self.unheard(s, values):
            return self.define(name, "st, fr", ["fr[1] += 1"], f"{comment} (no listener hears it)")
        return self.define(name, "st, fr", ["env = fr[2]", f"values = {values}", "fr[1] += 1",
                                            f"_emit(st, {s.event!r}, values, env.get('me'))"], comment)

    def s_Return(self, s, name, comment):
        return self.define(name, "st, fr", ["_ret(st, fr)"], comment)

    def choose_call(self, s) -> str:
        return (f"_choose(st, fr, {s.var!r}, {self.function(s.options)}, {self._opt(s.where)}, "
                f"{self._opt(s.by)}, {s.label!r}, {s.optional!r}, {self._opt(s.about)})")

    def s_Choose(self, s, name, comment):
        return self.define(name, "st, fr", [self.choose_call(s)], comment)

    def s_Ask(self, s, name, comment):
        return self.define(name, "st, fr", [f"_ask(st, fr, {s.moves!r}, {self._opt(s.by)})"], comment)

    def s_Branches(self, s, name, comment):
        """one_of / may / any_order: a table of (branch, block) and a function listing the
        branches whose condition holds (one call, not one per branch)."""
        table = self.const_name("[" + ", ".join(
            f"({n!r}, {blk.id if blk is not None else None})" for n, c, blk in s.branches) + "]")
        lines = ["out = []"]
        left = s.kind == "any_order"  # (only the branches not yet taken: their conditions alone are tested)
        for n, c, blk in s.branches:
            tests = ([f"{n!r} in left"] if left else []) + ([self.expr(c)] if c is not None else [])
            if tests:
                lines += [f"if {' and '.join(tests)}:", f"    out.append({n!r})"]
            else:
                lines.append(f"out.append({n!r})")
        offered = self.define(self.fresh("o_"), "st, env, left" if left else "st, env", lines + ["return out"],
                              f"{comment}: the branches offered")
        fname = self.define(name, "st, fr", [f"_branches(st, fr, {s.kind!r}, {s.label!r}, {self._opt(s.by)}, "
                                             f"{table}, {offered})"], comment)
        self.sink.append(f"{fname}.branches = {{n: b for n, b in {table} if b is not None}}\n"
                          f"{fname}.logged = {s.kind == 'one_of'}\n")
        return fname

    def s_Nothing(self, s, name, comment):
        return "_skip"

    def s_Dispatch(self, s, name, comment):
        return "_dispatch"

    def const_name(self, code: str) -> str:
        """A module-level name for a piece of code evaluated once (a table of functions)."""
        name = self.fresh("_t")
        self.sink.append(f"{name} = {code}\n")
        return name

    # ------------------------------------------------------------ moves
    def enumerator(self, move, params, cond, id_parts, comment) -> str:
        """m_<move>(st, me, out): every binding of the move's arguments whose condition holds,
        as an Action under its id (params: [(arg, domain expression)]). The arguments are plain
        Python variables (x0, x1, ...), not an env."""
        self.plain = {"me": "me"}
        lines = []
        indent = ""
        invariant = {}  # (the first line runs once: its counts of pieces are read where they are)
        try:
            for n, (arg, dom) in enumerate(params):
                lines.append(f"{indent}for x{n} in {self.expr(dom)}:")
                self.invariant = invariant
                indent += "    "
                self.plain[arg] = f"x{n}"
            if cond is not None:
                lines.append(f"{indent}if {self.expr(cond)}:")
                indent += "    "
        finally:
            self.plain, self.invariant = {}, None
        lines = [f"{n} = {code}" for code, n in invariant.items()] + lines
        if any(re.search(r"\benv\b", ln) for ln in lines):  # a hoisted helper takes env (unused)
            lines.insert(0, "env = None")
        aid = " + ".join(repr(p) if isinstance(p, str) else f"_fmt(x{p[0]})" for p in id_parts if p != "") or "''"
        binding = "{'me': me" + "".join(f", {arg!r}: x{n}" for n, (arg, _) in enumerate(params)) + "}"
        # the actions by their player, then their arguments, built once (decisions.new_action):
        # two look-ups, not a tuple of the player and the arguments made and hashed per action
        table = self.const_name("{}")
        if params:
            args = ", ".join(f"x{n}" for n in range(len(params)))
            key = args if len(params) == 1 else f"({args})"
            look, make = f"{table}[me][{key}]", f"_new_action({table}, me, {aid}, me, ({move!r}, {binding}), _RULES, {key})"
        else:
            look, make = f"{table}[me]", f"_new_action({table}, me, {aid}, me, ({move!r}, {binding}), _RULES)"
        lines += [f"{indent}try:", f"{indent}    a = {look}", f"{indent}except (KeyError, TypeError):",
                  f"{indent}    a = {make}",
                  f"{indent}if a.id in out:",
                  f"{indent}    _same_id(a.id, _MOVES[{move!r}])",
                  f"{indent}out[a.id] = a"]
        return self.define(f"m_{ident(move)}", "st, me, out", lines, comment)
