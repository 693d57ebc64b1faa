"""What a table shows one player: the game's ``display:`` section turned into plain data, the one
description that every front end draws (the terminal table, the browser board).

``table(state, viewer)`` gives a JSON-able dict built from ``state.view(viewer)`` (zones, faces,
the log, the pending decision) and the rules' static data (names, item texts, regions and their
positions, connections). The display expressions of ``display:`` (players' fields, meters,
region columns, item lines) are evaluated on the state; a game's display expressions must read
public facts only (the leak tests of each front end check that no hidden item ever appears).

    {"title", "viewer", "turn", "to_act", "over", "winners", "victory", "scores", "owners": {id: name},
     "plurals": {id: the word for more than one},
     "result": None | {"who", "victory", "points", "line"}   (the end in words: primitives.over_words),
     "players": [{"id", "name", "you", "to_act", "fields": [[label, text]]}],
     "meters":  [{"id", "label", "owner", "value", "max", "marks": {space: text}}],
     "board":   {"regions": [{"id", "name", "pos", "pieces": [[owner, kind, n]], "items": [...],
                              "fields": [[label, text]]}],
                 "connections": [{"a", "b", "kind", "directed"}]},
     "zones":   [{"id", "title", "owner", "hidden", "count", "items": [item]}],
     "log":     [line],            (from entry `log_from` on: "log_from" says where it starts)
     "decision": None | {"player", "prompt", "kind", "options": [{"id", "label", "group", "value",
                                                                     "move", "args", "text", "about", "line"}],
                         "groups": [{"id", "label", "count"}]}}

An item is {"id", "name", "type", "text", "line", "face": "up" | "down", "known", "available"};
an item the viewer may not identify is {"id": None, "name": "?", "face": "down", "owner": ...}.
"""
from __future__ import annotations

from ..model.rules import fmt_value
from .primitives import over_words


def words(rules, v) -> str:
    """A value as a table shows it: names for ids, yes/no, lists joined."""
    if isinstance(v, list):
        return ", ".join("/".join(words(rules, y) for y in x) if isinstance(x, list) else words(rules, x)
                         for x in v) or "-"
    if isinstance(v, dict):
        return ", ".join(f"{words(rules, k)} {words(rules, x)}" for k, x in v.items()) or "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return rules.display(v)


def in_a_row(rules, v):
    """A display expression's value as a line: a list reads as words in a row, leaving out
    what is none or empty (['you pay', 2, 'coins'] -> "you pay 2 coins"), a name after a count
    other than 1 in its word for more than one ([3, regular] -> "3 regulars"); none is no line."""
    if isinstance(v, list):
        xs = [x for x in v if x not in (None, [], "")]
        many = rules.plurals  # (a count before a name: "3 regulars", display: plurals:)
        return " ".join(many[x] if i and many and type(xs[i - 1]) is int and xs[i - 1] != 1 and type(x) is str
                        and x in many else words(rules, x) for i, x in enumerate(xs))
    return None if v is None else words(rules, v)


def _safe(f, st, env, failed=None):
    try:
        return f(st, env)
    except Exception:  # a display expression never breaks the game (it shows `failed`)
        return failed


def item(rules, st, iid, viewer, shown_as=None) -> dict:
    """An item as the viewer sees it (shown_as: what view() put in its place)."""
    if shown_as is not None and shown_as != iid:  # its back: '?' or '?owner'
        owner = shown_as[1:] if isinstance(shown_as, str) and len(shown_as) > 1 else None
        return {"id": None, "name": "?", "face": "down", "owner": owner}
    p = rules.props.get(iid, {})
    line = None
    f = rules.hud["items"].get(p.get("type"))
    if f is not None:
        line = in_a_row(rules, _safe(f, st, {"me": viewer, "this": iid}))
    return {"id": iid, "name": rules.display(iid), "type": p.get("type"), "text": rules.item_words.get(iid, ""),
            "line": line, "face": "down" if iid in st.facedown else "up",
            "props": {k: words(rules, v) for k, v in p.items()
                      if k not in ("name", "type") and v not in (None, [], {}, False)}}


def _zone(rules, st, zid, seen, viewer, title=None) -> dict:
    zd = rules.zones[zid]
    out = {"id": zid, "title": title or rules.display(zd.family) + (f" ({rules.display(zd.key)})" if zd.key else ""),
           "owner": zd.owner}
    if isinstance(seen, dict):  # hidden from the viewer: a count, and what was shown to them alone
        out.update(hidden=True, count=seen["count"],
                   items=[item(rules, st, i, viewer) for i in seen.get("known", ())])
        return out
    avail = None
    if zd.tableau:
        from .primitives import IMPL

        avail = set(IMPL["available"](st, zid))
    items = []
    for i, look in enumerate(seen):
        if look is None:
            items.append(None) if zd.tableau else None
            continue
        real = st.zones[zid][i]
        it = item(rules, st, real, viewer, look)
        if avail is not None:
            it["available"] = real in avail
            it["slot"] = zd.slot_names[i]
        items.append(it)
    out.update(hidden=False, count=sum(1 for x in items if x is not None), items=items)
    if zd.tableau:
        out["slots"] = list(zd.slot_names)
    return out


def question(st) -> str:
    """What the pending decision asks, in the words of display: prompts: (else its label), its
    {expressions} read where it is asked (_prompt)."""
    p, rules = st.pending, st.rules
    if p["type"] == "ask":  # a prompt of its own for a lone move (place: 'place a character'), else the game's
        lone = p["moves"][0] if len(p.get("moves") or ()) == 1 else None
        return _prompt(st, lone) or _prompt(st, "ask") or "your move"
    label = p.get("label", "")
    prompt = _prompt(st, label) or label.replace("_", " ") + "?"
    if p.get("about") is not None:
        prompt += f" ({rules.display(p['about'])})"
    return prompt


def decision(rules, st, viewer) -> dict | None:
    """The pending decision, with its options in words, when it is the viewer's."""
    p = st.pending
    if p is None or st.over or p["player"] != viewer:
        return None
    kind = p["type"]
    prompt = question(st)
    options = []
    lines = {}  # an item -> its line (display: items:), once per decision
    for a in st.legal_actions():
        group = a.id.rsplit(":", 1)[0] if a.id.count(":") >= 2 else a.id.split(":", 1)[0]
        o = {"id": a.id, "label": a.label, "group": group,
             "value": None if kind == "ask" else fmt_value(a.payload) if kind == "choose" else a.payload}
        # additions: the move and its arguments (what the option is about: a front end marks
        # those regions and items), and the option's own words (a choice's value by name)
        if kind == "ask":
            name, env = a.payload
            o["move"] = name
            o["args"] = {k: v for k, v in env.items() if k != "me"}
            o["text"] = a.label
        else:
            o["move"] = None
            o["args"] = {}
            o["text"] = ("none (stop)" if a.payload is None else words(rules, a.payload)) if kind == "choose" \
                else str(a.payload).replace("_", " ") + (" next" if kind == "order" else "")
        # the one item (card, tile, character...) the option is about, and its line: what it
        # costs the viewer, say, so that a list of options is enough to plan with; an item moved
        # to a region (one item and one region named) is about the item
        named = {v for v in (*o["args"].values(), o["value"]) if isinstance(v, str) and v in rules.props}
        if len(named) == 2:
            named = {v for v in named if v not in rules.region_order} or named
        o["about"] = o["line"] = None
        if len(named) == 1:
            iid = o["about"] = named.pop()
            if iid not in lines:
                # (a region's line: display: region_line, e.g. who holds it and with how much)
                lines[iid] = (in_a_row(rules, _safe(rules.hud["region_line"], st, {"me": viewer, "r": iid}))
                              if iid in rules.region_order and rules.hud.get("region_line")
                              else item(rules, st, iid, viewer).get("line"))
            o["line"] = lines[iid]
        options.append(o)
    return {"player": viewer, "kind": kind, "prompt": prompt, "options": options,
            "groups": groups(options)}


def _prompt(st, key):
    """The prompt display: prompts: gives the decision asked under `key`, its {expressions}
    read in the scope of the rule asking it (the top frame's locals); None when it has none.
    An expression that fails there reads "?" (a gap a player can see, not a silent blank)."""
    text = st.rules.hud["prompts"].get(key)
    if not isinstance(text, list):
        return text
    env = st.stack[-1][2] if st.stack else {}
    return "".join(x if isinstance(x, str) else in_a_row(st.rules, _safe(x, st, env, "?")) or "" for x in text)


def group_label(labels: list) -> str:
    """What the labels of one group share, in words: 'move A to the hills' and 'move A to the
    river' give 'move A to the …'."""
    import difflib

    if not labels:
        return ""
    common = labels[0].split()
    for other in labels[1:]:
        toks = other.split()
        sm = difflib.SequenceMatcher(None, common, toks, autojunk=False)
        out, last = [], 0
        for i, j, n in sm.get_matching_blocks():
            if i > last or (n == 0 and last < len(common)):
                if not out or out[-1] != "…":
                    out.append("…")
            out += common[i:i + n]
            last = i + n
        if len(out) > 1 and out[-1] == "…" and last >= len(common):
            pass
        common = out
    while common and common[0] == "…" and len(common) > 1 and common[1] == "…":
        common.pop(0)
    return " ".join(common) or labels[0]


def groups(options: list) -> list:
    """The options' groups in order of first appearance: {"id", "label", "count"}."""
    by: dict = {}
    for o in options:
        by.setdefault(o["group"], []).append(o["label"])
    return [{"id": g, "label": group_label(ls) if len(ls) > 1 else ls[0], "count": len(ls)} for g, ls in by.items()]


def _static(rules) -> dict:
    """What never changes during a game, worked out once per rules: each region's printed
    properties in words and the board's connections."""
    got = rules.__dict__.get("_table_static")
    if got is None:
        props = {r: {k: words(rules, x) for k, x in rules.props[r].items()
                     if k not in ("name", "pos") and x not in (None, [], {}, False)} for r in rules.regions}
        connections = []
        if rules.regions:
            nodes, edges = rules.board_data
            pairs = {(a, b) for a, b, _ in edges}
            done = set()
            for a, b, attrs in edges:  # an undirected connection is two edges: shown once
                if (b, a) in done:
                    continue
                done.add((a, b))
                connections.append({"a": a, "b": b, "kind": attrs.get("kind") or None,
                                    "directed": (b, a) not in pairs})
        got = rules._table_static = {"props": props, "connections": connections}
    return got


def table(st, viewer=None, log_from: int = 0) -> dict:
    """Everything the viewer's table shows, as plain data (see the module's docstring); the log
    from entry `log_from` on, for a front end that keeps the lines it has already shown."""
    rules = st.rules
    v = st.view(viewer, log_from)
    static = _static(rules)
    hud = rules.hud
    turn = st.vars.get(rules.turn_var) if rules.turn_var else None
    players = []
    for p in st.seats:
        fields = []
        for label, f in hud["players"].items():
            value = _safe(f, st, {"me": p})
            if value is not None:  # a row whose value is none does not apply to this player now
                fields.append([label, words(rules, value)])
        players.append({"id": p, "name": rules.display(p), "you": p == viewer, "to_act": p == st.current_player,
                        "turn": p == turn, "fields": fields})
    meters = []
    for name, m in hud["meters"].items():
        for owner in (st.seats if m["per"] == "players" else [None]):
            env = {"me": owner if owner is not None else viewer}
            value = _safe(m["value"], st, env)
            top = _safe(m["max"], st, env) if m["max"] is not None else None
            meters.append({"id": name, "label": name, "owner": owner, "value": value, "max": top,
                           "marks": m["marks"], "doc": m["doc"]})
    board = {"regions": [], "connections": []}
    if rules.regions:
        on_board = [f for f, keys in rules.zone_families.items() if keys == rules.regions]
        by_region: dict = {}
        for k, o, loc, n in v["pieces"]:
            if loc in rules.props and n:
                by_region.setdefault(loc, []).append([o, k, n])
        for r in rules.regions:
            props = rules.props[r]
            items = []
            for fam in on_board:
                zid = f"{fam}.{r}"
                seen = v["zones"][zid]
                if isinstance(seen, dict):
                    items += [{"id": None, "name": "?", "face": "down"}] * seen["count"]
                else:
                    items += [item(rules, st, st.zones[zid][i], viewer, look) for i, look in enumerate(seen)
                              if look is not None]
            fields = []
            for label, f in hud["regions"].items():
                x = _safe(f, st, {"me": viewer, "r": r})
                if x not in (None, False, 0, "", []):
                    fields.append([label, words(rules, x)])
            board["regions"].append({"id": r, "name": rules.display(r), "pos": props.get("pos"),
                                     "pieces": by_region.get(r, []), "items": items, "fields": fields,
                                     "props": dict(static["props"][r])})
        board["connections"] = [dict(c) for c in static["connections"]]
    zones = []
    for text, f in hud["zones"]:
        zid = _safe(f, st, {"me": viewer})
        if zid in rules.zones:
            zones.append(_zone(rules, st, zid, v["zones"][zid], viewer))
    # a side played by several seats keeps zones of its own too (cards on its table)
    owners = list(st.seats) + [t for t in rules.teams_of(st.seats) if t not in st.seats]
    for fam in hud["player_zones"]:
        for p in owners:
            zid = f"{fam}.{p}"
            if zid in rules.zones:
                zones.append(_zone(rules, st, zid, v["zones"][zid], viewer,
                                   title=f"{rules.display(fam)} of {rules.display(p)}"))
    return {"game": rules.name, "title": rules.title, "viewer": viewer, "turn": turn, "to_act": st.current_player,
            "over": st.over, "winners": list(st.winners), "victory": st.victory, "scores": st.scores,
            # addition: the end in words, as the log's "game over" line (display: victories:)
            "result": over_words(rules, st.winners, st.victory, st.scores) if st.over else None,
            "players": players, "meters": meters, "board": board, "zones": zones, "log": v["log"],
            "log_from": log_from,
            # addition: the printed names of every owner of pieces on the board (a neutral army
            # that has no seat is not among the players)
            "owners": {o: rules.display(o) for o in sorted({str(x[1]) for x in v["pieces"] if x[1] is not None})},
            # addition: the word for more than one of a piece kind (display: plurals:)
            "plurals": rules.plurals,
            "decision": decision(rules, st, viewer)}
