"""What the generated code of a game calls while it runs: reading zones and lists, indexing, the
statements that push frames (loops, procedure calls, events, returns). Settling after a write
(forgetting memoised values, checking triggers) is ``vm.wrote``; the statements that wait for a
decision are in ``decisions.py``; the primitives in ``primitives.py``.

A frame is ``[block id, pc, env, aux]``; a statement is ``s(st, fr)``: it advances ``fr[1]`` or
pushes frames (``vm.run`` runs the top frame's next statement).
"""
from __future__ import annotations

from ..errors import EngineError, RuleFailure, describe_value
from ..limits import add, each, mul, nested  # noqa: F401 (names the generated code uses)

MISSING = object()
_LIST = object()  # marks a list in a memo key (frozen): no value of the rules equals it
SHORT = 64


def frozen(key):
    """A memo key for arguments that hold short lists (codegen.Module.game_function): each
    list as a tuple of its elements marked as a list, so [a, b] is a key of its own. None (no
    key: the value is worked out every time) for a map, a list in a list, or a list of more
    than SHORT elements (a memo keeps its keys until a write it reads)."""
    if type(key) is list:
        if len(key) > SHORT:
            return None
        k = (_LIST, tuple(key))
    elif type(key) is tuple:  # the arguments (more than one)
        k = []
        for x in key:
            if type(x) is list:
                if len(x) > SHORT:
                    return None
                x = (_LIST, tuple(x))
            k.append(x)
        k = tuple(k)
    else:  # a map
        return None
    try:
        hash(k)
    except TypeError:  # a list in a list, or a map
        return None
    return k


def items(st, z):
    """A zone's items as a list (empty tableau slots skipped)."""
    if z is None:
        return []
    lst = st.zones[z]
    return [i for i in lst if i is not None] if st.rules.zones[z].tableau else lst


def seq(st, v):
    """A value used as a list whose type is known only at run time: a zone id means the zone's
    items; none means empty; anything else is taken as it is."""
    if isinstance(v, str):
        return items(st, v) if v in st.rules.zones else [v]
    return v if v is not None else []


def index(b, k):
    """xs[i] of a list (an error past its end), m[k] of a map (0 for a missing key)."""
    if isinstance(b, dict):
        return b.get(k, 0)
    if isinstance(b, list):
        if not isinstance(k, int) or isinstance(k, bool):
            raise RuleFailure(f"a list index must be a number, not {describe_value(k)}")
        if -len(b) <= k < len(b):
            return b[k]
        raise RuleFailure(f"index {k} is past the end of a list of {len(b)}"
                          if b else f"index {k} of an empty list")
    if b is None:
        raise RuleFailure(f"[{describe_value(k)}] of none: there is no list here")
    raise RuleFailure(f"[...] needs a list or a map, not {describe_value(b)}")


def fail(st, block: int, at: int, exc: Exception):
    """A statement written into its parent's code (a branch body of one simple statement:
    codegen.Module.inline) failed: say where, in the words the interpreter uses (vm.run)."""
    if isinstance(exc, EngineError):
        raise exc
    raise EngineError(st.rules.failure(st.rules.where(block, at), exc, st)) from None


def key_error(family, k):
    return RuleFailure(f"{describe_value(k)} is not a key of '{family}'")


# ------------------------------------------------------------------ statements that push frames
def skip(st, fr):
    fr[1] += 1


def repeat(st, fr, n, body):
    """repeat n { body }: the count lives in the frame's aux."""
    if fr[3] is None:
        fr[3] = int(n(st, fr[2]) or 0)
    if fr[3] > 0:
        fr[3] -= 1
        st.stack.append([body, 0, fr[2], None])
    else:
        fr[3] = None
        fr[1] += 1


def for_each(st, fr, var, source, body):
    """for var in source { body }: the list and the position live in the frame's aux."""
    env = fr[2]
    if fr[3] is None:
        fr[3] = [list(source(st, env)), 0]
    lst, i = fr[3]
    if i < len(lst):
        fr[3][1] = i + 1
        env[var] = lst[i]
        st.stack.append([body, 0, env, None])
    else:
        fr[3] = None
        fr[1] += 1


def ret(st, fr):
    """return: leave the procedure (every frame sharing its env)."""
    env = fr[2]
    stack = st.stack
    while stack and stack[-1][2] is env:
        stack.pop()
