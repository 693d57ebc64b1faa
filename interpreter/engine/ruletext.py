"""Rule text as parsed, for the questions a front end asks about it (engine/explain.py,
engine/wording.py): an expression written back as text (to evaluate a part of it on its own), the
statement a pending decision comes from (and the values a player may name there), and the
evaluation of rule text on a copy of a state."""
from __future__ import annotations

from ..dsl.parse import Node, parse, parse_expr

_PREC = {"cond": 0, "or": 1, "and": 2, "not": 3, "cmp": 4, "neg": 7}  # how tightly each binds


def _prec(n) -> int:
    if n.kind == "arith":
        return 6 if n.a[1] and n.a[1][0] in ("*", "/", "%") else 5
    return _PREC.get(n.kind, 8)


def _const(v) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "none"
    if isinstance(v, str):
        q = '"' if "'" in v else "'"
        return q + v + q
    return str(v)


def unparse(n, need: int = 0) -> str:
    """Rule text for a parsed expression (brackets only where they are needed)."""
    k, a = n.kind, n.a
    if k == "const":
        s = _const(a[0])
    elif k == "name":
        s = a[0]
    elif k == "list":
        s = "[" + ", ".join(unparse(x) for x in a[0]) + "]"
    elif k == "comp":
        elem, var, it, cond = a
        s = f"[{unparse(elem)} for {var} in {unparse(it, 1)}" + (f" if {unparse(cond, 1)}" if cond else "") + "]"
    elif k == "attr":
        s = f"{unparse(a[0], 8)}.{a[1]}"
    elif k == "index":
        s = f"{unparse(a[0], 8)}[{unparse(a[1])}]"
    elif k == "fcall":
        s = f"{a[0]}(" + ", ".join([unparse(x) for x in a[1]] + [f"{kk}={unparse(v)}" for kk, v in a[2].items()]) + ")"
    elif k in ("or", "and"):
        s = f" {k} ".join(unparse(x, _PREC[k] + 1) for x in a[0])
    elif k == "not":
        s = "not " + unparse(a[0], 3)
    elif k == "cmp":
        s = f"{unparse(a[1], 5)} {a[0]} {unparse(a[2], 5)}"
    elif k == "arith":
        ops, p = a[1], _prec(n)
        s = unparse(a[0][0], p) + "".join(f" {o} {unparse(x, p + 1)}" for o, x in zip(ops, a[0][1:]))
    elif k == "neg":
        s = "-" + unparse(a[0], 7)
    elif k == "cond":
        s = f"if {unparse(a[0])} then {unparse(a[1])} else {unparse(a[2])}"
    else:
        raise ValueError(f"cannot write a {k} back as text")
    return f"({s})" if _prec(n) < need else s


def expression(text) -> Node | None:
    """The parsed expression of a rule text, or None when it cannot be read."""
    try:
        return parse_expr(str(text))
    except Exception:
        return None


def statement_at(text, line: int, col: int) -> Node | None:
    """The statement of an effect text that starts at line:col (a choose, a one_of...)."""
    try:
        root = parse(str(text))
    except Exception:
        return None
    todo = [root]
    while todo:
        x = todo.pop()
        if isinstance(x, Node):
            if x.line == line and x.col == col and x.kind in ("choose", "one_of", "any_order", "may"):
                return x
            todo.extend(x.a)
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
    return None


def statement_of(st):
    """(parsed statement, env) of the decision the game is asking now, or (None, env)."""
    fr = st.stack[-1]
    try:
        src, line, col = st.rules.block_src[fr[0]][fr[1]]
        d = src.source.data
        for step in src.path:
            d = d[step]
    except Exception:
        return None, fr[2]
    return statement_at(d, line, col), fr[2]


def choice_values(st, p, words: list, hidden) -> list:
    """Values a pending choice could be asked about, named by the words (legal or not): its
    branches' names, or the players, names and items of the game that are not hidden."""
    rules = st.rules
    if p["type"] in ("branch", "order"):
        stmt, _ = statement_of(st)
        names = [b[0] for b in stmt.a[2]] if stmt is not None and stmt.kind != "may" else list(p["options"])
        return [b for b in names if all(w in b.replace("_", " ").lower() for w in words)]
    pool = [v for v in dict.fromkeys([*rules.players, *rules.names, *rules.props]) if v not in hidden]
    return [v for v in pool if all(w in f"{v} {rules.display(v)}".replace("_", " ").lower() for w in words)][:50]


class Evaluator:
    """Evaluates rule text against a state (on a clone: nothing changes). It needs the Game (the
    rules as checked at load), through Game.expression; without it, nothing is evaluated."""

    def __init__(self, st, game=None):
        self.st = st.clone()
        self.game = game
        self._cache: dict = {}

    def __call__(self, text, env, scope_names):
        if self.game is None or not hasattr(self.game, "expression"):
            raise ValueError("the rules' text cannot be evaluated here")
        names = ("me",) + tuple(n for n in scope_names if n != "me")
        key = (str(text), names)
        f = self._cache.get(key)
        if f is None:
            try:
                f = self._cache[key] = self.game.expression(str(text), names)
            except Exception as exc:  # RuleError: text that does not check
                raise ValueError(str(exc).splitlines()[0] if str(exc) else "cannot read it") from None
        self.st.work = 0
        return f(self.st, dict(env))
