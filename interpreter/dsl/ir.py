"""The checked, typed intermediate form of the effect language.

``check.py`` turns parsed text into these nodes (every name resolved, every type known,
every problem reported); ``optimise.py`` rewrites them; ``codegen.py`` writes them as Python.
Each expression node has a ``type`` (int bool str player region item zone kind track list map
none any, or ``enum:NAME``) and ``reads``: the channels of the state it reads (zone families,
piece kinds, variables; ``*`` for anything, ``!`` for chance), which decide when a memoised
function is forgotten and when a trigger is checked.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ANY = "any"
NOTHING: frozenset = frozenset()


@dataclass(eq=False)
class Expr:
    type: str = field(default=ANY, kw_only=True)
    reads: frozenset = field(default=NOTHING, kw_only=True)


@dataclass(eq=False)
class Const(Expr):
    value: object


@dataclass(eq=False)
class Local(Expr):
    """A local of the running effect (let, a parameter of a procedure or move, a loop variable
    of a statement): kept in the frame's env."""
    name: str


@dataclass(eq=False)
class PyName(Expr):
    """A name of the generated code itself: a game function's parameter (a0, a1), its `me`,
    or the variable of a comprehension."""
    name: str


@dataclass(eq=False)
class Var(Expr):
    """A game variable: `name`, or `family.key` when key is given."""
    name: str
    key: Expr | None = None


@dataclass(eq=False)
class Zone(Expr):
    """A zone id: a single zone (key None) or a zone of a family."""
    family: str
    key: Expr | None = None


@dataclass(eq=False)
class Items(Expr):
    """The items of a zone, as a list (empty tableau slots left out)."""
    zone: Expr


@dataclass(eq=False)
class Seq(Expr):
    """A value whose type is known only at run time, used as a list: a zone id means its
    items, none an empty list."""
    value: Expr


@dataclass(eq=False)
class Attr(Expr):
    base: Expr
    prop: str


@dataclass(eq=False)
class Index(Expr):
    base: Expr
    index: Expr


@dataclass(eq=False)
class Arith(Expr):
    operands: list
    ops: list  # '+', '-', '*', '/', '%'


@dataclass(eq=False)
class Compare(Expr):
    op: str  # == != < <= > >= in 'not in'
    left: Expr
    right: Expr


@dataclass(eq=False)
class BoolOp(Expr):
    op: str  # and, or
    items: list


@dataclass(eq=False)
class Not(Expr):
    value: Expr


@dataclass(eq=False)
class Neg(Expr):
    value: Expr


@dataclass(eq=False)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(eq=False)
class ListOf(Expr):
    items: list


@dataclass(eq=False)
class Comp(Expr):
    """[elem for var in source if cond]."""
    elem: Expr
    var: str  # the generated code's name for the variable
    source: Expr
    cond: Expr | None


@dataclass(eq=False)
class Prim(Expr):
    """A call of a primitive function (engine.primitives)."""
    name: str
    args: list


@dataclass(eq=False)
class Call(Expr):
    """A call of a game function: its generated function gets the state, `me` (none when the
    function never reads it) and the arguments."""
    name: str
    me: Expr | None
    args: list


# ------------------------------------------------------------------ statements
@dataclass(eq=False)
class Stmt:
    line: int = field(default=1, kw_only=True)
    col: int = field(default=1, kw_only=True)


@dataclass(eq=False)
class Block:
    """A list of statements that the interpreter runs frame by frame; numbered when built, so
    a saved stack [block, pc, env, aux] resumes after the same rules are loaded again."""
    id: int
    stmts: list
    src: object = None  # dsl.check.Src of the text


@dataclass(eq=False)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(eq=False)
class SetLocal(Stmt):
    name: str
    op: str  # = += -=
    value: Expr


@dataclass(eq=False)
class SetVar(Stmt):
    name: str
    key: Expr | None
    op: str
    value: Expr
    bit: int = 0


@dataclass(eq=False)
class Do(Stmt):
    """A primitive statement (engine.primitives)."""
    name: str
    args: list
    env: bool = False  # the primitive gets the frame's env (resolve, advance)


@dataclass(eq=False)
class If(Stmt):
    clauses: list  # [(cond, Block)]
    other: Block | None


@dataclass(eq=False)
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass(eq=False)
class For(Stmt):
    var: str
    source: Expr
    body: Block


@dataclass(eq=False)
class While(Stmt):
    cond: Expr
    body: Block


@dataclass(eq=False)
class CallProc(Stmt):
    name: str
    block: list  # [block id], filled when the procedure is compiled
    me: Expr | None
    args: list  # [(param, Expr)]


@dataclass(eq=False)
class Choose(Stmt):
    var: str
    options: Expr
    where: Expr | None
    by: Expr | None
    label: str
    optional: bool
    about: Expr | None


@dataclass(eq=False)
class Ask(Stmt):
    moves: list
    by: Expr | None


@dataclass(eq=False)
class Branches(Stmt):
    """one_of (pick one branch), any_order (each once, in the player's order) or may (yes/no)."""
    kind: str  # one_of | any_order | may
    label: str
    by: Expr | None
    branches: list  # [(name, cond or None, Block)]


@dataclass(eq=False)
class Emit(Stmt):
    event: str
    args: list  # [(name, Expr)]


@dataclass(eq=False)
class Return(Stmt):
    pass


@dataclass(eq=False)
class Nothing(Stmt):
    """A statement that was wrong (already reported): it does nothing."""


@dataclass(eq=False)
class Exists(Expr):
    """count([... for ...]) > 0, written as a search that stops at the first element."""
    comp: Comp


@dataclass(eq=False)
class Dispatch(Stmt):
    """The statement of an event's dispatch frame (engine.vm.dispatch)."""
