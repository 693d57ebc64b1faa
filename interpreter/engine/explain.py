"""Why an action is not legal, in the rules' own terms.

``explain(state, text, viewer)`` takes an action id (``take:c1_04:play``) or words naming an
action, finds the move (or the choice) it belongs to, and says what stops it:

* the decision is someone else's, or the game is asking something else now;
* an argument is not among the values the move's ``args:`` expression allows;
* a part of the move's ``if:`` is false: the condition is split into its ``and`` parts and the
  first false one is reported, with the values of both sides of a comparison.

It cites the rule: the file and line of the move and the comment lines written just above it
(the rule files cite their rulebook section there), and the comments above each game function
the failing part calls. Values that would name an item hidden from the viewer are shown as
"(hidden)". Nothing here knows a game.
"""
from __future__ import annotations

import re

from ..model.rules import fmt_value

def _at_top(text: str):
    """The indexes of text standing at bracket depth 0, outside quotes."""
    depth, quote = 0, None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0:
            yield i


def _word_at(text: str, word: str, i: int) -> bool:
    """Whether `word` stands at i as a whole word."""
    j = i + len(word)
    return text.startswith(word, i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) \
        and (j >= len(text) or not (text[j].isalnum() or text[j] == "_"))


def _split_top(text: str, word: str) -> list[str]:
    """Split text at a keyword standing at bracket depth 0 (outside quotes)."""
    parts, start = [], 0
    for i in _at_top(text):
        if i >= start and _word_at(text, word, i):
            parts.append(text[start:i])
            start = i + len(word)
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _split_cmp(text: str):
    """(left, op, right) of a comparison at bracket depth 0 (outside quotes), or None."""
    for i in _at_top(text):
        for op in (">=", "<=", "==", "!=", ">", "<"):
            if text.startswith(op, i):
                return text[:i].strip(), op, text[i + len(op):].strip()
        m = re.match(r"(not\s+in|in)\b", text[i:])
        if m and (i == 0 or text[i - 1] == " "):
            return text[:i].strip(), " ".join(m.group(1).split()), text[i + m.end():].strip()
    return None


def hidden_items(st, viewer) -> set:
    """Ids of the items the viewer may not identify now."""
    v = st.view(viewer)
    out = set()
    for zid, items in st.zones.items():
        seen = v["zones"][zid]
        known = set(seen.get("known", ())) if isinstance(seen, dict) else {x for x in seen if x}
        out |= {i for i in items if i is not None and i not in known}
    return out


def _mentions(v, hidden) -> bool:
    if isinstance(v, (list, tuple)):
        return any(_mentions(x, hidden) for x in v)
    if isinstance(v, dict):
        return any(_mentions(k, hidden) or _mentions(x, hidden) for k, x in v.items())
    return isinstance(v, str) and v in hidden


def _words(rules, v, hidden) -> str:
    if _mentions(v, hidden):
        return "(hidden)"
    if isinstance(v, list):
        return "[" + ", ".join(_words(rules, x, hidden) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    return rules.display(v)


def comments_above(source, path, key: bool = True) -> list[str]:
    """The comment lines written just above the YAML entry at path (its rulebook citation)."""
    try:
        line, _ = source.pos(tuple(path), key=key)
    except Exception:
        return []
    lines = source.text.splitlines()
    out = []
    i = line - 2
    if 0 <= line - 1 < len(lines):  # an entry of a group written under one comment: the group's
        indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
        hops = 0
        while (i >= 0 and hops < 4 and lines[i].strip() and not lines[i].strip().startswith("#")
               and len(lines[i]) - len(lines[i].lstrip()) >= indent):
            i -= 1
            hops += 1
        if i >= 0 and not lines[i].strip().startswith("#"):
            i = line - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        out.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    return list(reversed(out))


def _where(source, path) -> str:
    try:
        line, _ = source.pos(tuple(path), key=True)
    except Exception:
        line = 1
    return f"{source.display}:{line}"


def _move_entry(m):
    """(source, path of the move's entry, its YAML mapping) of a compiled move."""
    src = m.src
    if src is None or src.source is None:
        return None, None, {}
    path = tuple(src.path[:-1])
    d = getattr(src.source, "data", None)
    try:
        for step in path:
            d = d[step]
    except (KeyError, IndexError, TypeError):
        d = {}
    return src.source, path, d if isinstance(d, dict) else {}


def _id_pattern(id_fmt: str, params) -> re.Pattern:
    parts = re.split(r"{([^}]*)}", id_fmt)
    rx = ""
    for i, p in enumerate(parts):
        rx += re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
    return re.compile("^" + rx + "$")


def _value_of(rules, text):
    """An id's piece of text back to the value it stands for."""
    if text == "none":
        return None
    if text == "yes":
        return True
    if text == "no":
        return False
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def make_id(m, env) -> str:
    """The action id of a move for its arguments (its id template filled in)."""
    return m.id_fmt.format(**{k: fmt_value(v) for k, v in env.items() if k != "me"})


class _Eval:
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


def _function_notes(game, text) -> list[tuple[str, list[str], str]]:
    """(function, the comments above its definition, where) for each game function text calls."""
    out = []
    decl = getattr(game, "declarations", None)
    functions = getattr(decl, "functions", None) or {}
    for name, fn in functions.items():
        if not re.search(r"\b" + re.escape(name) + r"\b", text):
            continue
        src = getattr(fn, "src", None)
        if src is None or getattr(src, "source", None) is None:
            continue
        notes = comments_above(src.source, src.path)
        out.append((name, notes, _where(src.source, src.path)))
    return out


def candidates(st, text: str, viewer=None, game=None) -> list[str]:
    """Action ids the words may name: exact ids, else ids of the offered moves (over their
    arguments' values, legal or not) whose id or label holds every word of the text."""
    rules = st.rules
    text = text.strip()
    legal = {a.id: a for a in st.legal_actions()}
    if ":" in text and " " not in text:
        return [text]
    words = [w for w in re.split(r"\s+", text.lower()) if w]
    found = []
    p = st.pending
    if p is not None and p.get("player") == viewer and p["type"] == "ask":
        ev = _Eval(st, game)
        for name in p["moves"]:
            m = rules.moves[name]
            for aid, label in _enumerate_unfiltered(ev, rules, m, viewer, hidden_items(st, viewer)):
                hay = (aid + " " + label).lower()
                if all(w in hay for w in words):
                    found.append(aid)
    for aid, a in legal.items():
        if aid not in found and all(w in (aid + " " + a.label).lower() for w in words):
            found.append(aid)
    return found


def _enumerate_unfiltered(ev, rules, m, viewer, hidden, limit=2000):
    """The move's (id, label) over its arguments' domains, ignoring its `if:`."""
    out = []
    params = [n for n, _ in m.params]
    env = {"me": viewer}

    def rec(i):
        if len(out) >= limit:
            return
        if i == len(params):
            if any(_mentions(env[n], hidden) for n in params):
                return
            aid = make_id(m, env)
            try:
                label = m.label_fmt.format(**{k: rules.display(env[k]) for k in params})
            except (KeyError, IndexError, ValueError):
                label = aid
            out.append((aid, label))
            return
        name, dom = m.params[i]
        try:
            values = list(dom(ev.st, env))
        except Exception:
            return
        for v in values:
            env[name] = v
            rec(i + 1)
        env.pop(name, None)

    rec(0)
    return out


def explain(st, text: str, viewer=None, game=None) -> dict:
    """Why the action named by `text` is (not) legal for `viewer` now (game: the loaded Game, to
    evaluate the rules' text; without it the failing part is not found). Returns
    {"action", "legal", "reason", "rule", "cites": [comment lines], "notes": [[function, [lines], where]],
     "text": the whole explanation in words}."""
    rules = st.rules
    hidden = hidden_items(st, viewer)
    ids = candidates(st, text, viewer, game)
    legal_ids = {a.id: a for a in st.legal_actions()} if st.current_player == viewer else {}
    if not ids:
        return _out(text, False, f"no action matches {text!r}; name an action by its id or its words", None)
    # prefer an illegal candidate (the question is why not), the first one otherwise
    illegal = [i for i in ids if i not in legal_ids]
    aid = illegal[0] if illegal else ids[0]
    if aid in legal_ids:
        return _out(aid, True, f"{legal_ids[aid].label}: this is legal now", None)
    if st.over:
        return _out(aid, False, "the game is over", None)
    p = st.pending
    if p is None or p.get("player") != viewer:
        who = rules.display(p["player"]) if p else "nobody"
        return _out(aid, False, f"it is not your decision now: {who} is to act", None)
    if aid.startswith("choose:") or aid.startswith("order:"):
        return _explain_choice(st, aid, p, hidden)
    # a move: which one, with which arguments
    for name, m in rules.moves.items():
        params = [n for n, _ in m.params]
        mt = _id_pattern(m.id_fmt, m.params).match(aid)
        if mt is None:
            continue
        source, path, entry = _move_entry(m)
        cites = comments_above(source, path) if source is not None else []
        where = f"{_where(source, path)} (move {name})" if source is not None else f"move {name}"
        if name not in p["moves"] if p["type"] == "ask" else True:
            asked = (", ".join(p["moves"]) if p["type"] == "ask" else p.get("label", p["type"]))
            return _out(aid, False, f"the game does not offer move {name} now; it asks for: {asked}", where, cites)
        env = {"me": viewer}
        ev = _Eval(st, game)
        for n in params:
            env[n] = _value_of(rules, mt.group(n))
        # arguments: each in its domain, in order (a later one may depend on an earlier one)
        args = entry.get("args") or {}
        for i, n in enumerate(params):
            dom_text = str(args.get(n, "")).strip()
            try:
                dom = list(m.params[i][1](ev.st, env))
            except Exception as exc:
                return _out(aid, False, f"the values of {n} cannot be listed: {exc}", where, cites)
            if env[n] not in dom:
                shown = _words(rules, env[n], hidden)
                return _out(aid, False,
                            f"{n} = {shown} is not among the values the rule allows: {dom_text} "
                            f"= {_words(rules, dom, hidden) if len(dom) <= 12 else str(len(dom)) + ' values'}",
                            where, cites, _function_notes(game, dom_text))
        cond = entry.get("if")
        if cond is None or m.cond is None:
            return _out(aid, False, "the move's arguments are allowed and it has no condition, "
                                    "yet it is not legal (another rule stops it)", where, cites)
        cond = " ".join(str(cond).split())
        parts = _split_top(cond, "and")
        if len(_split_top(cond, "or")) > 1 or cond.startswith("if ") or cond.startswith("not "):
            parts = [cond]  # `or`, `if` and `not` bind looser than `and`: the condition is one part
        for part in parts:
            try:
                ok = ev(part, env, params)
            except Exception as exc:
                return _out(aid, False, f"the condition {cond} cannot be evaluated: {exc}", where, cites)
            if ok:
                continue
            detail = _detail(ev, rules, part, env, params, hidden)
            return _out(aid, False, f"the condition is false: {part}" + (f" ({detail})" if detail else ""),
                        where, cites, _function_notes(game, part))
        return _out(aid, False, f"the condition {cond} holds, yet the action is not legal", where, cites)
    return _out(aid, False, f"no move of this game has an action like {aid!r}", None)


def _detail(ev, rules, part, env, params, hidden) -> str:
    """The values that make a false part false: both sides of a comparison."""
    text = part.strip()
    neg = False
    if text.startswith("not ") or text.startswith("not("):
        return f"{text[3:].strip()} is true"
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1].strip()
    cmp = _split_cmp(text)
    if cmp is None:
        return ""
    left, op, right = cmp
    vals = []
    for side in (left, right):
        try:
            v = ev(side, env, params)
        except Exception:
            return ""
        if not _is_literal(side):
            vals.append(f"{side} is {_words(rules, v, hidden)}")
    del neg
    return "; ".join(vals)


def _is_literal(text) -> bool:
    t = text.strip()
    return t.lstrip("-").isdigit() or t in ("none", "true", "false") or (t[:1] in "'\"" and t[-1:] == t[:1])


def _balanced(text) -> bool:
    depth = 0
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth < 0:
            return False
    return depth == 0


def _explain_choice(st, aid, p, hidden) -> dict:
    rules = st.rules
    kind, _, rest = aid.partition(":")
    label, _, value = rest.rpartition(":")
    where = None
    try:
        fr = st.stack[-1]
        where = rules.where(fr[0], fr[1])
    except Exception:
        pass
    if p["type"] == "ask" or p.get("label") != label:
        now = ", ".join(p["moves"]) if p["type"] == "ask" else p.get("label")
        return _out(aid, False, f"the game is not asking {label.replace('_', ' ')} now; it asks for: {now}", where)
    opts = [fmt_value(v) for v in p.get("options", [])]
    shown = ", ".join(_words(rules, v, hidden) for v in p.get("options", []))
    return _out(aid, False, f"{value} is not one of the options ({shown or 'none'})" if value not in opts
                else "not legal now", where)


def _out(aid, legal, reason, rule, cites=(), notes=()) -> dict:
    lines = [("legal: " if legal else "not legal: ") + reason]
    if rule:
        lines.append(f"rule: {rule}")
    for c in cites:
        lines.append(f"  # {c}")
    for name, ns, where in notes:
        if ns:
            lines.append(f"{name} ({where}):")
            lines += [f"  # {c}" for c in ns]
    return {"action": aid, "legal": legal, "reason": reason, "rule": rule, "cites": list(cites),
            "notes": [[n, list(c), w] for n, c, w in notes], "text": "\n".join(lines)}
