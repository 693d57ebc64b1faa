"""Parse effect-language text into a small AST of ``Node`` objects.

The Lark parser is built once per process from ``grammar/effects.lark`` and cached on
disk under the user's cache directory, so construction costs a few milliseconds.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .treecache import cache_scope, deep_recursion, load as _load_ast_cache, note as _note_tree, save_ast_cache  # noqa: F401


GRAMMAR_PATH = Path(__file__).resolve().parents[2] / "grammar" / "effects.lark"


class Node:
    """An AST node: ``kind`` plus positional fields ``a``; ``line``/``col`` inside the text."""

    __slots__ = ("kind", "a", "line", "col")

    def __init__(self, kind, a, line=1, col=1):
        self.kind, self.a, self.line, self.col = kind, tuple(a), line, col

    def __repr__(self):
        return f"{self.kind}{self.a!r}"


class DSLSyntaxError(Exception):
    def __init__(self, message, line, col, hint=""):
        super().__init__(message)
        self.message, self.line, self.col, self.hint = message, line, col, hint


_parsers: dict = {}  # the one LALR parser, built on first use


def _cache_file() -> str:
    """The parser cache's file, named by what the cached trees depend on: the grammar, this
    module (the tree builder) and the installed Lark."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    h = hashlib.sha256(GRAMMAR_PATH.read_bytes())
    try:
        h.update(Path(__file__).read_bytes())
        import importlib.util

        spec = importlib.util.find_spec("lark")
        if spec is not None and spec.origin:
            st = os.stat(spec.origin)
            h.update(f"{spec.origin}:{st.st_size}:{st.st_mtime_ns}".encode())
    except OSError:
        pass
    path = os.path.join(base, "lotr-rules")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return ""
    return os.path.join(path, f"effects-{h.hexdigest()[:16]}.lark.cache")


def get_parser():
    """The LALR parser (Lark is imported only when some text is not in the parse cache)."""
    p = _parsers.get("p")
    if p is None:
        from lark import Lark

        cache = _cache_file()
        kwargs = dict(parser="lalr", propagate_positions=True, maybe_placeholders=True,
                      start=["start", "expr_only"])
        try:
            p = Lark(GRAMMAR_PATH.read_text(), cache=cache or False, **kwargs)
        except (OSError, EOFError):  # unreadable cache: build without it
            p = Lark(GRAMMAR_PATH.read_text(), **kwargs)
        _parsers["p"] = p
    return p


def _pos(meta_or_tok):
    line = getattr(meta_or_tok, "line", None) or 1
    col = getattr(meta_or_tok, "column", None) or 1
    return line, col


Token = None  # lark.Token, bound when Lark is first needed


def _make_transformer():
    global Token
    from lark import Token as _Token
    from lark import Transformer, v_args

    Token = _Token
    methods = {k: v for k, v in vars(_Rules).items() if callable(v) and not k.startswith("__")}
    cls = type("_ToAST", (Transformer,), methods)
    return v_args(meta=True)(cls)()


class _Rules:
    """The tree-to-AST callbacks (attached to a Lark Transformer when Lark is loaded)."""
    # ---- statements -------------------------------------------------------
    def expr_only(self, meta, items):
        return items[0]

    def start(self, meta, items):
        return Node("block", [list(items)], *_pos(meta))

    def block(self, meta, items):
        return Node("block", [[i for i in items if isinstance(i, Node)]], *_pos(meta))

    def let_stmt(self, meta, items):
        _, name, _, expr = items
        return Node("let", [str(name), expr], *_pos(meta))

    def lvalue(self, meta, items):
        name = items[0]
        index = items[2] if len(items) > 2 else None
        return (str(name), index, _pos(name))

    def assign_stmt(self, meta, items):
        (name, index, _), op, expr = items
        return Node("assign", [name, index, str(op), expr], *_pos(meta))

    def call_stmt(self, meta, items):
        name, _, args, _ = items
        pos, kw = args if args is not None else ([], {})
        return Node("call", [str(name), pos, kw], *_pos(meta))

    def emit_stmt(self, meta, items):
        _, name, _, args, _ = items
        pos, kw = args if args is not None else ([], {})
        return Node("emit", [str(name), pos, kw], *_pos(meta))

    def args(self, meta, items):
        pos, kw = [], {}
        for it in items:
            if isinstance(it, Token):
                continue
            if isinstance(it, tuple) and it and it[0] == "__kw__":
                kw[it[1]] = it[2]
            else:
                pos.append(it)
        return pos, kw

    def kwarg(self, meta, items):
        name, _, expr = items
        return ("__kw__", str(name), expr)

    def if_stmt(self, meta, items):
        clauses, else_block = [], None
        i = 0
        while i < len(items):
            t = items[i]
            if isinstance(t, Token) and t.type in ("IF", "ELIF"):
                clauses.append((items[i + 1], items[i + 2]))
                i += 3
            elif isinstance(t, Token) and t.type == "ELSE":
                else_block = items[i + 1]
                i += 2
            else:
                i += 1
        return Node("if", [clauses, else_block], *_pos(meta))

    def repeat_stmt(self, meta, items):
        return Node("repeat", [items[1], items[2]], *_pos(meta))

    def for_stmt(self, meta, items):
        return Node("for", [str(items[1]), items[3], items[4]], *_pos(meta))

    def while_stmt(self, meta, items):
        return Node("while", [items[1], items[2]], *_pos(meta))

    def choose_stmt(self, meta, items):
        var = str(items[1])
        options = items[3]
        where = by = about = None
        label = var
        optional = False
        i = 4
        while i < len(items):
            t = items[i]
            if isinstance(t, Token) and t.type == "WHERE":
                where = items[i + 1]; i += 2
            elif isinstance(t, Token) and t.type == "BY":
                by = items[i + 1]; i += 2
            elif isinstance(t, Token) and t.type == "LABEL":
                label = str(items[i + 1]); i += 2
            elif isinstance(t, Token) and t.type == "ABOUT":
                about = items[i + 1]; i += 2
            elif isinstance(t, Token) and t.type == "OPTIONAL":
                optional = True; i += 1
            else:
                i += 1
        return Node("choose", [var, options, where, by, label, optional, about], *_pos(meta))

    def ask_stmt(self, meta, items):
        names, by, i = [], None, 1
        while i < len(items):
            t = items[i]
            if isinstance(t, Token) and t.type == "NAME":
                names.append((str(t), _pos(t)))
            elif isinstance(t, Token) and t.type == "BY":
                by = items[i + 1]; i += 1
            i += 1
        return Node("ask", [names, by], *_pos(meta))

    def _branches(self, kind, meta, items):
        label = str(items[1])
        by = None
        branches = []
        for i, t in enumerate(items):
            if isinstance(t, Token) and t.type == "BY":
                by = items[i + 1]
            elif isinstance(t, tuple) and t and t[0] == "__branch__":
                branches.append(t[1:])
        return Node(kind, [label, by, branches], *_pos(meta))

    def one_of_stmt(self, meta, items):
        return self._branches("one_of", meta, items)

    def any_order_stmt(self, meta, items):
        return self._branches("any_order", meta, items)

    def branch(self, meta, items):
        name = str(items[0])
        cond = items[2] if len(items) == 4 else None
        return ("__branch__", name, cond, items[-1], _pos(meta))

    def may_stmt(self, meta, items):
        label = str(items[1])
        by = items[3] if len(items) == 5 else None
        return Node("may", [label, by, items[-1]], *_pos(meta))

    def return_stmt(self, meta, items):
        return Node("return", [], *_pos(meta))

    # ---- expressions ------------------------------------------------------
    def number(self, meta, items):
        return Node("const", [int(items[0])], *_pos(meta))

    def string(self, meta, items):
        return Node("const", [str(items[0])[1:-1]], *_pos(meta))

    def true(self, meta, items):
        return Node("const", [True], *_pos(meta))

    def false(self, meta, items):
        return Node("const", [False], *_pos(meta))

    def none(self, meta, items):
        return Node("const", [None], *_pos(meta))

    def atom(self, meta, items):  # ( expr )
        return items[1]

    def name(self, meta, items):
        return Node("name", [str(items[0])], *_pos(meta))

    def list(self, meta, items):
        return Node("list", [[i for i in items if isinstance(i, Node)]], *_pos(meta))

    def comprehension(self, meta, items):
        exprs = [i for i in items if isinstance(i, Node)]
        var = str(items[3])
        elem, it = exprs[0], exprs[1]
        cond = exprs[2] if len(exprs) > 2 else None
        return Node("comp", [elem, var, it, cond], *_pos(meta))

    def attr(self, meta, items):
        return Node("attr", [items[0], str(items[2])], *_pos(meta))

    def index(self, meta, items):
        return Node("index", [items[0], items[2]], *_pos(meta))

    def call(self, meta, items):
        name, _, args, _ = items
        pos, kw = args if args is not None else ([], {})
        return Node("fcall", [str(name), pos, kw], *_pos(meta))

    def _chain(self, kind, meta, items):
        operands = [i for i in items if isinstance(i, Node)]
        ops = [str(i) for i in items if isinstance(i, Token)]
        return Node(kind, [operands, ops], *_pos(meta))

    def or_expr(self, meta, items):
        return Node("or", [[i for i in items if isinstance(i, Node)]], *_pos(meta))

    def and_expr(self, meta, items):
        return Node("and", [[i for i in items if isinstance(i, Node)]], *_pos(meta))

    def not_(self, meta, items):
        return Node("not", [items[1]], *_pos(meta))

    def comp_op(self, meta, items):
        return " ".join(str(t) for t in items)

    def comparison(self, meta, items):
        return Node("cmp", [items[1], items[0], items[2]], *_pos(meta))

    def sum(self, meta, items):
        return self._chain("arith", meta, items)

    def product(self, meta, items):
        return self._chain("arith", meta, items)

    def neg(self, meta, items):
        return Node("neg", [items[1]], *_pos(meta))

    def cond(self, meta, items):
        return Node("cond", [items[1], items[3], items[5]], *_pos(meta))


_to_ast = None

_EXPECT_NAMES = {"NAME": "a name", "NUMBER": "a number", "STRING": "a string"}


def _expect_name(term: str) -> str:
    if term in _EXPECT_NAMES:
        return _EXPECT_NAMES[term]
    for t in get_parser().terminals:  # keywords and punctuation: show the literal text
        if t.name == term and t.pattern.type == "str":
            return repr(t.pattern.value)
    return term.lower()


def parse(text: str, start: str = "start") -> Node:
    """Parse DSL text. Raises DSLSyntaxError with a 1-based line/col inside ``text``."""
    cache = _load_ast_cache()
    key = (start, text)
    hit = cache.get(key)
    if hit is not None:
        return hit
    if len(text) > 100_000:
        raise DSLSyntaxError("effect text longer than 100,000 characters", 1, 1, "split it into procedures")
    too_deep = DSLSyntaxError(f"expression nested more than {MAX_DEPTH} levels deep", 1, 1,
                              "split it with let or into functions")
    try:
        with deep_recursion():
            node = _parse(text, start)
    except RecursionError:
        raise too_deep from None
    except Exception as exc:
        from lark.exceptions import VisitError

        if not isinstance(exc, VisitError):
            raise
        if isinstance(exc.orig_exc, RecursionError):
            raise too_deep from None
        raise DSLSyntaxError(f"cannot read a value: {exc.orig_exc}", 1, 1,
                             "numbers have at most a few thousand digits") from None
    if height(node) > MAX_DEPTH:
        raise too_deep
    _note_tree(cache, key, node)  # every accepted tree is kept (written with room to recurse)
    return node


MAX_DEPTH = 500    # the deepest tree the language accepts; every accepted tree compiles and runs


def height(node) -> int:
    """The height of a tree of Nodes (without recursion, so any tree can be measured)."""
    best = 0
    stack = [(node, 1)]
    while stack:
        x, h = stack.pop()
        if isinstance(x, Node):
            if h > best:
                best = h
            stack.extend((c, h + 1) for c in x.a)
        elif isinstance(x, (list, tuple)):
            stack.extend((c, h) for c in x)
    return best


def _parse(text: str, start: str) -> Node:
    global _to_ast
    from lark import UnexpectedInput
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if _to_ast is None:
        _to_ast = _make_transformer()
    try:
        tree = get_parser().parse(text, start=start)
    except UnexpectedInput as exc:
        line, col = getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1
        if isinstance(exc, UnexpectedCharacters):
            ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
            raise DSLSyntaxError(f"unexpected character {ch!r}", line, col,
                                 "names use letters, digits and '_'; strings use quotes") from None
        if isinstance(exc, UnexpectedEOF):
            lines = text.splitlines() or [""]
            raise DSLSyntaxError("unexpected end of effect text", len(lines), len(lines[-1]) + 1,
                                 "a block or bracket is not closed") from None
        if isinstance(exc, UnexpectedToken):
            expected = sorted(_expect_name(e) for e in exc.expected)[:8]
            got = exc.token.value if exc.token.type != "$END" else "end of text"
            if exc.token.type == "$END":  # point just after the last character written
                lines = text.rstrip().splitlines() or [""]
                line, col = len(lines), len(lines[-1]) + 1
            raise DSLSyntaxError(f"unexpected {got!r}", line, col,
                                 "expected " + ", ".join(expected) if expected else "") from None
        raise DSLSyntaxError(str(exc), line, col) from None
    return _to_ast.transform(tree)


def parse_expr(text: str) -> Node:
    """Parse a single expression (used for conditions and computed values in YAML)."""
    return parse(text, start="expr_only")
