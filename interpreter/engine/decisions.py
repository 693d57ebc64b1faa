"""Decisions, one protocol: a statement that needs a player to decide sets ``state.pending``;
``actions(state)`` lists what may be done then, each an ``Action`` with a stable id; ``take``
resumes the rules with the one chosen. The pending decision is plain data (saved with the
game), of four kinds:

* ``ask``     moves offered: ids from the moves' id templates, e.g. ``take:c1_07:play``
* ``choose``  a value among options: ``choose:<label>:<value>`` (``none`` to stop an optional one)
* ``branch``  a branch of one_of, or yes/no of may: ``choose:<label>:<branch>``
* ``order``   the next branch of any_order: ``order:<label>:<branch>``
"""
from __future__ import annotations

from ..errors import EngineError, RuleFailure, describe_value
from ..model.rules import fmt_value


_NO_ARGS = object()  # (new_action: a move without arguments)


class Action:
    """A legal action: ``id`` (stable, readable), ``label`` (for people), ``player``."""

    __slots__ = ("id", "_label", "player", "payload", "_rules")

    def __init__(self, id, label, player, payload, rules=None):
        self.id = id
        self._label = label
        self.player = player
        self.payload = payload
        self._rules = rules

    @property
    def label(self) -> str:
        if self._rules is not None:  # a label is formatted only when someone reads it
            display = self._rules.display
            if self._label is None:  # a move: its label template over its arguments
                name, env = self.payload
                self._label = self._rules.moves[name].label_fmt.format(**{k: display(v) for k, v in env.items()})
            else:  # a choice: "label: value"
                self._label = f"{self._label}: {display(self.payload)}"
            self._rules = None
        return self._label

    def __repr__(self):
        return f"Action({self.id!r})"

    def __eq__(self, other):
        return isinstance(other, Action) and other.id == self.id

    def __hash__(self):
        return hash(self.id)


def new_action(table: dict, key, aid: str, player, payload, rules, args=_NO_ARGS) -> Action:
    """A legal action of a move just built, kept in the move's table by its player (key), then
    (a move with arguments) by their values (args: one, or a tuple of them), when they are all
    texts (items, regions, players: 1 and true would be one key), up to a bound (the table
    lives as long as the rules). An Action is never changed once built (its label is written
    out once, the same each time), so the next listing reuses it."""
    a = Action(aid, None, player, payload, rules)
    if type(key) is not str:
        return a
    if args is _NO_ARGS:
        if len(table) < 100_000:
            table[key] = a
    elif type(args) is str or type(args) is tuple and all(type(k) is str for k in args):
        kept = table.get(key)
        if kept is None:
            kept = table[key] = {}
        if len(kept) < 100_000:
            kept[args] = a
    return a


def same_id(aid, m):
    raise EngineError(f"two legal actions share the id {aid!r}: give move '{m.name}' an id naming all "
                      "its arguments")


# ------------------------------------------------------------------ statements that decide
def decider(st, env, by):
    """Who takes a decision: `by`'s player, or the frame's `me` (seated_for)."""
    p = by(st, env) if by is not None else env.get("me")
    return p if p in st.seats else seated_for(st, p)


def seated_for(st, p):
    """Who decides for player p, who is not seated: a decision owed to a team of this seating
    that is no seat itself goes to the seated member the game's team_decider names (a side
    played by several seats decides through one of them at a time)."""
    td = st.rules.team_decider
    members = None if td is None else st.rules.teams_of(st.seats).get(p)
    if members is None:
        if p not in st.rules.players:
            raise RuleFailure(f"a decision for {describe_value(p)}, who is not a player (a choice in a trigger "
                              "needs 'by')")
        return p
    q = td(st, {"t": p})
    if q not in members:
        raise RuleFailure(f"team_decider gave {describe_value(q)} for team {p}, not one of its seats "
                          f"({', '.join(members)})")
    return q


def ask(st, fr, moves, by):
    st.pending = {"type": "ask", "player": decider(st, fr[2], by), "moves": moves}


def choose(st, fr, var, options, where, by, label, optional, about):
    """choose var in options [where cond] [by p] [label l] [about x] [optional]: with one option
    (and not optional) it is taken without asking; with none, var is none."""
    env = fr[2]
    opts = list(dict.fromkeys(options(st, env)))
    if where is not None:
        keep = []
        for o in opts:
            env[var] = o
            if where(st, env):
                keep.append(o)
        opts = keep
    if (not optional and len(opts) <= 1) or (optional and not opts):
        env[var] = opts[0] if opts and not optional else None
        fr[1] += 1
        return
    st.pending = {"type": "choose", "player": decider(st, env, by), "label": label,
                  "var": var, "options": opts, "optional": optional}
    if about is not None:  # what the choice is about: shown in its labels, not in its ids
        st.pending["about"] = about(st, env)


def branches(st, fr, kind, label, by, table, offered):
    """one_of / may: the branches whose condition holds (offered) are offered (one alone is
    taken). any_order: each branch once, in the order the player picks (the ones left live in
    aux: offered tests only theirs). table: [(branch, block or None)]."""
    env = fr[2]
    if kind == "any_order":
        if fr[3] is None:
            fr[3] = [n for n, b in table]
        left = fr[3]
        opts = offered(st, env, left)  # (the conditions of branches already taken are not tested)
        if not opts:
            fr[3] = None
            fr[1] += 1
            return
        if len(opts) == 1:
            left.remove(opts[0])
            st.stack.append([next(b for n, b in table if n == opts[0]), 0, env, None])
            return
        st.pending = {"type": "order", "player": decider(st, env, by),
                      "label": label, "options": opts}
        return
    opts = offered(st, env)
    if kind == "one_of" and len(opts) <= 1:
        fr[1] += 1
        if opts:
            for n, b in table:
                if n == opts[0] and b is not None:
                    st.stack.append([b, 0, env, None])
        return
    st.pending = {"type": "branch", "player": decider(st, env, by),
                  "label": label, "options": opts}


# ------------------------------------------------------------------ listing and taking
def actions(st) -> dict:
    """{id: Action} for the pending decision (empty when the game is over)."""
    p = st.pending
    out = {}
    if p is None or st.over:
        return out
    st.work = 0  # listing actions has a work budget of its own
    player = p["player"]
    t = p["type"]
    rules = st.rules
    if t == "ask":
        for name in p["moves"]:
            m = rules.moves[name]
            try:
                m.enumerate(st, player, out)
            except EngineError:
                raise
            except Exception as exc:  # a move's arguments or condition failed
                raise EngineError(rules.failure(rules.where_src(m.src), exc)) from None
    elif t == "choose":
        label = p["label"]
        text = label if p.get("about") is None else f"{label} ({rules.display(p['about'])})"
        made = _made(rules, ("choose", label, text, player))  # an Action never changes once built: reused
        for v in p["options"]:
            if type(v) is str:  # (an item, a region, a player...: 1 and True would be one key)
                a = made.get(v)
                if a is None:
                    a = Action(f"choose:{label}:{v}", text, player, v, rules)
                    _keep(rules, made, v, a)
            else:
                a = Action(f"choose:{label}:{fmt_value(v)}", text, player, v, rules)
            out[a.id] = a
        if p["optional"]:
            aid = f"choose:{label}:none"
            out[aid] = Action(aid, f"{text}: none (stop)", player, None)
    elif t in ("branch", "order"):  # a branch's name is a text
        label = p["label"]
        made = _made(rules, (t, label, player))
        for b in p["options"]:
            a = made.get(b)
            if a is None:
                if t == "branch":
                    a = Action(f"choose:{label}:{b}", f"{label}: {b}", player, b)
                else:
                    a = Action(f"order:{label}:{b}", f"{label}: {b} next", player, b)
                _keep(rules, made, b, a)
            out[a.id] = a
    return out


def _made(rules, key) -> dict:
    """The Actions built for the options of one decision (("choose", label, text, player) or
    (branch or order, label, player)), by option: kept with the rules while there is room."""
    made = rules.choice_actions.get(key)
    if made is None:
        made = {}
        if rules.choice_room > 0:
            rules.choice_room -= 1
            rules.choice_actions[key] = made
    return made


def _keep(rules, made: dict, option, a) -> None:
    if rules.choice_room > 0:  # (a bound on them all: texts shown in a choice may vary without end)
        rules.choice_room -= 1
        made[option] = a


def take(st, a: Action) -> None:
    """Resume the rules with the chosen action (it is legal: listed by ``actions``)."""
    p = st.pending
    t = p["type"]
    fr = st.stack[-1]
    rules = st.rules
    st._legal = None
    st.pending = None
    if st._shared:  # (st.record and st.say, written in)
        st._own()
    st.history.append(a.id)
    if t == "ask":
        name, binding = a.payload
        fr[1] += 1
        st.log.append((a.player, name, binding))  # written out when read (Rules.log_entry)
        st.stack.append([rules.moves[name].block, 0, dict(binding), None])
    elif t == "choose":
        fr[2][p["var"]] = a.payload
        fr[1] += 1
    elif t == "branch":
        fr[1] += 1
        stmt = rules.statement(fr[0], fr[1] - 1)
        if stmt.logged:  # a one_of's branch is a public choice, like a move
            text = rules.choice_log.get((p["label"], a.payload))  # (display: choices:)
            if text is None:
                st.say((f"{{}}: {p['label']}: {a.payload}", (a.player,)))  # (the player by name when read)
            elif text:
                st.say((text, (a.player,)))  # written out when read: {} is the player's name
        block = stmt.branches.get(a.payload)
        if block is not None:
            st.stack.append([block, 0, fr[2], None])
    elif t == "order":
        stmt = rules.statement(fr[0], fr[1])
        fr[3].remove(a.payload)
        st.stack.append([stmt.branches[a.payload], 0, fr[2], None])
