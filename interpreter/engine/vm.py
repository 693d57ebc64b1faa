"""The interpreter loop: run frames until the game needs a decision or ends.

A frame is ``[block id, pc, env, aux]``. Each compiled statement advances its frame's
pc or pushes new frames (a branch, a loop body, a procedure, a card's effect, a trigger).
A statement that needs a decision stores it in ``state.pending`` and leaves its pc in
place; applying an action completes that statement and the loop goes on.

After every statement that wrote a channel (zone family, piece kind, variable), the
triggers reading that channel are checked; one that fires pushes its effect, which runs
next, before the interrupted effect continues.
"""
from __future__ import annotations

from ..errors import EngineError
from ..limits import MAX_STEPS


def run(st) -> None:
    stack = st.stack
    blocks = st.rules.blocks
    steps = 0
    st.work = 0
    while stack and st.pending is None:
        fr = stack[-1]
        blk = blocks[fr[0]]
        pc = fr[1]
        if pc >= len(blk):
            stack.pop()
            continue
        try:
            blk[pc](st, fr)
        except EngineError:
            raise
        except Exception as exc:  # a rule failed: say where and what, in the language's terms
            # (a run of statements keeps fr[1] on the one it is carrying out)
            at = fr[1] if 0 <= fr[1] < len(blk) else pc
            raise EngineError(st.rules.failure(st.rules.where(fr[0], at), exc, st)) from None
        if st.dirty:
            if st._memo:
                forget(st, st.dirty)
            check_triggers(st)
        steps += 1
        if steps > MAX_STEPS:
            raise EngineError(f"step budget of {MAX_STEPS} exceeded: a rule loops without asking anything")
    if not stack and st.pending is None and not st.over:
        st.over = True
        st.victory = "none"
        st.say("the game flow ended without a winner")
    st.steps += steps
    p = st.pending
    if p is not None and p["player"] not in st.rules.players:
        where = st.rules.where(stack[-1][0], stack[-1][1]) if stack else "?"
        raise EngineError(f"{where}: a decision for {p['player']!r}, who is not a player "
                          f"(a choice in a trigger needs 'by')")


def forget(st, written: int) -> None:
    """Drop memoised function values that read a channel just written (the memo's keys are
    read masks: codegen.Module.game_function)."""
    memo = st._memo
    for key in tuple(memo):
        if key & written:
            del memo[key]


def _bindings(st, params, env, i=0):
    if i == len(params):
        yield dict(env)
        return
    name, dom = params[i]
    for v in dom(st, env):
        env[name] = v
        yield from _bindings(st, params, env, i + 1)


def check_triggers(st) -> None:
    d = st.dirty
    st.dirty = 0
    if st.over:
        return
    rules = st.rules
    due = rules.triggers_on.get(d)
    if due is None:  # the triggers reading these channels: worked out once per set of channels
        due = rules.triggers_on[d] = tuple(t for t in rules.triggers if t.mask & d)
    if not due:
        return
    # triggers due together run in declaration order: push the later ones first
    stack = st.stack
    before = len(stack)
    for t in due:
        n = len(stack)
        try:
            _check(st, t)
        except EngineError:
            raise
        except Exception as exc:
            raise EngineError(rules.failure(rules.where_src(t.src), exc)) from None
        if len(stack) > n and n > before:
            fired = stack[n:]
            del stack[n:]
            stack[before:before] = fired


def _bound(st, t):
    """[(env, once-key)] for each binding of a trigger's parameters. A trigger whose domains
    read no state but the seats (e.g. players()) has them computed once per seating and kept
    in t.static."""
    if t.static is not None and st.seats in t.static:
        return t.static[st.seats]
    keys = t.keys
    if len(t.params) == 1:  # the common case: one parameter, no generator
        name, dom = t.params[0]
        envs = [{"me": v} if name == "me" else {"me": None, name: v} for v in dom(st, {"me": None})]
        values = [(e[name],) for e in envs]
    else:
        envs = list(_bindings(st, t.params, {"me": None}))
        values = [tuple(e[p] for p, _ in t.params) for e in envs]
    out = []
    for env, vals in zip(envs, values):
        key = keys.get(vals)
        if key is None:
            key = keys[vals] = "@" + t.id + "".join(f":{v}" for v in vals)
        out.append((env, key))
    if t.static_domains:
        if t.static is None:
            t.static = {}
        t.static[st.seats] = out
    return out


def _check(st, t) -> None:
    vars_ = st.vars
    fired_now = []
    for env, key in _bound(st, t):  # conditions only read env; a firing gets its own copy
        fired = vars_.get(key)
        if t.once and fired:
            continue
        if t.cond(st, env):
            if fired:
                continue
            vars_[key] = True
            fired_now.append([t.block, 0, dict(env), None])
        elif fired:  # an edge trigger re-arms when its condition turns false
            vars_[key] = False
    st.stack.extend(reversed(fired_now))  # the first binding (seat order) runs first


def emit(st, name: str, args: dict, me=None) -> None:
    """Run the listeners of an event: game listeners, and abilities of items in active zones
    (their owner is the zone's, or the item's own). One dispatch frame offers the event to
    each listener in turn, in declaration order; a listener's `if` is checked when its turn
    comes, so an earlier listener can change whether a later one applies. An item hears the
    event only if it was in play when the event happened: one that an earlier listener brings
    into play (a token won by the very card just played) hears the events after it."""
    listeners = st.rules.listeners.get(name)
    if listeners:
        zones, where = st.rules.zones, st.where
        present = []
        for i, (item, _, _) in enumerate(listeners):
            if item is not None:
                z = where.get(item)
                if z is not None and zones[z].active:
                    present.append(i)
        st.stack.append([st.rules.dispatch_block, 0, {}, [name, args, me, 0, present]])


def dispatch(st, fr) -> None:
    """The statement of a dispatch frame: run the next listener whose condition holds."""
    name, args, me, i, present = fr[3]
    rules = st.rules
    listeners = rules.listeners[name]
    while i < len(listeners):
        item, cond, block = listeners[i]
        i += 1
        env = dict(args)
        if item is None:  # a game listener acts for the event's `by`, else for the emitter
            env["me"] = args["by"] if "by" in args else me
        else:
            if i - 1 not in present:
                continue
            z = st.where.get(item)
            zd = rules.zones.get(z) if z else None
            if zd is None or not zd.active:
                continue
            env["me"] = zd.owner or rules.item_owner.get(item)
            env["this"] = item
        if cond is None or cond(st, env):
            fr[3] = [name, args, me, i, present]
            st.stack.append([block, 0, env, None])
            return
    fr[1] += 1
