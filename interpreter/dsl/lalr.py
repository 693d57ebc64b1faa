"""A lean loop over Lark's LALR tables and lexer patterns: the parse Lark does, in 40% of the time.

Lark makes the tables, the token patterns and the tree callbacks; this loop only drives them.
For each token, Lark's own loops call a lexer object through a generator, build the token in
two calls and keep a line counter object (and do all that for each blank and comment too);
for each reduction they hash the grammar rule in Python to find its callback and compare it
with the end state. Here one match is the blanks and the token after them
(``_token_pattern``), the token is made and counted inline, a rule is a number, and a run of
unit reductions that build nothing (``?product: unary``, an atom climbing the precedence
levels: most reductions in effect texts) is one lookup that changes the state on top of the
stack.

A text it cannot parse is handed back (``None``): the caller parses it again with Lark, which
raises the error with its position and expected tokens exactly as it always has. A test
parses every effect text of every game, and random token soup, both ways and compares them.

What the loop needs of Lark is plain data (``tables``: the parse table, the token patterns,
the keywords and, for each grammar rule, how its value is built), kept in
``grammar/effects.driver`` beside Lark's own tables. A first load parses from it without
importing Lark, which is needed only to word a syntax error.
"""
from __future__ import annotations

import re


class Token(str):
    """A token as Lark makes one, made without Lark: its text, with its type and where it
    begins (all the tree builder reads of it; a driver made from Lark's parser gives Lark's
    own tokens, with every position)."""

    __slots__ = ("type", "line", "column")

    def __repr__(self):
        return f"Token({self.type!r}, {str(self)!r})"


class _Inner:
    """The value of a rule Lark makes for a repetition (``__block_star_0``): its parts, which
    the rule around it takes in (what a Lark Tree holds for it)."""

    __slots__ = ("data", "children")

    def __init__(self, data, children):
        self.data, self.children = data, children


class LALRDriver:
    """Parses with an LALR parser's tables: ``parser.parse``'s result for a text it accepts,
    None where Lark would raise. Made from plain tables (``_read_lark``, saved) and the tree
    builder's callbacks (``from_data``), or from a Lark parser itself (``from_lark``)."""

    def __init__(self, data: dict, callbacks: list, token_callbacks: dict, lexer_callbacks: dict, token=None):
        if lexer_callbacks:  # (the lexer calls nothing but its keywords here: Lark's own loop lexes others)
            raise TypeError("the LALR driver lexes without callbacks")
        self.token = token  # (None: a lean Token)
        self.start = dict(data["start"])
        self.end = dict(data["end"])
        # each state's actions by symbol: a state number for a shift (or a goto after a
        # reduction), ~rule number for a reduction; by state number (a list: faster than a dict)
        self.actions = [data["actions"].get(state) for state in range(max(data["actions"]) + 1)]
        # rule number -> (its length, its origin, its callback or None for a unit reduction)
        self.rules = [(n, origin, cb) for (n, origin, _), cb in zip(data["rules"], callbacks)]
        self.scan = (*_token_pattern(data), data["keywords"], frozenset(data["newline"]))
        self.token_callbacks = token_callbacks or None
        self.climbs: dict = {start: {} for start in self.start}  # _climb's answers, per start symbol

    @classmethod
    def from_data(cls, data: dict, transformer) -> "LALRDriver":
        """The driver of saved tables, building values with the transformer's methods (as Lark
        would with it as its transformer=)."""
        return cls(data, [_callback(spec, transformer) for _, _, spec in data["rules"]],  # (ValueError: not savable)
                   {k: _callback(spec, transformer) for k, spec in data["token_rules"].items()}, {})

    @classmethod
    def from_lark(cls, lark) -> "LALRDriver":
        """The driver of a Lark LALR parser, with its own callbacks (a Lark whose insides
        differ makes it raise TypeError or AttributeError: Lark's own loop parses then)."""
        data, callbacks, token_callbacks, lexer_callbacks = _read_lark(lark)
        from lark.lexer import Token as LarkToken

        return cls(data, callbacks, token_callbacks, lexer_callbacks, LarkToken._future_new)

    def _climb(self, below: int, top: int, kind: str, end: int) -> int:
        """The state on top after the unit reductions that the token type calls for in state
        top over state below. (A unit reduction pops one state and pushes one: the state below
        stays, so the climb depends on these three alone, and the grammar has few of them.)"""
        actions, rules = self.actions, self.rules
        while True:
            a = actions[top].get(kind)
            if a is None or a >= 0 or rules[~a][2] is not None:
                return top
            top = actions[below][rules[~a][1]]
            if kind == "$END" and top == end:  # (the text is whole: parse's loop stops here)
                return top

    def parse(self, text: str, start: str):
        """The value Lark's parse gives text, or None when Lark would raise an error."""
        actions, rules, tcb, new_token = self.actions, self.rules, self.token_callbacks, self.token
        tokens, literals, keywords, newline = self.scan
        end = self.end.get(start)
        if end is None:  # (not a start symbol of the grammar: Lark says so)
            return None
        climbs = self.climbs[start]
        top = self.start[start]  # (the state on top of the stack)
        states = [top]
        values: list = []
        new_str = str.__new__
        size, line, line_start = len(text), 1, 0
        nl = text.find("\n")  # the first line break not yet counted (size: none)
        if nl < 0:
            nl = size
        try:  # (a KeyError: no action for this token here, a syntax error: Lark words it)
            # each match is the ignored text before a token, then the token (the last: none)
            for m in tokens(text):
                # ---- the next token (as Lark's contextual lexer reads it), or the end
                kind = m.lastgroup
                if kind is None:
                    if m.end() < size:
                        return None  # no token here
                    token, kind = None, "$END"
                else:
                    value = m.group(kind)
                    if kind[0] == "_":  # (an operator or a bracket)
                        kind = literals[value]
                    stop = m.end()
                    pos = stop - len(value)
                    while nl < pos:
                        line += 1
                        line_start = nl + 1
                        nl = text.find("\n", line_start)
                        if nl < 0:
                            nl = size
                    if kind in keywords:  # a name that is a keyword the parser takes here is that keyword
                        word = keywords[kind].get(value)
                        if word is not None and word in actions[top]:
                            kind = word
                    if new_token is None:
                        token = new_str(Token, value)
                        token.type, token.line, token.column = kind, line, pos - line_start + 1
                    else:
                        token = _lark_token(new_token, kind, value, pos, line, line_start, kind in newline)
                # ---- reduce as the token says, then shift it
                while True:
                    a = actions[top][kind]
                    if a >= 0:  # shift
                        if token is None:
                            return None
                        states.append(a)
                        top = a
                        values.append(token if tcb is None or kind not in tcb else tcb[kind](token))
                        break
                    n, origin, cb = rules[~a]
                    if cb is None:  # unit reductions: the value stays, the state on top climbs
                        key = (states[-2], top, kind)
                        top = climbs.get(key)
                        if top is None:
                            top = climbs[key] = self._climb(*key, end)
                        states[-1] = top
                    elif n == 1:  # (a third of the reductions: an atom, a name) in place
                        values[-1] = cb([values[-1]])
                        states[-1] = top = actions[states[-2]][origin]
                    else:
                        if n:
                            s = values[-n:]
                            del values[-n:]
                            del states[-n:]
                        else:
                            s = []
                        values.append(cb(s))
                        top = actions[states[-1]][origin]
                        states.append(top)
                    if token is None and top == end:
                        return values[-1]
        except KeyError:
            pass
        return None


def _token_pattern(data):
    """(finditer of one pattern matching the ignored text (blanks, comments) before a token,
    then the token, in a group named after its type; none at the end of the text or where no
    token begins: one match a token, where Lark matches each blank and comment too; the type
    of each text its literal terminals spell). The terminals are tried in Lark's order; a run
    of literal ones (operators, brackets) is one group of plain alternatives, which the regex
    engine skips by their first character, where it enters every named group. (An ignored
    terminal never begins where another may: the grammar's are blanks, '#' comments and ';'.)"""
    ignore = set(data["ignore"])
    skip = "|".join(p for name, p, _ in data["terminals"] if name in ignore)
    groups, run, literals = [], [], {}
    for name, p, text in data["terminals"] + [("", "", None)]:
        if name in ignore:
            continue
        if text is not None:
            run.append(p)
            literals[text] = name
            continue
        if run:
            groups.append(f"(?P<_{len(groups)}>{'|'.join(run)})")
            run = []
        if name:
            groups.append(f"(?P<{name}>{p})")
    return re.compile(f"(?:{skip})*(?:{'|'.join(groups)})?", data["flags"]).finditer, literals


def _lark_token(new_token, kind, value, pos, line, line_start, may_break):
    """Lark's own token, with every position (a driver made from Lark's parser)."""
    end_line, end_column = line, pos + len(value) - line_start + 1
    if may_break and "\n" in value:
        end_line += value.count("\n")
        end_column = len(value) - value.rindex("\n")
    return new_token(kind, value, pos, line, pos - line_start + 1, end_line, end_column, pos + len(value))


def _read_lark(lark) -> tuple:
    """(the tables as plain data, each rule's callback, the terminals' callbacks, the lexer's
    callbacks other than keywords) of a Lark LALR parser. The data's "rules" hold how each
    rule's value is built (_spec), or None where Lark builds it in a way not known here (such
    data is not saved)."""
    from lark.lexer import ContextualLexer
    from lark.parse_tree_builder import ExpandSingleChild
    from lark.parsers.lalr_analysis import Shift

    frontend = lark.parser
    if not isinstance(frontend.lexer, ContextualLexer):
        raise TypeError("the LALR driver needs Lark's contextual lexer")
    lexer = frontend.lexer.root_lexer  # (one lexer over every terminal: a keyword is taken where the parser takes it)
    scanner = lexer.scanner  # (made on first use, with the callbacks)
    terminals = [(str(t.name), t.pattern.to_regexp(), str(t.pattern.value) if t.pattern.type == "str"
                  and not t.pattern.flags else None) for t in scanner.terminals]
    lexer_callbacks, keywords = {}, {}
    for kind, cb in lexer.callback.items():
        words = _keywords(cb)
        if words is None:
            lexer_callbacks[kind] = cb
        else:
            keywords[str(kind)] = words
    inner = frontend.parser.parser  # (LALR_Parser -> _Parser: the tables and callbacks)
    table, all_callbacks = inner.parse_table, inner.callbacks
    transformer = getattr(lark.options, "transformer", None)
    numbers: dict = {}
    rules, callbacks, actions = [], [], {}
    for state, acts in table.states.items():
        if type(state) is not int or state < 0:
            raise TypeError("the LALR driver needs numbered states")
        row = {}
        for symbol, (action, arg) in acts.items():
            symbol = str(symbol)  # (plain strings: Lark's names may be its tokens)
            if action is Shift:
                row[symbol] = arg
                continue
            n = numbers.get(arg)
            if n is None:
                n = numbers[arg] = len(rules)
                cb = all_callbacks[arg]
                if type(cb) is ExpandSingleChild and len(arg.expansion) == 1:
                    cb = None  # (a unit reduction: it builds nothing)
                callbacks.append(cb)
                rules.append((len(arg.expansion), str(arg.origin.name), ("unit",) if cb is None else _spec(cb, transformer)))
            row[symbol] = ~n
        actions[state] = row
    token_callbacks = {k: v for k, v in all_callbacks.items() if isinstance(k, str)}
    data = {"start": {str(k): v for k, v in table.start_states.items()},
            "end": {str(k): v for k, v in table.end_states.items()}, "actions": actions, "rules": rules,
            "terminals": terminals, "flags": scanner.g_regex_flags, "keywords": keywords, "ignore": sorted(map(str, lexer.ignore_types)),
            "newline": sorted(map(str, lexer.newline_types)), "lexer_callbacks": sorted(map(str, lexer_callbacks)),
            "token_rules": {str(k): _spec(v, transformer) for k, v in token_callbacks.items()}}
    return data, callbacks, token_callbacks, lexer_callbacks


def savable(data: dict) -> bool:
    """Whether tables hold, for every rule, how its value is built (from_data can use them)."""
    return not data["lexer_callbacks"] and all(spec is not None for _, _, spec in data["rules"]) and \
        all(spec is not None for spec in data["token_rules"].values())


def _spec(cb, transformer):
    """How a Lark tree-builder callback builds a rule's value, as plain data; None for one not
    known here. ("rule", name): the transformer's method; ("inner", name): the parts of a
    repetition; ("single", spec): one part stands for itself; ("pick", parts, spec) and
    ("pick_none", parts, nones, spec): the parts kept (and those taken in), as Lark's
    ChildFilterLALR_NoPlaceholders and ChildFilterLALR keep them."""
    from functools import partial

    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild
    from lark.tree import Tree

    t = type(cb)
    if t is partial and cb.func is Tree and len(cb.args) == 1 and not cb.keywords:
        return ("inner", str(cb.args[0]))
    if t is ExpandSingleChild:
        inner = _spec(cb.node_builder, transformer)
        return None if inner is None else ("single", inner)
    if t is ChildFilterLALR_NoPlaceholders:
        inner = _spec(cb.node_builder, transformer)
        return None if inner is None else ("pick", [tuple(x) for x in cb.to_include], inner)
    if t is ChildFilterLALR:
        inner = _spec(cb.node_builder, transformer)
        return None if inner is None else ("pick_none", [tuple(x) for x in cb.to_include], cb.append_none, inner)
    name = getattr(cb, "__name__", None)
    if transformer is not None and getattr(cb, "__self__", None) is transformer and getattr(transformer, name, None) == cb:
        return ("rule", str(name))
    return None


def _callback(spec, transformer):
    """The callable a spec (_spec) describes (None for a unit reduction)."""
    if spec is None:
        raise ValueError("the tables do not say how a rule's value is built")
    kind = spec[0]
    if kind == "unit":
        return None
    if kind == "rule":
        return getattr(transformer, spec[1])
    if kind == "inner":
        name = spec[1]
        return lambda children: _Inner(name, children)
    inner = _callback(spec[-1], transformer)
    if kind == "single":
        return lambda children: children[0] if len(children) == 1 else inner(children)
    if kind == "pick":
        parts = spec[1]

        def pick(children):
            kept = []
            for i, take_in in parts:
                if take_in:
                    if kept:
                        kept += children[i].children
                    else:  # (as Lark: the repetition's own list, for left recursion)
                        kept = children[i].children
                else:
                    kept.append(children[i])
            return inner(kept)
        return pick
    if kind == "pick_none":
        parts, nones = spec[1], spec[2]

        def pick_none(children):
            kept = []
            for i, take_in, add_none in parts:
                if add_none:
                    kept += [None] * add_none
                if take_in:
                    if kept:
                        kept += children[i].children
                    else:
                        kept = children[i].children
                else:
                    kept.append(children[i])
            if nones:
                kept += [None] * nones
            return inner(kept)
        return pick_none
    raise ValueError(f"unknown callback {kind!r}")


def _keywords(callback) -> dict | None:
    """A Lark lexer callback that gives a name the type of the keyword it spells (an
    UnlessCallback over plain strings) as a table: the keyword's text -> its type. None for
    any other callback (it is called as Lark calls it)."""
    from lark.lexer import UnlessCallback

    if type(callback) is not UnlessCallback:
        return None
    scanner = callback.scanner  # (it answers whether a whole name is one of its terminals)
    if scanner.g_regex_flags:
        return None
    words: dict = {}
    for t in scanner.terminals:
        if t.pattern.type != "str" or t.pattern.flags:
            return None
        words.setdefault(str(t.pattern.value), str(t.name))
    return words
