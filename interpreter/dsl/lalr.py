"""A lean loop over Lark's LALR tables and lexer patterns: the parse Lark does, in 40% of the time.

Lark makes the tables, the token patterns and the tree callbacks; this loop only drives them.
For each token, Lark's own loops call a lexer object through a generator, build the token in
two calls and keep a line counter object; for each reduction they hash the grammar rule in
Python to find its callback and compare it with the end state. Here the token is matched and
counted inline, a rule is a number, and a run of unit reductions that build nothing
(``?product: unary``, an atom climbing the precedence levels: most reductions in effect
texts) is one lookup that changes the state on top of the stack.

A text it cannot parse is handed back (``None``): the caller parses it again with Lark, which
raises the error with its position and expected tokens exactly as it always has. A test
parses every effect text of every game, and random token soup, both ways and compares them.
"""
from __future__ import annotations


class LALRDriver:
    """Parses with a Lark LALR parser's tables, lexers and callbacks: ``parser.parse``'s result
    for a text it accepts, None where Lark would raise. Made from Lark's insides (the
    contextual lexer's per-state lexers, the parse table): a Lark whose insides differ makes
    it raise TypeError or AttributeError, and the caller keeps to Lark's own loop."""

    def __init__(self, lark):
        from lark.lexer import ContextualLexer, Token
        from lark.parse_tree_builder import ExpandSingleChild
        from lark.parsers.lalr_analysis import Shift

        frontend = lark.parser
        lexer = frontend.lexer
        if not isinstance(lexer, ContextualLexer):
            raise TypeError("the LALR driver needs Lark's contextual lexer")
        self.token = Token._future_new  # (Token(...) without its check for an old keyword)
        self.scan = _scan(lexer.root_lexer)  # (a Lark without these parts fails here)
        inner = frontend.parser.parser  # (LALR_Parser -> _Parser: the tables and callbacks)
        table, callbacks = inner.parse_table, inner.callbacks
        self.start = dict(table.start_states)
        self.end = dict(table.end_states)
        # each state's actions by symbol: a state number for a shift (or a goto after a
        # reduction), ~rule number for a reduction
        numbers: dict = {}
        self.rules: list = []  # rule number -> (its length, its origin, its callback or None)
        self.actions: dict = {}
        for state, acts in table.states.items():
            row = {}
            for symbol, (action, arg) in acts.items():
                if action is Shift:
                    row[symbol] = arg
                    continue
                n = numbers.get(arg)
                if n is None:
                    n = numbers[arg] = len(self.rules)
                    cb = callbacks[arg]
                    unit = type(cb) is ExpandSingleChild and len(arg.expansion) == 1
                    self.rules.append((len(arg.expansion), arg.origin.name, None if unit else cb))
                row[symbol] = ~n
            self.actions[state] = row
        if not all(type(s) is int and s >= 0 for s in self.actions):
            raise TypeError("the LALR driver needs numbered states")
        self.token_callbacks = {k: v for k, v in callbacks.items() if isinstance(k, str)}
        self.climbs: dict = {start: {} for start in self.start}  # _climb's answers, per start symbol

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
        patterns, callbacks, keywords, ignore, newline = self.scan
        end = self.end.get(start)
        if end is None:  # (not a start symbol of the grammar: Lark says so)
            return None
        climbs = self.climbs[start]
        states = [self.start[start]]
        values: list = []
        pos, size, line, line_start = 0, len(text), 1, 0
        while True:
            # ---- the next token (as Lark's contextual lexer reads it), or the end
            while pos < size:
                for p in patterns:
                    m = p.match(text, pos)
                    if m is not None:
                        break
                else:
                    return None  # no token of this state's lexer here
                value, kind = m.group(), m.lastgroup
                start_pos, start_line, column = pos, line, pos - line_start + 1
                if kind in newline:
                    breaks = value.count("\n")
                    if breaks:
                        line += breaks
                        line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                skipped = kind in ignore
                if skipped and kind not in callbacks:
                    continue
                if kind in keywords:  # a name that is a keyword the parser takes here is that keyword
                    word = keywords[kind].get(value)
                    if word is not None and word in actions[states[-1]]:
                        kind = word
                token = new_token(kind, value, start_pos, start_line, column, line, pos - line_start + 1, pos)
                if kind in callbacks:
                    token = callbacks[kind](token)
                if skipped:
                    token = None
                    continue
                kind = token.type
                break
            else:
                token, kind = None, "$END"
            # ---- reduce as the token says, then shift it
            while True:
                a = actions[states[-1]].get(kind)
                if a is None:
                    return None
                if a >= 0:  # shift
                    if token is None:
                        return None
                    states.append(a)
                    values.append(tcb[kind](token) if kind in tcb else token)
                    break
                n, origin, cb = rules[~a]
                if cb is None:  # unit reductions: the value stays, the state on top climbs
                    key = (states[-2], states[-1], kind)
                    top = climbs.get(key)
                    if top is None:
                        top = climbs[key] = self._climb(*key, end)
                    states[-1] = top
                else:
                    if n:
                        s = values[-n:]
                        del values[-n:]
                        del states[-n:]
                    else:
                        s = []
                    values.append(cb(s))
                    states.append(actions[states[-1]][origin])
                if token is None and states[-1] == end:
                    return values[-1]


def _scan(lexer) -> tuple:
    """What a Lark lexer over every terminal matches: (its patterns, tried in order; callbacks
    by token type; keyword tables by token type (_keywords); the types skipped; the types that
    may hold a line break)."""
    patterns = tuple(lexer.scanner._mres)  # (made on first use, with the callbacks)
    callbacks, keywords = {}, {}
    for kind, cb in lexer.callback.items():
        words = _keywords(cb)
        if words is None:
            callbacks[kind] = cb
        else:
            keywords[kind] = words
    return patterns, callbacks, keywords, frozenset(lexer.ignore_types), frozenset(lexer.newline_types)


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
        words.setdefault(t.pattern.value, t.name)
    return words
