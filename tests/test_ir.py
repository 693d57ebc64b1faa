"""The IR's node classes (interpreter/dsl/ir.py) and the optimiser's walk over them
(interpreter/dsl/optimise.py)."""
import inspect
import pickle

import pytest

from interpreter.dsl import ir
from interpreter.dsl.optimise import Optimiser


def test_a_node_takes_its_own_fields_in_order_and_those_of_expr_and_stmt_by_keyword():
    assert str(inspect.signature(ir.Var)) == "(name, key=None, *, type='any', reads=frozenset())"
    assert str(inspect.signature(ir.Do)) == "(name, args, env=False, *, line=1, col=1)"
    assert str(inspect.signature(ir.Block)) == "(id, stmts, src=None)"
    assert str(inspect.signature(ir.Return)) == "(*, line=1, col=1)"
    assert ir.SetVar.FIELDS == ("line", "col", "name", "key", "op", "value", "bit")
    assert ir.Var.TYPES == ("str", "frozenset", "str", "Expr | None")
    a, b = ir.Const(1, type="int"), ir.Const(1, type="int")
    assert a != b and a == a and repr(a) == "Const(type='int', reads=frozenset(), value=1)"
    back = pickle.loads(pickle.dumps(ir.Var("x", ir.Const(2))))
    assert back.name == "x" and back.key.value == 2 and back.type == "any"


def test_a_node_class_with_a_shared_default_or_a_default_out_of_order_is_refused():
    class Shared(ir.Expr):
        items: list = []

    class Order(ir.Stmt):
        a: int = 1
        b: int

    class Fine(ir.Stmt):
        a: int
        b: int = 2

    with pytest.raises(TypeError, match="Shared.items: a mutable default"):
        ir._define([Shared])
    with pytest.raises(TypeError, match="Order: a field without a default after one with a default"):
        ir._define([Order])
    ir._define([Fine])
    assert str(inspect.signature(Fine)) == "(a, b=2, *, line=1, col=1)" and Fine(1).b == 2


def test_the_optimiser_leaves_a_statement_given_as_an_expression_as_it_is():
    call = ir.CallProc("p", [3], None, [("x", ir.Const(1))])
    opt = Optimiser({})
    opt.stmt(call)  # (a statement's fields walked: its lists made anew)
    block, args = call.block, call.args
    assert opt.expr(call) is call and call.block is block and call.args is args
