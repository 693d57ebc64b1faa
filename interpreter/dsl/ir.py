"""The checked, typed intermediate form of the effect language.

``check.py`` turns parsed text into these nodes (every name resolved, every type known,
every problem reported); ``optimise.py`` rewrites them; ``codegen.py`` writes them as Python.
Each expression node has a ``type`` (int bool str player region item zone kind track list map
none any, or ``enum:NAME``) and ``reads``: the channels of the state it reads (zone families,
piece kinds, variables; ``*`` for anything, ``!`` for chance), which decide when a memoised
function is forgotten and when a trigger is checked.
"""
from __future__ import annotations

ANY = "any"
NOTHING: frozenset = frozenset()


class Node:
    """A node of the IR. Its fields are the annotations of its bases and then its own:
    ``FIELDS`` names them in that order and ``TYPES`` gives their annotations (optimise.py
    walks the fields that may hold nodes). ``__init__`` takes the fields declared below
    ``Expr`` and ``Stmt`` in order, then those of ``Expr`` and ``Stmt`` themselves by keyword
    only. Equal only to itself.

    (The classes are dataclasses in all but name: every ``__init__`` is written by
    ``_define`` at the end of this module in one piece of code, where ``dataclasses`` writes
    two functions a class, which was a third of a first load's imports.)"""

    FIELDS: tuple = ()
    TYPES: tuple = ()

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.FIELDS)})"


class Expr(Node):
    type: str = ANY
    reads: frozenset = NOTHING


class Const(Expr):
    value: object


class Local(Expr):
    """A local of the running effect (let, a parameter of a procedure or move, a loop variable
    of a statement): kept in the frame's env."""
    name: str


class PyName(Expr):
    """A name of the generated code itself: a game function's parameter (a0, a1), its `me`,
    or the variable of a comprehension."""
    name: str


class Var(Expr):
    """A game variable: `name`, or `family.key` when key is given."""
    name: str
    key: Expr | None = None


class Zone(Expr):
    """A zone id: a single zone (key None) or a zone of a family."""
    family: str
    key: Expr | None = None


class Items(Expr):
    """The items of a zone, as a list (empty tableau slots left out)."""
    zone: Expr


class Seq(Expr):
    """A value whose type is known only at run time, used as a list: a zone id means its
    items, none an empty list."""
    value: Expr


class Attr(Expr):
    base: Expr
    prop: str


class Index(Expr):
    base: Expr
    index: Expr


class Arith(Expr):
    operands: list
    ops: list  # '+', '-', '*', '/', '%'


class Compare(Expr):
    op: str  # == != < <= > >= in 'not in'
    left: Expr
    right: Expr


class BoolOp(Expr):
    op: str  # and, or
    items: list


class Not(Expr):
    value: Expr


class Neg(Expr):
    value: Expr


class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


class ListOf(Expr):
    items: list


class Comp(Expr):
    """[elem for var in source if cond]."""
    elem: Expr
    var: str  # the generated code's name for the variable
    source: Expr
    cond: Expr | None


class Prim(Expr):
    """A call of a primitive function (engine.primitives)."""
    name: str
    args: list


class Call(Expr):
    """A call of a game function: its generated function gets the state, `me` (none when the
    function never reads it) and the arguments."""
    name: str
    me: Expr | None
    args: list


# ------------------------------------------------------------------ statements
class Stmt(Node):
    line: int = 1
    col: int = 1


class Block(Node):
    """A list of statements that the interpreter runs frame by frame; numbered when built, so
    a saved stack [block, pc, env, aux] resumes after the same rules are loaded again."""
    id: int
    stmts: list
    src: object = None  # dsl.check.Src of the text


class Let(Stmt):
    name: str
    value: Expr


class SetLocal(Stmt):
    name: str
    op: str  # = += -=
    value: Expr


class SetVar(Stmt):
    name: str
    key: Expr | None
    op: str
    value: Expr
    bit: int = 0


class Do(Stmt):
    """A primitive statement (engine.primitives)."""
    name: str
    args: list
    env: bool = False  # the primitive gets the frame's env (resolve, advance)


class If(Stmt):
    clauses: list  # [(cond, Block)]
    other: Block | None


class Repeat(Stmt):
    count: Expr
    body: Block


class For(Stmt):
    var: str
    source: Expr
    body: Block


class While(Stmt):
    cond: Expr
    body: Block


class CallProc(Stmt):
    name: str
    block: list  # [block id], filled when the procedure is compiled
    me: Expr | None
    args: list  # [(param, Expr)]


class Choose(Stmt):
    var: str
    options: Expr
    where: Expr | None
    by: Expr | None
    label: str
    optional: bool
    about: Expr | None


class Ask(Stmt):
    moves: list
    by: Expr | None


class Branches(Stmt):
    """one_of (pick one branch), any_order (each once, in the player's order) or may (yes/no)."""
    kind: str  # one_of | any_order | may
    label: str
    by: Expr | None
    branches: list  # [(name, cond or None, Block)]


class Emit(Stmt):
    event: str
    args: list  # [(name, Expr)]


class Return(Stmt):
    pass


class Nothing(Stmt):
    """A statement that was wrong (already reported): it does nothing."""


class Exists(Expr):
    """count([... for ...]) > 0, written as a search that stops at the first element."""
    comp: Comp


class Dispatch(Stmt):
    """The statement of an event's dispatch frame (engine.vm.dispatch)."""


def _define(classes=None, roots=(Expr, Stmt)) -> None:
    """Each node class's FIELDS, TYPES and ``__init__`` (see Node): of every class below Node,
    or of those given."""
    if classes is None:
        classes, todo = [], [Node]
        while todo:
            for sub in todo.pop(0).__subclasses__():
                if sub not in classes:
                    classes.append(sub)
                    todo.append(sub)
    defaults: dict = {}
    code = []
    for cls in classes:
        plain, keyword = [], []
        for base in reversed(cls.__mro__[:-2]):  # (not Node, not object)
            for name, kind in base.__dict__.get("__annotations__", {}).items():
                (keyword if base in roots else plain).append((name, kind, base.__dict__.get(name, _NONE)))
        fields = keyword + plain  # (set in this order: the bases' first)
        cls.FIELDS = tuple(name for name, _, _ in fields)
        cls.TYPES = tuple(kind for _, kind, _ in fields)

        def param(name, default):
            if default is _NONE:
                return name
            if isinstance(default, (list, dict, set)):  # (one value shared by every node: refused, as dataclasses do)
                raise TypeError(f"{cls.__name__}.{name}: a mutable default")
            defaults[f"_d{len(defaults)}"] = default
            return f"{name}=_d{len(defaults) - 1}"
        given = [d is not _NONE for _, _, d in plain]
        if given != sorted(given):  # (positional: those with a default come last)
            raise TypeError(f"{cls.__name__}: a field without a default after one with a default")
        params = [param(n, d) for n, _, d in plain] + (["*"] if keyword else []) + [param(n, d) for n, _, d in keyword]
        body = "".join(f"\n    self.{n} = {n}" for n in cls.FIELDS) or "\n    pass"
        code.append(f"def {cls.__name__}(self, {', '.join(params)}):{body}")
    space = dict(defaults)
    exec("\n".join(code), space)
    for cls in classes:
        init = space[cls.__name__]
        init.__name__, init.__qualname__, init.__module__ = "__init__", f"{cls.__name__}.__init__", __name__
        cls.__init__ = init


_NONE = object()  # (a field without a default)
_define()
