"""The bounds every rule runs within, so no rule file (a stranger's mod included) can hang the
engine or exhaust the machine's memory.

* Steps: at most ``MAX_STEPS`` between two decisions (``engine.vm``: a step is a call of the top
  frame's next statement, or run of statements, e.g. each pass of a loop's body, each procedure
  call, each end of a block).
* Work: every element a rule walks or builds draws on ``st.work`` — each element of a list a
  comprehension walks, each number of a ``range``, each element or character of a list or text
  built by ``+``, ``*`` or ``flatten``, each symbol a cost expands into. ``WORK_LIMIT`` units
  between two decisions (about a second of work at most); the counter restarts when the
  interpreter runs, when legal actions are listed and when an agent evaluates a position.
* Size: a list holds at most ``MAX_LIST`` elements (a list that holds lists: counting theirs,
  a list held twice twice), a text ``MAX_TEXT`` characters, a number ``MAX_BITS`` bits.

Peak memory stays bounded by these: everything a rule builds between two decisions is at most
``WORK_LIMIT`` elements (a few hundred MB in the worst case; far less in practice).
"""
from __future__ import annotations

from .errors import RuleFailure

MAX_STEPS = 200_000
WORK_LIMIT = 5_000_000
MAX_LIST = 100_000
MAX_TEXT = 10_000
MAX_BITS = 256


class BudgetExceeded(RuleFailure):
    """A rule did more work between two decisions than the budget allows."""


def over_budget() -> BudgetExceeded:
    return BudgetExceeded(f"the work budget of {WORK_LIMIT:,} units between two decisions ran out: "
                          "a rule walks or builds lists without end (a comprehension over a range "
                          "inside another?)")


def each(st, xs):
    """The list a comprehension walks, charged to the work budget."""
    try:
        n = len(xs)
    except TypeError:
        from .errors import describe_value

        raise RuleFailure(f"'[... for ... in xs]' needs a list, not {describe_value(xs)}") from None
    w = st.work + n
    st.work = w
    if w > WORK_LIMIT:
        raise over_budget()
    return xs


def charge(st, n: int) -> None:
    w = st.work + n
    st.work = w
    if w > WORK_LIMIT:
        raise over_budget()


def sized(st, v):
    """A list or text just built: within the size limits, and charged to the budget."""
    if isinstance(v, list):
        if len(v) > MAX_LIST:
            raise RuleFailure(f"a list of more than {MAX_LIST:,} elements")
        charge(st, len(v))
    elif isinstance(v, str):
        if len(v) > MAX_TEXT:
            raise RuleFailure(f"a text of more than {MAX_TEXT:,} characters")
        charge(st, len(v))
    elif isinstance(v, int) and v.bit_length() > MAX_BITS:
        raise RuleFailure("a number too large for a rule")
    return v


def nested(st, v):
    """A list just built that may hold lists (a written list, a comprehension, a repeat, a sum):
    at most MAX_LIST elements counting those of the lists inside it, a list held n times n
    times (as a log line, a save or flatten spells it out), charged. Lists of plain values pass
    at the cost of one scan."""
    if list not in map(type, v):
        return v
    total = len(v)
    outer = [v]
    while outer:  # one level deeper at each pass: the lists inside the lists of the level above
        holding = []  # (those of this level that hold lists: a list of plain values has nothing deeper)
        for xs in outer:
            for x in xs:
                if type(x) is list:
                    total += len(x)
                    if total > MAX_LIST:  # (checked at once: the total only grows, and x is not walked)
                        raise RuleFailure(f"a list of more than {MAX_LIST:,} elements, counting those of the "
                                          "lists inside it")
                    if list in map(type, x):
                        holding.append(x)
        outer = holding
    w = st.work + total  # (charge, written in)
    st.work = w
    if w > WORK_LIMIT:
        raise over_budget()
    return v


def add(st, a, b):
    """a + b where either may be a list or a text: the result is sized (checked before it is
    built) and charged."""
    if type(a) is int and type(b) is int:  # (the common cases, in short: two numbers, two lists)
        v = a + b
        if v.bit_length() > MAX_BITS:
            raise RuleFailure("a number too large for a rule")
        return v
    if type(a) is list and type(b) is list:
        n = len(a) + len(b)
        if n > MAX_LIST:
            raise RuleFailure(f"a list of more than {MAX_LIST:,} elements")
        w = st.work + n
        st.work = w
        if w > WORK_LIMIT:
            raise over_budget()
        v = a + b
        return nested(st, v) if list in map(type, v) else v  # (a list of plain values: no call)
    if isinstance(a, (list, str)) and isinstance(b, (list, str)):
        limit = MAX_LIST if isinstance(a, list) else MAX_TEXT
        if len(a) + len(b) > limit:
            raise RuleFailure(f"a {'list' if isinstance(a, list) else 'text'} of more than {limit:,} "
                              f"{'elements' if isinstance(a, list) else 'characters'}")
        charge(st, len(a) + len(b))
        return nested(st, a + b) if isinstance(a, list) else a + b
    v = a + b
    if isinstance(v, int) and v.bit_length() > MAX_BITS:
        raise RuleFailure("a number too large for a rule")
    return v


def mul(st, a, b):
    """a * b: numbers, or a list or text repeated, within the limits (checked before it is built)."""
    if type(b) is int:  # (the common cases, in short: two numbers, a list repeated)
        if type(a) is int:
            v = a * b
            if v.bit_length() > MAX_BITS:
                raise RuleFailure("a number too large for a rule")
            return v
        if type(a) is list:
            if b <= 0:  # (none of it: e.g. [x] * a count that is 0)
                return []
            size = len(a) * b
            if size > MAX_LIST:
                raise RuleFailure(f"a list of more than {MAX_LIST:,} elements")
            w = st.work + size
            st.work = w
            if w > WORK_LIMIT:
                raise over_budget()
            v = a * b
            return nested(st, v) if list in map(type, v) else v
    if isinstance(a, (list, str)) or isinstance(b, (list, str)):
        seq, n = (a, b) if isinstance(a, (list, str)) else (b, a)
        if not isinstance(n, int) or isinstance(n, bool):
            raise RuleFailure("a list or text can only be repeated a number of times")
        size = len(seq) * max(n, 0)
        limit = MAX_LIST if isinstance(seq, list) else MAX_TEXT
        if size > limit:
            raise RuleFailure(f"a {'list' if isinstance(seq, list) else 'text'} of more than {limit:,} "
                              f"{'elements' if isinstance(seq, list) else 'characters'}")
        charge(st, size)
        v = seq * n
        return nested(st, v) if type(v) is list and list in map(type, v) else v
    v = a * b
    if isinstance(v, int) and v.bit_length() > MAX_BITS:
        raise RuleFailure("a number too large for a rule")
    return v


def span(st, a, b) -> list:
    """range(a, b): at most MAX_LIST numbers, charged."""
    n = b - a
    if n > MAX_LIST:
        raise RuleFailure(f"a range of more than {MAX_LIST:,} numbers")
    charge(st, max(n, 0))
    return list(range(a, b))
