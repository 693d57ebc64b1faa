"""The interpreter loop: run frames until the game needs a decision or ends.

A frame is ``[block id, pc, env, aux]``; the loop calls the statement at the top frame's pc.
Each compiled statement advances its frame's pc or pushes new frames (a branch, a loop body,
a procedure, a card's effect, a trigger); a block's last statement, or its end, takes the
frame away.
A statement that needs a decision stores it in ``state.pending`` and leaves its pc in
place; applying an action completes that statement and the loop goes on.

After every statement that wrote a channel (zone family, piece kind, variable), the
triggers reading that channel are checked; one that fires pushes its effect, which runs
next, before the interrupted effect continues.
"""
from __future__ import annotations

from ..errors import EngineError
from ..limits import MAX_STEPS


_STEPS = range(MAX_STEPS)


def end(st, fr) -> None:
    """The end of every block (codegen.Module.block): the frame is done and leaves the stack
    (a block's last statement takes its frame away itself when it can: codegen END_RUN)."""
    st.stack.pop()


def run(st) -> None:
    stack = st.stack
    blocks = st.rules.blocks
    st.work = 0
    fr = None
    try:
        for _ in _STEPS:  # a step: the top frame's statement at its pc (a run of statements is one)
            if not stack or st.pending is not None:
                break
            fr = stack[-1]
            blocks[fr[0]][fr[1]](st, fr)
            if st.dirty:
                wrote(st)
        else:
            raise EngineError(f"step budget of {MAX_STEPS} exceeded: a rule loops without asking anything")
    except EngineError:
        raise
    except Exception as exc:  # a rule failed: say where and what, in the language's terms
        # (a run of statements keeps fr[1] on the one it is carrying out; past the last one, the
        # last one is named)
        at = min(fr[1], len(blocks[fr[0]]) - 2)
        raise EngineError(st.rules.failure(st.rules.where(fr[0], at), exc, st)) from None
    if not stack and st.pending is None and not st.over:
        st.over = True
        st.victory = "none"
        st.say("the game flow ended without a winner")


def _on_write(rules, written: int) -> tuple:
    """(memo keys made stale, memo keys made stale only at the keys touched, triggers due) by a
    write to a set of channels: worked out once per set of channels. A function reading some
    channels under one key only (codegen: rules.memo_at) keeps its values for other keys when
    only those were written: the writes of piece kinds and zones say the keys they touched
    (st.moved: a move's owner and places, a zone's key)."""
    at, near = rules.memo_at, rules.memo_near
    stale = tuple(k for k, m in rules.memo_masks.items() if m & ~at.get(k, 0) & written)
    keyed = [k for k, m in at.items() if m & written and k not in stale]
    w = (stale, tuple(k for k in keyed if k not in near), tuple(t for t in rules.triggers if t.mask & written),
         tuple(k for k in keyed if k in near))
    if not any(w):
        w = QUIET  # (one object: wrote tells it at a glance)
    rules.on_write[written] = w
    return w


QUIET = ((), (), (), ())  # a write that nothing memoised and no trigger reads (_on_write)


def wrote(st) -> bool:
    """After a statement that wrote channels (st.dirty): forget the memoised values that read
    them and check the triggers reading them. True when a trigger fired: its effect is pushed
    and runs next (a run of statements stops there: codegen.Module.run)."""
    d = st.dirty
    st.dirty = 0
    rules = st.rules
    w = rules.on_write.get(d)
    if w is None:
        w = _on_write(rules, d)
    if w is QUIET:
        if st.moved:
            st.moved = []
        return False
    stale, stale_at, due, stale_near = w
    memo = st._memo
    if memo:
        for key in stale:
            if key in memo:
                del memo[key]
        if stale_at:
            _forget_at(memo, stale_at, st.moved)
        if stale_near:  # the places touched and the regions next to them (rules.adj_in)
            into = st.rules.adj_in.get("", {})
            moved = set(st.moved)
            moved.update(*[into.get(p, ()) for p in st.moved])
            _forget_at(memo, stale_near, moved)
    if st.moved:
        st.moved = []
    return bool(due) and not st.over and fire(st, due)


def _forget_at(memo, keys, places) -> None:
    """Drop the memoised values of functions `keys` kept for any of `places`."""
    for key in keys:
        kept = memo.get(key)
        if kept:
            for p in places:
                if p in kept:
                    del kept[p]


def _bindings(st, params, env, i=0):
    if i == len(params):
        yield dict(env)
        return
    name, dom = params[i]
    for v in dom(st, env):
        env[name] = v
        yield from _bindings(st, params, env, i + 1)


def fire(st, due) -> bool:
    """Check the triggers due and push the effects of those that fire. Each binding of a
    trigger's parameters has a once-key in st.vars: true while its condition holds (an edge
    trigger fires when it turns true, and re-arms when it turns false; a once trigger never
    re-arms). Conditions only read env; a firing gets its own copy."""
    rules = st.rules
    stack = st.stack
    before = len(stack)
    vars_ = st.vars
    for t in due:
        static = t.static
        bound = static.get(st.seats) if static is not None else None
        fired_now = None
        try:
            if bound is None:
                bound = _bound(st, t)
            for env, key in bound:
                fired = vars_.get(key)
                if fired and t.once:
                    continue
                if t.cond(st, env):
                    if fired:
                        continue
                    vars_[key] = True
                    if fired_now is None:
                        fired_now = []
                    fired_now.append([t.block, 0, dict(env), None])
                elif fired:
                    vars_[key] = False
        except EngineError:
            raise
        except Exception as exc:
            raise EngineError(rules.failure(rules.where_src(t.src), exc)) from None
        if fired_now:
            # the first binding (seat order) runs first; triggers due together run in
            # declaration order: the later ones go below the earlier ones
            fired_now.reverse()
            stack[before:before] = fired_now
    return len(stack) != before


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


def emit(st, name: str, args: dict, me=None) -> bool:
    """Run the listeners of an event: game listeners, and abilities of items in active zones
    (their owner is the zone's, or the item's own). One dispatch frame offers the event to
    each listener in turn, in declaration order; a listener's `if` is checked when its turn
    comes, so an earlier listener can change whether a later one applies. An item hears the
    event only if it was in play when the event happened: one that an earlier listener brings
    into play (a token won by the very card just played) hears the events after it.
    The first listener's turn comes at once: True when one applies (its effect, above the
    dispatch frame, runs next); False when none does (nothing was pushed: the emitting
    statement goes on, as it would after the dispatch frame had come and gone)."""
    listeners = st.rules.listeners.get(name)
    if listeners:
        zones, where = st.rules.zones, st.where
        present = []
        heard = False  # by a game listener, or an item in play
        for i, (item, _, _) in enumerate(listeners):
            if item is None:
                heard = True
            else:
                z = where.get(item)
                if z is not None and zones[z].active:
                    present.append(i)
                    heard = True
        if heard:  # the dispatch frame offers the event now: the first listener that applies runs next
            stack = st.stack
            before = len(stack)
            fr = [st.rules.dispatch_block, 0, {}, [name, args, me, 0, present]]
            stack.append(fr)
            dispatch(st, fr)
            return len(stack) > before
    return False


def dispatch(st, fr) -> None:
    """The statement of a dispatch frame: run the next listener whose condition holds."""
    name, args, me, i, present = fr[3]
    rules = st.rules
    listeners = rules.listeners[name]
    while i < len(listeners):
        item, cond, block = listeners[i]
        i += 1
        if item is None:  # a game listener acts for the event's `by`, else for the emitter
            env = dict(args)
            env["me"] = args["by"] if "by" in args else me
        else:
            if i - 1 not in present:
                continue
            z = st.where.get(item)
            zd = rules.zones.get(z) if z else None
            if zd is None or not zd.active:
                continue
            env = dict(args)
            env["me"] = zd.owner or rules.item_owner.get(item)
            env["this"] = item
        try:
            applies = cond is None or cond(st, env)
        except EngineError:
            raise
        except Exception as exc:  # a listener's condition failed: name the listener
            raise EngineError(rules.failure(rules.where(block, 0), exc, st)) from None
        if applies:
            fr[3] = [name, args, me, i, present]
            st.stack.append([block, 0, env, None])
            return
    st.stack.pop()  # every listener had its turn
