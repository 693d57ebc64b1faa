"""Parse effect-language text into a small AST of ``Node`` objects.

Texts are parsed by the LALR driver (lalr.py) from the tables Lark makes of
``grammar/effects.lark``, built in advance (``grammar/effects.driver``; Lark's own parser in
``grammar/effects.tables`` words syntax errors) or, for another Lark or Python, on first use
into the user's cache.

Why this module is large: the AST is built while Lark parses, by one short callback per rule
of the grammar (``_Rules``), in the grammar's order; split off, the parser would be two halves.
"""
from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from ..loading.cachefile import package_version
from .lalr import Token as DriverToken
from .treecache import cache_scope, deep_recursion, load as _load_ast_cache, note as _note_tree, save_ast_cache  # noqa: F401


GRAMMAR_PATH = Path(__file__).resolve().parents[2] / "grammar" / "effects.lark"


class Node:
    """An AST node: ``kind`` plus positional fields ``a``; ``line``/``col`` inside the text."""

    __slots__ = ("kind", "a", "line", "col")

    def __init__(self, kind, a, line=1, col=1):
        self.kind, self.a, self.line, self.col = kind, tuple(a), line, col

    def __repr__(self):
        return f"{self.kind}{self.a!r}"

    def __reduce__(self):  # pickled as its four fields (parse cache): faster and smaller than by slots
        return Node, (self.kind, self.a, self.line, self.col)


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


TABLES_PATH = GRAMMAR_PATH.with_name("effects.tables")  # Lark's own parser, saved (write_tables)
DRIVER_PATH = GRAMMAR_PATH.with_name("effects.driver")  # the driver's tables, as plain data (write_tables)
_OPTIONS = dict(parser="lalr", maybe_placeholders=True, start=["start", "expr_only"])


def tables_key() -> str:
    """What the parser tables depend on, as the first line of a tables file: the grammar's
    digest, then the Lark and Python versions they were built with (Lark's pickled tables are
    tied to both)."""
    import sys

    grammar = hashlib.sha256(GRAMMAR_PATH.read_bytes() + repr(sorted(_OPTIONS.items())).encode()).hexdigest()[:16]
    return f"{grammar} lark-{package_version('lark')} python-{sys.version_info[0]}.{sys.version_info[1]}"


def write_tables(path, parser=None, driver_path=None) -> None:
    """Write the LALR tables of the grammar to path (the key line, then Lark's saved parser),
    from parser when given (built with _OPTIONS), else built now; whole or not at all. With
    driver_path, the driver's tables too (write_driver)."""
    from lark import Lark
    from lark.lark import _LOAD_ALLOWED_OPTIONS

    from ..loading.cachefile import write_atomically

    parser = parser or Lark(GRAMMAR_PATH.read_text(), transformer=_rules(), **_OPTIONS)
    key = tables_key().encode() + b"\n"

    def dump(fh):
        fh.write(key)
        parser.save(fh, exclude_options=_LOAD_ALLOWED_OPTIONS)  # (the callbacks are given at load)
    write_atomically(str(path), dump)
    if driver_path:
        write_driver(driver_path, parser)


def write_driver(path, parser) -> bool:
    """Write the driver's tables of a Lark parser made with the tree builder (_Rules) as its
    transformer: the key line, then the pickled data (lalr.py). False where they cannot be
    saved (a Lark that builds some value in a way the driver does not know)."""
    import pickle

    from ..loading.cachefile import write_atomically
    from .lalr import _read_lark, savable

    data = _read_lark(parser)[0]
    if not savable(data):
        return False
    key = tables_key().encode() + b"\n"
    write_atomically(str(path), lambda fh: (fh.write(key), pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)))
    return True


def _read_tables(path, rules):
    """The parser from a tables file written for this grammar, Lark and Python, or None."""
    import pickle

    from lark import Lark

    try:
        with open(path, "rb") as fh:
            if fh.readline().rstrip(b"\n").decode() != tables_key():
                return None
            saved = pickle.load(fh)
        # (as Lark loads its own cache: the tables, with our callbacks)
        return Lark._load_from_dict(saved["data"], saved["memo"], transformer=rules)
    except Exception:  # no file, or another one: build the parser instead
        return None


def _read_driver(path, key: str):
    """The driver of a driver tables file written for this grammar, Lark and Python, or None."""
    import pickle

    from .lalr import LALRDriver

    if not path:
        return None
    try:
        with open(path, "rb") as fh:
            if fh.readline().rstrip(b"\n").decode() != key:
                return None
            data = pickle.load(fh)
        return LALRDriver.from_data(data, _rules())
    except Exception:  # no file, another one, or one this engine cannot use: made from Lark instead
        return None


def _rules():
    """The one tree builder (its callbacks keep the parse's own state: _ONE_PARSE)."""
    rules = _parsers.get("rules")
    if rules is None:
        rules = _parsers["rules"] = _Rules()
    return rules


def get_driver():
    """The lean parser (lalr.py), or None where it cannot be made (Lark's own loop parses).

    Made from ``grammar/effects.driver`` without importing Lark, or, with another Lark or
    Python, from Lark's parser (get_parser), its tables then saved in the user's cache."""
    if "fast" not in _parsers:
        with _MAKING:
            if "fast" not in _parsers:
                key = tables_key()
                cache = _cache_file()
                driver_cache = cache.replace(".lark.cache", ".driver.cache") if cache else ""
                fast = _read_driver(DRIVER_PATH, key) or _read_driver(driver_cache, key)
                if fast is None:
                    p = get_parser()
                    fast = _driver(p)
                    if fast is not None and driver_cache:
                        try:
                            write_driver(driver_cache, p)
                        except Exception:  # (a cache: a failed write is no failure)
                            pass
                _parsers["fast"] = fast
    return _parsers["fast"]


def get_parser():
    """The LALR parser of Lark (imported only to word a syntax error, or where the driver's
    tables do not fit the installed Lark). It builds the AST as it parses (``_Rules``), which
    takes half the time of building Lark's parse tree and transforming that.

    Its tables come from ``grammar/effects.tables``, built from the grammar when the engine is
    made (``tools/parser_tables.py``; a test keeps them current), or, with another Lark or
    Python, from the user's cache, built there on first use."""
    global Token
    p = _parsers.get("p")
    if p is None:
        with _MAKING:  # (one thread makes it; the parser is published last, with its parts)
            p = _parsers.get("p")
            if p is None:
                from lark import Lark
                from lark import Token as LarkToken

                Token = (DriverToken, LarkToken)
                rules = _rules()
                cache = _cache_file()
                # (positions come from the tokens, in _Rules: Lark's propagate_positions is not needed)
                p = _read_tables(TABLES_PATH, rules) or (_read_tables(cache, rules) if cache else None)
                if p is None:
                    p = Lark(GRAMMAR_PATH.read_text(), transformer=rules, **_OPTIONS)
                    if cache:
                        write_tables(cache, p)  # (a cache: a failed write is no failure)
                _parsers["p"] = p
    return p


_MAKING = threading.RLock()


def _driver(parser):
    """The lean loop over the parser's tables (lalr.py), or None where this Lark's insides
    are not the ones it knows (Lark's own loop parses then)."""
    from .lalr import LALRDriver

    try:
        return LALRDriver.from_lark(parser)
    except (AttributeError, TypeError, KeyError, ImportError):
        return None


Token = (DriverToken,)  # the classes of tokens the callbacks are given: the driver's, and Lark's once it is loaded


def _at(tok):
    return tok.line, tok.column


class _Rules:
    """The AST built while Lark parses (its LALR ``transformer=``): one callback per rule of the
    grammar, given the rule's parts (tokens, the values of its sub-rules, None for a missing
    optional part).

    A node's position is where its text begins: its first token, or where its first part
    begins. A parenthesised expression stands for the expression inside (whose own position is
    inside the parentheses), but where it is the first part of a larger expression, that one
    begins at the '(': ``paren`` keeps, for the parse under way, the '(' before each such
    expression (by its id, with the node itself: a node can be dropped before the parse ends,
    a repeated named argument, and its id must not pass to another)."""

    def __init__(self):
        self.paren = {}
        self.bad_number = None  # the first number of the text Python cannot convert
        self.repeated = None  # the first named argument given twice in a call: (name, (line, col))

    def reset(self):
        self.paren.clear()
        self.bad_number = self.repeated = None

    def _start(self, node):
        if self.paren:
            hit = self.paren.get(id(node))
            if hit is not None and hit[0] is node:
                return hit[1]
        return node.line, node.col

    # ---- statements -------------------------------------------------------
    def expr_only(self, items):
        return items[0]

    def start(self, items):
        return Node("block", [list(items)], *((items[0].line, items[0].col) if items else (1, 1)))

    def block(self, items):
        return Node("block", [[i for i in items if isinstance(i, Node)]], *_at(items[0]))

    def let_stmt(self, items):
        kw, name, _, expr = items
        return Node("let", (str(name), expr), kw.line, kw.column)

    def lvalue(self, items):
        name = items[0]
        index = items[2] if len(items) > 2 else None
        return (str(name), index, (name.line, name.column))

    def assign_stmt(self, items):
        (name, index, (line, col)), op, expr = items
        return Node("assign", (name, index, str(op), expr), line, col)

    def call_stmt(self, items):
        name, _, args, _ = items
        pos, kw = args if args is not None else ([], {})
        return Node("call", (str(name), pos, kw), name.line, name.column)

    def emit_stmt(self, items):
        kw_emit, name, _, args, _ = items
        pos, kw = args if args is not None else ([], {})
        return Node("emit", [str(name), pos, kw], *_at(kw_emit))

    def args(self, items):
        pos, kw = [], {}
        if len(items) == 1 and type(items[0]) is Node:  # (most calls: one argument)
            pos.append(items[0])
            return pos, kw
        for it in items:
            if isinstance(it, Token):
                continue
            if isinstance(it, tuple) and it and it[0] == "__kw__":
                if it[1] in kw and self.repeated is None:
                    self.repeated = (it[1], it[3])
                kw[it[1]] = it[2]
            else:
                pos.append(it)
        return pos, kw

    def kwarg(self, items):
        name, _, expr = items
        return ("__kw__", str(name), expr, (name.line, name.column))

    def if_stmt(self, items):
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
        return Node("if", [clauses, else_block], *_at(items[0]))

    def repeat_stmt(self, items):
        return Node("repeat", [items[1], items[2]], *_at(items[0]))

    def for_stmt(self, items):
        return Node("for", [str(items[1]), items[3], items[4]], *_at(items[0]))

    def while_stmt(self, items):
        return Node("while", [items[1], items[2]], *_at(items[0]))

    def choose_stmt(self, items):
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
        return Node("choose", [var, options, where, by, label, optional, about], *_at(items[0]))

    def ask_stmt(self, items):
        names, by, i = [], None, 1
        while i < len(items):
            t = items[i]
            if isinstance(t, Token) and t.type == "NAME":
                names.append((str(t), _at(t)))
            elif isinstance(t, Token) and t.type == "BY":
                by = items[i + 1]; i += 1
            i += 1
        return Node("ask", [names, by], *_at(items[0]))

    def _branches(self, kind, items):
        label = str(items[1])
        by = None
        branches = []
        for i, t in enumerate(items):
            if isinstance(t, Token) and t.type == "BY":
                by = items[i + 1]
            elif isinstance(t, tuple) and t and t[0] == "__branch__":
                branches.append(t[1:])
        return Node(kind, [label, by, branches], *_at(items[0]))

    def one_of_stmt(self, items):
        return self._branches("one_of", items)

    def any_order_stmt(self, items):
        return self._branches("any_order", items)

    def branch(self, items):
        name = str(items[0])
        cond = items[2] if len(items) == 4 else None
        return ("__branch__", name, cond, items[-1], _at(items[0]))

    def may_stmt(self, items):
        label = str(items[1])
        by = items[3] if len(items) == 5 else None
        return Node("may", [label, by, items[-1]], *_at(items[0]))

    def return_stmt(self, items):
        return Node("return", [], *_at(items[0]))

    # ---- expressions ------------------------------------------------------
    def number(self, items):
        try:
            value = int(items[0])
        except ValueError as exc:  # more digits than Python converts: reported once the text
            value = 0              # has parsed (a syntax error is reported first)
            self.bad_number = self.bad_number or exc
        return Node("const", (value,), items[0].line, items[0].column)

    def string(self, items):
        t = items[0]
        return Node("const", (str(t)[1:-1],), t.line, t.column)

    def true(self, items):
        return Node("const", [True], *_at(items[0]))

    def false(self, items):
        return Node("const", [False], *_at(items[0]))

    def none(self, items):
        return Node("const", [None], *_at(items[0]))

    def atom(self, items):  # ( expr )
        self.paren[id(items[1])] = (items[1], _at(items[0]))  # (the node kept: its id stays its own)
        return items[1]

    def name(self, items):  # (the most common node: a third of them)
        t = items[0]
        return Node("name", (str(t),), t.line, t.column)

    def list(self, items):
        return Node("list", [[i for i in items if isinstance(i, Node)]], *_at(items[0]))

    def comprehension(self, items):
        exprs = [i for i in items if isinstance(i, Node)]
        var = str(items[3])
        elem, it = exprs[0], exprs[1]
        cond = exprs[2] if len(exprs) > 2 else None
        return Node("comp", [elem, var, it, cond], *_at(items[0]))

    def attr(self, items):
        return Node("attr", (items[0], str(items[2])), *self._start(items[0]))

    def index(self, items):
        return Node("index", (items[0], items[2]), *self._start(items[0]))

    def call(self, items):
        name, _, args, _ = items
        pos, kw = args if args is not None else ([], {})
        return Node("fcall", (str(name), pos, kw), name.line, name.column)

    def _chain(self, kind, items):
        operands = [i for i in items if isinstance(i, Node)]
        ops = [str(i) for i in items if isinstance(i, Token)]
        return Node(kind, [operands, ops], *self._start(items[0]))

    def or_expr(self, items):
        return Node("or", [[i for i in items if isinstance(i, Node)]], *self._start(items[0]))

    def and_expr(self, items):
        return Node("and", [[i for i in items if isinstance(i, Node)]], *self._start(items[0]))

    def not_(self, items):
        return Node("not", [items[1]], *_at(items[0]))

    def comp_op(self, items):
        return str(items[0]) if len(items) == 1 else " ".join(map(str, items))

    def comparison(self, items):
        return Node("cmp", (items[1], items[0], items[2]), *self._start(items[0]))

    def sum(self, items):
        return self._chain("arith", items)

    def product(self, items):
        return self._chain("arith", items)

    def neg(self, items):
        return Node("neg", [items[1]], *_at(items[0]))

    def cond(self, items):
        return Node("cond", [items[1], items[3], items[5]], *_at(items[0]))


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
    node = _parse(text, start)  # (an LALR parse does not recurse, however deep the text)
    # Every node below the root has a token of its own (a keyword, an operator, a bracket...),
    # so a tree is at most one taller than its text is long: only long texts are measured.
    if len(text) >= MAX_DEPTH and height(node) > MAX_DEPTH:
        raise DSLSyntaxError(f"expression nested more than {MAX_DEPTH} levels deep", 1, 1,
                             "split it with let or into functions")
    _note_tree(cache, key, node)  # every accepted tree is kept (written with room to recurse)
    return node


MAX_DEPTH = 500    # the deepest tree the language accepts; every accepted tree compiles and runs


_INNER = frozenset({Node, list, tuple, dict})  # what a tree's parts may hold below them (height)


def height(node) -> int:
    """The height of a tree of Nodes (without recursion, so any tree can be measured)."""
    best = 0
    stack = [(node, 1)]
    pop, push = stack.pop, stack.append
    inner = _INNER
    while stack:
        x, h = pop()
        t = type(x)
        if t is Node:
            if h > best:
                best = h
            h += 1
            parts = x.a
        elif t is dict:  # a call's named arguments
            parts = x.values()
        elif t is list or t is tuple:
            parts = x
        else:
            continue
        for c in parts:
            if type(c) in inner:
                push((c, h))
    return best


def _parse(text: str, start: str) -> Node:
    fast = get_driver()
    rules = _rules()
    with _ONE_PARSE:  # the callbacks keep the parse's own state (_Rules): one parse at a time
        rules.reset()
        node = fast.parse(text, start) if fast is not None else None
        exc = None
        if node is None:  # (Lark's own loop: the error, as Lark words it)
            from lark import UnexpectedInput

            parser = get_parser()
            rules.reset()
            try:
                node = parser.parse(text, start=start)
            except UnexpectedInput as failed:
                exc = failed
        bad, repeated = rules.bad_number, rules.repeated
    if exc is not None:
        from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

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
    if bad is not None:
        raise DSLSyntaxError(f"cannot read a value: {bad}", 1, 1, "numbers have at most a few thousand digits")
    if repeated is not None:
        name, (line, col) = repeated
        raise DSLSyntaxError(f"named argument {name!r} given twice", line, col, "give each named argument once")
    return node


_ONE_PARSE = threading.Lock()


def parse_expr(text: str) -> Node:
    """Parse a single expression (used for conditions and computed values in YAML)."""
    return parse(text, start="expr_only")
