"""Why an action is not possible, in a player's words first and the rules' terms after.

``explain(state, text, viewer)`` takes an action id (``buy:card_7``) or words naming an action
or an option (a card's or a region's printed name), finds the move (or the choice) it belongs to, and
says what stops it:

* the decision is someone else's, or the game is asking something else now;
* an argument of a move, or a value of a choice, is not among the values its rule allows (and,
  when the list is a game function, the condition inside it that leaves the value out);
* a part of the move's ``if:`` (or of a ``one_of`` branch's condition) is false: the first false
  part of an ``and``, with the values of both sides of a comparison.

The answer (``answer``) is in words (engine/wording.py: "It needs your coins (2) to be at least
your price for the Spyglass (4)."). Then, for rule authors, the rule: its file and line, the
failing part as rule text, the comment lines written just above the rule (the rule files cite
their rulebook section there) and above each game function the failing part calls. Values that
would name an item hidden from the viewer are shown as "(hidden)". Nothing here knows a game.
"""
from __future__ import annotations

import re

from ..model.rules import fmt_value
from .table import question
from .ruletext import Evaluator, choice_values, expression, statement_of, unparse
from .wording import for_game, mentions, sentences


def hidden_items(st, viewer) -> set:
    """Ids of the items the viewer may not identify now."""
    v = st.view(viewer)
    out = set()
    for zid, items in st.zones.items():
        seen = v["zones"][zid]
        known = set(seen.get("known", ())) if isinstance(seen, dict) else {x for x in seen if x}
        out |= {i for i in items if i is not None and i not in known}
    return out


def _words(rules, v, hidden) -> str:
    if mentions(v, hidden):
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


def _function_notes(game, text, also=()) -> list[tuple[str, list[str], str]]:
    """(function, the comments above its definition, where) for each game function text calls,
    then for those named in also (the functions opened to find the reason)."""
    out = []
    decl = getattr(game, "declarations", None)
    functions = getattr(decl, "functions", None) or {}
    called = [n for n in functions if re.search(r"\b" + re.escape(n) + r"\b", text)]
    for name in dict.fromkeys(called + [n for n in also if n in functions]):
        fn = functions[name]
        src = getattr(fn, "src", None)
        if src is None or getattr(src, "source", None) is None:
            continue
        notes = comments_above(src.source, src.path)
        out.append((name, notes, _where(src.source, src.path)))
    return out


def candidates(st, text: str, viewer=None, game=None) -> list[str]:
    """Action ids the words may name: exact ids, else ids of the offered moves (over their
    arguments' values, legal or not) whose id or label holds every word of the text; those the
    text names exactly (their id, their label or one of their values, as printed) first."""
    return ranked(st, text, viewer, game)[0]


def ranked(st, text: str, viewer=None, game=None) -> tuple[list[str], set]:
    """(candidates, the ids among them the text names exactly)."""
    rules = st.rules
    text = text.strip()
    legal = {a.id: a for a in st.legal_actions()}
    if ":" in text and " " not in text:
        return [text], {text}
    said = text.lower()
    words = [w for w in re.split(r"\s+", said) if w]
    found, exact = [], set()

    def offer(aid, label, values):
        if aid not in found and all(w in (aid + " " + label).lower() for w in words):
            found.append(aid)
            if said in (aid.lower(), label.lower()) or any(
                    said in (str(v).lower(), rules.display(v).lower()) for v in values):
                exact.add(aid)

    p = st.pending
    if p is not None and p.get("player") == viewer and p["type"] == "ask":
        ev = Evaluator(st, game)
        for name in p["moves"]:
            for aid, label, values in _enumerate_unfiltered(ev, rules, rules.moves[name], viewer,
                                                            hidden_items(st, viewer)):
                offer(aid, label, values)
    elif p is not None and p.get("player") == viewer and p["type"] in ("choose", "branch", "order"):
        kind = "order" if p["type"] == "order" else "choose"
        for v in choice_values(st, p, words, hidden_items(st, viewer)):
            aid = f"{kind}:{p['label']}:{fmt_value(v)}"
            found.append(aid)
            if said in (str(v).lower(), rules.display(v).lower()):
                exact.add(aid)
    for aid, a in legal.items():
        payload = a.payload
        values = [v for k, v in payload[1].items() if k != "me"] if type(payload) is tuple else [payload]
        offer(aid, a.label, values)
    return [i for i in found if i in exact] + [i for i in found if i not in exact], exact


def _enumerate_unfiltered(ev, rules, m, viewer, hidden, limit=2000):
    """The move's (id, label, argument values) over its arguments' domains, ignoring its `if:`."""
    out = []
    params = [n for n, _ in m.params]
    env = {"me": viewer}

    def rec(i):
        if len(out) >= limit:
            return
        if i == len(params):
            if any(mentions(env[n], hidden) for n in params):
                return
            aid = make_id(m, env)
            try:
                label = m.label_fmt.format(**{k: rules.display(env[k]) for k in params})
            except (KeyError, IndexError, ValueError):
                label = aid
            out.append((aid, label, [env[n] for n in params]))
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
    {"action", "legal", "answer": in a player's words, "reason": in the rules' terms, "rule",
     "cites": [comment lines], "notes": [[function, [lines], where]], "text": the answer, then
     the rule}."""
    rules = st.rules
    hidden = hidden_items(st, viewer)
    ids, exact = ranked(st, text, viewer, game)
    legal_ids = {a.id: a for a in st.legal_actions()} if st.current_player == viewer else {}
    if not ids:
        return _out(text, False, f"no action matches {text!r}; name an action by its id or its words", None,
                    answer=f"Nothing you could choose now is called {text!r}: name an option by its words "
                           "(as the list shows it) or by its id.")
    # what the text names exactly, a legal one first (a region offered, not the card of its name);
    # else of what its words name an illegal one (the question is why not), else the first
    named = [i for i in ids if i in exact]
    aid = next((i for i in named if i in legal_ids), named[0]) if named else \
        next((i for i in ids if i not in legal_ids), ids[0])
    if aid in legal_ids:
        return _out(aid, True, f"{legal_ids[aid].label}: this is legal now", None,
                    answer=f"You can do that now: it is one of your options ({legal_ids[aid].label}).")
    if st.over:
        return _out(aid, False, "the game is over", None, answer="The game is over: nothing more can be done.")
    p = st.pending
    if p is None or p.get("player") != viewer:
        who = rules.display(p["player"]) if p else "nobody"
        return _out(aid, False, f"it is not your decision now: {who} is to act", None,
                    answer=f"It is not your decision now: {who} is to act.")
    ev = Evaluator(st, game)
    say = for_game(st, ev, game, viewer, hidden)
    if aid.startswith("choose:") or aid.startswith("order:"):
        return _explain_choice(st, aid, p, say, game)
    # a move: which one, with which arguments
    for name, m in rules.moves.items():
        params = [n for n, _ in m.params]
        mt = _id_pattern(m.id_fmt, m.params).match(aid)
        if mt is None:
            continue
        source, path, entry = _move_entry(m)
        cites = comments_above(source, path) if source is not None else []
        where = f"{_where(source, path)} (move {name})" if source is not None else f"move {name}"
        env = {"me": viewer}
        for n in params:
            env[n] = _value_of(rules, mt.group(n))
        try:
            doing = m.label_fmt.format(**{k: say.value(env[k]) for k in params})
        except (KeyError, IndexError, ValueError):
            doing = aid
        cannot = f"You cannot {doing} now."
        if name not in p["moves"] if p["type"] == "ask" else True:
            asked = (", ".join(p["moves"]) if p["type"] == "ask" else p.get("label", p["type"]))
            return _out(aid, False, f"the game does not offer move {name} now; it asks for: {asked}", where, cites,
                        answer=f"You cannot {doing} now: the game is asking something else ({question(st)}).")
        # arguments: each in its domain, in order (a later one may depend on an earlier one)
        args = entry.get("args") or {}
        for i, n in enumerate(params):
            dom_text = str(args.get(n, "")).strip()
            try:
                dom = list(m.params[i][1](ev.st, env))
            except Exception as exc:
                return _out(aid, False, f"the values of {n} cannot be listed: {exc}", where, cites, answer=cannot)
            if env[n] not in dom:
                shown = _words(rules, env[n], hidden)
                node = expression(dom_text)
                because = []
                if node is not None:
                    because = [_safe(say.among, env[n], node, env)
                               or f"{say.value(env[n])} is not one of the values allowed ({say.value(dom)})"]
                    because += _safe(say.not_in, env[n], node, env)
                return _out(aid, False,
                            f"{n} = {shown} is not among the values the rule allows: {dom_text} "
                            f"= {_words(rules, dom, hidden) if len(dom) <= 12 else str(len(dom)) + ' values'}",
                            where, cites, _function_notes(game, dom_text, say.opened), answer=_answer(cannot, because))
        cond = entry.get("if")
        if cond is None or m.cond is None:
            return _out(aid, False, "the move's arguments are allowed and it has no condition, "
                                    "yet it is not legal (another rule stops it)", where, cites,
                        answer=cannot + " Another rule stops it.")
        node = expression(cond)
        parts = node.a[0] if node is not None and node.kind == "and" else [node] if node is not None else []
        for part in parts:
            try:
                ok = ev(unparse(part), env, params)
            except Exception as exc:
                return _out(aid, False, f"the condition {cond} cannot be evaluated: {exc}", where, cites,
                            answer=cannot)
            if ok:
                continue
            code = unparse(part)
            because = _safe(say.false, part, env)
            detail = _detail(ev, rules, part, env, params, hidden)
            return _out(aid, False, f"the condition is false: {code}" + (f" ({detail})" if detail else ""),
                        where, cites, _function_notes(game, code, say.opened), answer=_answer(cannot, because))
        return _out(aid, False, f"the condition {cond} holds, yet the action is not legal", where, cites,
                    answer=cannot)
    return _out(aid, False, f"no move of this game has an action like {aid!r}", None,
                answer=f"Nothing you could choose now is called {aid!r}.")


def _safe(f, *args) -> list:
    try:
        return f(*args)
    except Exception:  # the words are a courtesy: the rule and its values are said anyway
        return []


def _answer(head: str, because: list) -> str:
    return head + ("\n" + sentences(because) if because else "")


def _detail(ev, rules, part, env, params, hidden) -> str:
    """The values that make a false part false, in the rules' terms: both sides of a comparison."""
    if part.kind == "not":
        return f"{unparse(part.a[0])} is true"
    if part.kind != "cmp":
        return ""
    vals = []
    for side in part.a[1:]:
        if side.kind == "const":
            continue
        try:
            v = ev(unparse(side), env, params)
        except Exception:
            return ""
        vals.append(f"{unparse(side)} is {_words(rules, v, hidden)}")
    return "; ".join(vals)


def _explain_choice(st, aid, p, say, game) -> dict:
    rules = st.rules
    kind, _, rest = aid.partition(":")
    label, _, value = rest.rpartition(":")
    where = None
    try:
        fr = st.stack[-1]
        where = rules.where(fr[0], fr[1])
    except Exception:
        pass
    asked = question(st)
    if p["type"] != "ask" and p.get("label") in (label, rest) and (value == "" or not label):  # no option named
        listed = ", ".join(_branch(rules, fmt_value(v)) if p["type"] in ("branch", "order") else
                           _words(rules, v, say.hidden) for v in p.get("options", [])) or "none"
        return _out(aid, False, f"no option named; the options are: {listed}", where,
                    answer=f"Name one of the options for {asked!r}: {listed}.")
    if p["type"] == "ask" or p.get("label") != label:
        now = ", ".join(p["moves"]) if p["type"] == "ask" else p.get("label")
        return _out(aid, False, f"the game is not asking {label.replace('_', ' ')} now; it asks for: {now}", where,
                    answer=f"The game is not asking that now: it asks {asked!r}.")
    options = p.get("options", [])
    opts = [fmt_value(v) for v in options]
    shown = ", ".join(_words(rules, v, say.hidden) for v in options)
    if value in opts:
        return _out(aid, False, "not legal now", where, answer="That is not possible now.")
    v = _value_of(rules, value)
    stmt, env = statement_of(st)
    if p["type"] in ("branch", "order"):  # the options are the branches' names
        because = [f"{_branch(rules, value)} is not one of the options for {asked!r}: "
                   f"{', '.join(_branch(rules, o) for o in opts)}"]
    else:
        because = [f"{say.value(v)} is not one of the options for {asked!r}: {say.value(options)}"]
        say.shown.add(repr(list(options)))
    if stmt is not None and stmt.kind == "choose" and not say._hides(v):
        var, domain, cond = stmt.a[0], stmt.a[1], stmt.a[2]
        try:
            listed = v in say.eval(domain, env)
        except Exception:
            listed = True
        if not listed:
            said = _safe(say.among, v, domain, env)
            because += ([said] if said else []) + _safe(say.not_in, v, domain, env)
        elif cond is not None:
            because += _safe(say.false, cond, {**env, var: v})
    elif stmt is not None and stmt.kind in ("one_of", "any_order"):
        branch = next((b for b in stmt.a[2] if b[0] == value), None)
        if branch is None:
            because = [f"{_branch(rules, value)} is not an option here: the options are "
                       f"{', '.join(_branch(rules, o) for o in opts)}"]
        elif branch[1] is not None:
            because += _safe(say.false, branch[1], env)
    notes = _function_notes(game, unparse(stmt.a[1]) if stmt is not None and stmt.kind == "choose" else "", say.opened)
    return _out(aid, False, f"{value} is not one of the options ({shown or 'none'})", where, (), notes,
                answer=sentences(because))


def _branch(rules, name: str) -> str:
    """A branch's name as a player reads it: its printed name (display: names:), else its words."""
    return rules.names.get(name) or name.replace("_", " ")


def _out(aid, legal, reason, rule, cites=(), notes=(), answer=None) -> dict:
    answer = answer or (("Legal: " if legal else "Not possible: ") + reason)
    lines = [answer, ""]  # then, for rule authors, the rule and the reason in its own terms
    lines += ([f"rule: {rule}", f"  {reason}"] if rule else [f"({reason})"]) + [f"  # {c}" for c in cites]
    for name, ns, where in notes:
        if ns:
            lines.append(f"{name} ({where}):")
            lines += [f"  # {c}" for c in ns]
    return {"action": aid, "legal": legal, "answer": answer, "reason": reason, "rule": rule, "cites": list(cites),
            "notes": [[n, list(c), w] for n, c, w in notes], "text": "\n".join(lines)}
