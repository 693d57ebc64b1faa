"""Effect-language text checked and compiled against a loaded game, after its build: the
conditions of scenarios, a front end's questions ("why is this not legal?"), tests."""
from __future__ import annotations

from ..dsl.check import Checker
from ..loading.yamlsrc import Src
from ..dsl.codegen import Module
from ..dsl.optimise import Optimiser
from ..errors import RuleError


def compile_expression(game, text: str, names=("me",), src: Src | None = None):
    """f(state, env) for the text; env holds the locals named. RuleError lists its problems."""
    rules, decl = game.rules, game.declarations
    diags = []
    c = Checker(rules, decl, diags)
    c.functions = decl.functions
    scope = {n: ("local", n, "player" if n == "me" else "any") for n in names}
    e = c.expr_text(text, src or Src(None, (), "expression"), scope)
    if diags:
        raise RuleError(diags)
    e = Optimiser(decl.functions).expr(e)
    mod = Module(rules, lambda *a: "")
    name = mod.function(e, "an expression")
    ns = dict(rules.namespace)  # its own copy: the expression's names never clash with the game's
    exec(compile(mod.source(), "<expression>", "exec"), ns)
    return ns[name]


def _compiled(game, e):
    mod = Module(game.rules, lambda *a: "")
    name = mod.function(e, "a part of an expression")
    ns = dict(game.rules.namespace)
    exec(compile(mod.source(), "<expression>", "exec"), ns)
    return ns[name]


def falsehood(game, text: str, state, env, names=("me",)):
    """Why a condition is false: its first false part (of an `and`), and for a comparison the
    operator and the values of both sides: (op, left, right); None when it cannot say more."""
    from ..dsl import ir

    diags = []
    c = Checker(game.rules, game.declarations, diags)
    c.functions = game.declarations.functions
    scope = {n: ("local", n, "player" if n == "me" else "any") for n in names}
    e = c.expr_text(text, Src(None, (), "expression"), scope)
    if diags:
        return None
    while isinstance(e, ir.BoolOp) and e.op == "and":
        e = next((x for x in e.items if not _compiled(game, x)(state, env)), None)
        if e is None:
            return None
    if isinstance(e, ir.Compare):
        return e.op, _compiled(game, e.left)(state, env), _compiled(game, e.right)(state, env)
    return None
