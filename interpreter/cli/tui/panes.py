"""What each pane of the terminal table shows, drawn from engine.table's plain data (the same
description the browser board draws): markup text for Textual, with clickable names."""
from __future__ import annotations

from textual.markup import escape

# Colours as hex values: Textual's markup takes CSS names and hex, not Rich's numbered names
# (dodger_blue1, grey70...): a name it cannot parse is dropped without a word.
PALETTE = ["#0087ff", "#ff0000", "#00d700", "#ffd700", "#ff00ff", "#00ffff", "#ffaf00", "#ffffff",
           "#af87ff", "#ffafd7", "#87d7af", "#d7875f"]
RICH_COLOURS = {"red", "green", "blue", "yellow", "black", "white", "grey", "gray", "purple", "orange",
                "magenta", "cyan", "brown", "pink"}
SHOWN = {"black": "#b2b2b2", "grey": "#9e9e9e", "gray": "#9e9e9e", "brown": "#af5f00", "purple": "#af87ff",
         "orange": "#ffaf00", "pink": "#ffafd7", "blue": "#0087ff", "yellow": "#ffff00", "red": "#ff0000",
         "green": "#00d700", "white": "#ffffff", "magenta": "#ff00ff", "cyan": "#00ffff"}
METER = "#00d700"     # a meter's bar with no owner


def e(text) -> str:
    return escape(str(text))


def log_line(t: dict, line: str) -> str:
    """A log line with the acting player's printed name ('red: moves ...' -> 'Red: moves ...')."""
    head, sep, rest = str(line).partition(": ")
    if sep:
        for p in t["players"]:
            if p["id"] == head:
                style = player_styles(t).get(head, "")
                return f"[{style}]{e(p['name'])}[/]: {e(rest)}"
    return e(line)


def player_styles(t: dict) -> dict:
    """A colour per player: the player's own name when it is a colour, else from a palette."""
    out = {}
    for i, p in enumerate(t["players"]):
        pid = str(p["id"])
        out[pid] = SHOWN.get(pid) if pid in RICH_COLOURS else PALETTE[i % len(PALETTE)]
    n = len(out)
    for pid in t.get("owners") or {}:  # owners without a seat (a neutral army, a nation)
        if pid not in out:
            out[pid] = SHOWN.get(pid) if pid in RICH_COLOURS else PALETTE[n % len(PALETTE)]
            n += 1
    return out


def item_style(item: dict) -> str:
    """A card's own colour (a colour or colour property whose value names a colour)."""
    props = item.get("props") or {}
    for k in ("color", "colour"):
        v = str(props.get(k, "")).lower()
        if v in RICH_COLOURS:
            return SHOWN[v]
    return ""


def click(action: str, arg, text: str, style: str = "") -> str:
    arg = str(arg).replace("\\", "").replace("'", "")
    inner = f"[{style}]{text}[/]" if style else text
    return f"[@click=app.{action}('{arg}')]{inner}[/]"


_CTX: dict = {}  # the table being drawn (player names and colours for the backs of items)


def item_markup(item: dict | None, long: bool = False, mark: bool = False) -> str:
    if item is None:
        return "[dim]·[/]"
    if item.get("id") is None:
        owner = item.get("owner")
        if owner and _CTX:
            return f"[{player_styles(_CTX).get(owner, 'dim')}]\\[? {e(_pname(_CTX, owner))}][/]"
        return f"[dim]\\[? {e(owner)}][/]" if owner else "[dim]\\[?][/]"
    style = item_style(item)
    if item.get("available"):
        style = (style + " bold underline").strip()
    elif item.get("available") is False:
        style = (style + " dim").strip()
    name = e(item["name"])
    text = click("look", item["id"], name, style)
    if mark:
        text = "[reverse]▸[/]" + text
    if long:
        if item.get("line"):
            text += f" [i]{e(item['line'])}[/]"
        if item.get("text"):
            text += f" [dim]— {e(item['text'])}[/]"
    return text


def header(t: dict, seat: dict, viewer) -> str:
    styles = player_styles(t)
    parts = []
    if viewer is not None:
        parts.append(f"you: [{styles.get(viewer, '')} b]{e(_pname(t, viewer))}[/]")
    if t.get("over"):
        parts.append(f"[b reverse] {e(over_line(t))} [/]")
    else:
        if t.get("turn"):
            parts.append(f"[{styles.get(t['turn'], '')}]{e(_pname(t, t['turn']))}[/]'s turn")
        if t.get("to_act") and t["to_act"] != t.get("turn"):
            parts.append(f"{e(_pname(t, t['to_act']))} to decide")
    parts.append(f"[b]{e(t['title'])}[/]")
    return " · ".join(parts)


def over_line(t: dict) -> str:
    """The end of the game in words, as the log's "game over" line says it (engine.table's result:
    display: victories: words the victory)."""
    r = t.get("result")
    if r:
        return r["line"]
    win = ", ".join(_pname(t, w) for w in t.get("winners") or []) or "nobody"
    return f"game over: {win} won"


def _pname(t, pid) -> str:
    for p in t["players"]:
        if p["id"] == pid:
            return p["name"]
    return (t.get("owners") or {}).get(pid, str(pid))


def players(t: dict, seat: dict) -> str:
    styles = player_styles(t)
    lines = []
    zones_of: dict = {}
    for z in t["zones"]:
        if z.get("owner") is not None:
            zones_of.setdefault(z["owner"], []).append(z)
    for p in t["players"]:
        mark = "▶" if p["to_act"] else " "
        who = " (you)" if p["you"] else f" [dim]{e(seat.get(p['id'], ''))}[/]" if seat.get(p["id"]) else ""
        head = f"{mark}[b {styles.get(p['id'], '')}]{e(p['name'])}[/]{who}"
        fields = " · ".join(f"{e(label)} [b]{e(v)}[/]" for label, v in p["fields"] if v not in ("", "-", "none"))
        lines.append(head + ("  " + fields if fields else ""))
        if not p["you"]:  # the other players' public zones (their played cards, tokens...)
            for z in zones_of.get(p["id"], []):
                lines.append("   " + zone_inline(z))
    ms = meters(t)
    if ms:
        lines += ["", ms]
    return "\n".join(lines)


def zone_inline(z: dict) -> str:
    title = e(z["title"])
    if z.get("hidden"):
        known = [i for i in z.get("items") or [] if i]
        extra = (": " + ", ".join(item_markup(i) for i in known)) if known else ""
        return f"[dim]{title}:[/] {z['count']} hidden{extra}"
    items = [i for i in z.get("items") or [] if i]
    if not items:
        return f"[dim]{title}: -[/]"
    return f"[dim]{title}:[/] " + ", ".join(item_markup(i) for i in items)


def meters(t: dict) -> str:
    """Each meter (a track, a counter toward a goal): its marked spaces once, then one bar per owner."""
    styles = player_styles(t)
    out = []
    by_id: dict = {}
    for m in t.get("meters") or []:
        by_id.setdefault(m["id"], []).append(m)
    for mid, ms in by_id.items():
        marks = {int(k): x for k, x in (ms[0].get("marks") or {}).items()}
        spaces: dict = {}  # the same meaning on several spaces is said once
        for k, x in sorted(marks.items()):
            spaces.setdefault(x, []).append(str(k))
        legend = " · ".join(f"{', '.join(ks)}: {x}" for x, ks in spaces.items())
        out.append(f"[b]{e(ms[0]['label'])}[/]" + (f" [dim]({e(legend)})[/]" if legend else ""))
        width = max(len(_pname(t, m.get("owner"))) if m.get("owner") is not None else 0 for m in ms)
        for m in ms:
            v, top = m.get("value"), m.get("max")
            owner = m.get("owner")
            who = f"[{styles.get(owner, '')}]{e(_pname(t, owner).ljust(width))}[/] " if owner is not None else ""
            if isinstance(v, int) and not isinstance(v, bool) and isinstance(top, int) and 0 < top <= 40:
                cells = []
                for i in range(1, top + 1):
                    if i <= v:
                        cells.append(f"[{styles.get(owner, METER)}]█[/]")
                    elif i in marks:
                        cells.append("[b]◆[/]")
                    else:
                        cells.append("[dim]·[/]")
                out.append(f"  {who}▕{''.join(cells)}▏ {v}/{top}")
            else:
                out.append(f"  {who}[b]{e('-' if v is None else v)}[/]" + (f" / {e(top)}" if top is not None else ""))
    return "\n".join(out)


def _piece_words(t: dict, names: dict, pieces) -> str:
    styles = player_styles(t)
    by_owner: dict = {}
    many = t.get("plurals") or {}
    for o, k, n in pieces:
        by_owner.setdefault(o, []).append(f"{n} {many.get(k) if n != 1 and k in many else names.get(k, k)}")
    parts = []
    for o, ks in by_owner.items():
        style = styles.get(o, "")
        who = _pname(t, o) if o is not None else ""
        parts.append(f"[{style}]{e(who + ' ' if who else '')}{e(', '.join(ks))}[/]" if style
                     else f"{e(who + ' ' if who else '')}{e(', '.join(ks))}")
    return "; ".join(parts)


def board(t: dict, marked: set, names: dict, width: int = 0) -> str:
    regions = t["board"]["regions"]
    if not regions:
        return "[dim](no board)[/]"
    lines = []
    from .boardmap import board_map

    drawn = board_map(t, marked, names, width)
    if drawn:
        lines += [drawn, ""]
    width = max(len(r["name"]) for r in regions)
    width = min(width, 22)
    for r in regions:
        mark = r["id"] in marked
        name = e(r["name"][:22].ljust(width))
        head = click("region", r["id"], name, "b reverse" if mark else "b")
        bits = []
        pw = _piece_words(t, names, r["pieces"])
        if pw:
            bits.append(pw)
        if r["items"]:
            bits.append(", ".join(item_markup(i) for i in r["items"]))
        for label, v in r["fields"]:
            bits.append(f"[i]{e(label)}[/] {e(v)}")
        lines.append(("▸" if mark else " ") + head + " " + (" · ".join(bits) if bits else "[dim]-[/]"))
    return "\n".join(lines)


def tableau(z: dict, marked_items: set) -> str:
    """A tableau (a layout of slots in rows): each row on its own line, cards by name."""
    rows: dict = {}
    order = []
    for slot, it in zip(z.get("slots") or [], z["items"]):
        row = slot.rstrip("0123456789") or slot
        if row not in rows:
            rows[row] = []
            order.append(row)
        rows[row].append(it)
    lines = []
    for row in order:
        cells = [item_markup(it, mark=bool(it and it.get("id") in marked_items)) for it in rows[row]]
        lines.append(f"[dim]{e(row)}[/] " + " [dim]│[/] ".join(cells))
    return "\n".join(lines)


def cards(t: dict, viewer, marked_items: set) -> str:
    """The shared zones, then the viewer's own zones, each card with its line and text."""
    shared = [z for z in t["zones"] if z.get("owner") is None]
    mine = [z for z in t["zones"] if z.get("owner") is not None and z.get("owner") == viewer]
    out = []
    for z in shared + mine:
        items = [i for i in z.get("items") or []]
        title = f"[b u]{e(z['title'])}[/]"
        if z.get("slots"):
            out.append(title)
            out.append(tableau(z, marked_items))
            takeable = [i for i in items if i and i.get("id") and i.get("available")]
            if takeable:  # the ones one may take now, in full: what they cost and do
                out.append("[dim]takeable now:[/]")
                for i in takeable:
                    out.append(("[reverse]▸[/]" if i["id"] in marked_items else " ") + item_markup(i, long=True))
            continue
        if z.get("hidden"):
            known = [i for i in items if i]
            out.append(f"{title} [dim]{z['count']} hidden[/]" + (": " + ", ".join(item_markup(i) for i in known) if known else ""))
            continue
        real = [i for i in items if i]
        if not real:
            out.append(f"{title} [dim]-[/]")
            continue
        out.append(title)
        for i in real:
            out.append(("[reverse]▸[/]" if i.get("id") in marked_items else " ") + item_markup(i, long=True))
    return "\n".join(out) if out else "[dim](no cards)[/]"


def subjects(option: dict) -> set:
    """The ids an option is about: its arguments' values, or the value chosen."""
    out = set()
    for v in (option.get("args") or {}).values():
        if isinstance(v, str):
            out.add(v)
    if isinstance(option.get("value"), str):
        out.add(option["value"])
    return out


def details(t: dict, ident: str, names: dict) -> str | None:
    """A card, tile, token or region in full (what the viewer may see of it), or None."""
    for r in t["board"]["regions"]:
        if r["id"] == ident:
            lines = [f"[b]{e(r['name'])}[/] [dim](region)[/]"]
            pw = _piece_words(t, names, r["pieces"])
            lines.append("pieces: " + (pw or "none"))
            if r["items"]:
                lines.append("here: " + ", ".join(item_markup(i) for i in r["items"]))
            for label, v in r["fields"]:
                lines.append(f"{e(label)}: {e(v)}")
            for k, v in (r.get("props") or {}).items():
                lines.append(f"[dim]{e(k)}:[/] {e(v)}")
            near = []
            for c in t["board"]["connections"]:
                if c["a"] == ident or c["b"] == ident:
                    other = c["b"] if c["a"] == ident else c["a"]
                    nm = next((x["name"] for x in t["board"]["regions"] if x["id"] == other), other)
                    arrow = "→ " if c["directed"] and c["a"] == ident else "← " if c["directed"] else ""
                    near.append(arrow + click("look", other, e(nm)) + (f" [dim]({e(c['kind'])})[/]" if c.get("kind") else ""))
            if near:
                lines.append("connected to: " + ", ".join(near))
            return "\n".join(lines)
    for it in all_items(t):
        if it.get("id") == ident:
            where = where_is(t, ident)
            return item_details(it) + (f"\n[dim]where:[/] {e(where)}" if where else "")
    return None


def item_details(it: dict) -> str:
    """A card, tile or token in full: name, its line (cost...), its text, its properties."""
    lines = [f"[b {item_style(it)}]{e(it['name'])}[/] [dim]({e(it.get('type') or 'item')}"
             + (", face down" if it.get("face") == "down" else "") + ")[/]"]
    if it.get("line"):
        lines.append(f"[i]{e(it['line'])}[/]")
    if it.get("text"):
        lines.append(e(it["text"]))
    for k, v in (it.get("props") or {}).items():
        lines.append(f"[dim]{e(k)}:[/] {e(v)}")
    return "\n".join(lines)


def all_items(t: dict):
    for z in t["zones"]:
        for it in z.get("items") or []:
            if it:
                yield it
    for r in t["board"]["regions"]:
        for it in r["items"]:
            if it:
                yield it


def where_is(t: dict, ident: str) -> str:
    for z in t["zones"]:
        for it in z.get("items") or []:
            if it and it.get("id") == ident:
                return z["title"] + (f" ({it['slot']})" if it.get("slot") else "")
    for r in t["board"]["regions"]:
        if any(i.get("id") == ident for i in r["items"]):
            return r["name"]
    return ""


def find(t: dict, words: str) -> list[tuple[str, str]]:
    """(id, name) of the regions and visible items whose id or name holds the words."""
    w = words.lower().strip()
    out, seen = [], set()
    for r in t["board"]["regions"]:
        if w in r["id"].lower() or w in r["name"].lower():
            out.append((r["id"], r["name"]))
            seen.add(r["id"])
    for it in all_items(t):
        i = it.get("id")
        if i and i not in seen and (w in i.lower() or w in str(it.get("name", "")).lower()):
            out.append((i, it["name"]))
            seen.add(i)
    exact = [x for x in out if x[0].lower() == w or x[1].lower() == w]
    return exact or out
