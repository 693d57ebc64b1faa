"""The line-mode table: players, board, zones, as the game's display: section describes them
(the full-screen table is cli/tui)."""
from __future__ import annotations

from .common import escape


def _fmt_value(rules, v):
    if isinstance(v, list):
        return " ".join("/".join(map(str, x)) if isinstance(x, list) else rules.display(x) for x in v) or "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return rules.display(v)


def _zone_text(st, zid, viewer):
    from rich.text import Text

    rules = st.rules
    zd = rules.zones[zid]
    items = st.zones[zid]
    hidden = zd.visibility == "hidden" or (zd.visibility == "owner" and zd.owner != viewer)
    if hidden:
        return Text(f"{sum(1 for i in items if i is not None)} hidden")
    if zd.tableau:
        from ..engine.primitives import IMPL

        avail = set(IMPL["available"](st, zid))
        rows, order = {}, []
        for slot, it in zip(zd.slot_names, items):
            row = slot.rstrip("0123456789") or slot
            if row not in rows:
                rows[row] = []
                order.append(row)
            rows[row].append(it)
        t = Text()
        width = max(len(rows[r]) for r in order) if order else 0
        for r in order:
            t.append("  " * (width - len(rows[r])) + f"{r}: ", style="dim")
            for it in rows[r]:
                if it is None:
                    t.append("  ·   ", style="dim")
                elif it in st.facedown:
                    t.append(" [?]  ", style="dim")
                else:
                    t.append(f" {it} ", style="bold green" if it in avail else "")
            t.append("\n")
        if avail:  # the ones one may take now, in words: what each is, costs and does
            from ..engine.table import item

            t.append("takeable now:\n", style="dim")
            for it in (i for i in items if i in avail):
                info = item(rules, st, it, viewer)
                t.append(f"  {it} ", style="bold green")
                t.append(info["name"])
                if info.get("line"):
                    t.append(f" · {info['line']}", style="italic")
                if info.get("text"):
                    t.append(f" — {info['text']}", style="dim")
                t.append("\n")
        return t
    if not items:
        return Text("-", style="dim")
    return Text(", ".join(("?" if rules.item_owner.get(i) != viewer else f"{i} ({rules.display(i)})")
                          if i in st.facedown else f"{i} ({rules.display(i)})" for i in items if i))


def _item_look(st, item, viewer) -> str:
    """An item as the viewer sees it: its name, '?' when its face is hidden from the viewer,
    and a '*' when it lies face up for everyone."""
    if item not in st.facedown:
        return f"{st.rules.display(item)}*"
    return st.rules.display(item) if st.rules.item_owner.get(item) == viewer else "?"


def render(st, viewer, console):
    from rich.panel import Panel
    from rich.table import Table

    rules = st.rules
    # players
    pt = Table(title=rules.title, expand=True)
    pt.add_column("player", style="bold", overflow="fold")
    for label in rules.hud["players"]:
        pt.add_column(label, overflow="fold")  # (a narrow terminal wraps a heading, never cuts it)
    for p in st.seats:
        cells = []
        for label, f in rules.hud["players"].items():
            try:
                cells.append(escape(_fmt_value(rules, f(st, {"me": p}))))
            except Exception:  # a display expression must never break the game
                cells.append("?")
        name = f"▶ {p}" if p == st.current_player else p
        pt.add_row(name, *cells)
    console.print(pt)
    # board
    if rules.regions:
        bt = Table(title="board", expand=True)
        bt.add_column("region")
        big = len(rules.regions) > 20  # a large board: one line per region, no neighbour list
        if not big:
            bt.add_column("adjacent", style="dim")
        owned = rules.owned_kinds
        on_board = [f for f, keys in rules.zone_families.items() if keys == rules.regions]
        extra = rules.hud["regions"]
        if big:
            # one line per region where something stands: every owner's pieces, the items there,
            # and the game's own region columns (display: regions:)
            bt.add_column("pieces")
            bt.add_column("on the board")
            for label in extra:
                bt.add_column(label)
            by_loc: dict = {}
            for (k, o, loc), n in st.pieces.items():
                if loc in rules.props and n:
                    by_loc.setdefault(loc, {}).setdefault(o, []).append(rules.counted(n, k))
            for r in rules.regions:
                items = [_item_look(st, it, viewer) for fam in on_board for it in st.zones[f"{fam}.{r}"]]
                cols = _region_columns(st, extra, viewer, r)
                pieces = "; ".join(f"{rules.display(o) if o else ''}: {', '.join(ks)}" for o, ks in by_loc.get(r, {}).items())
                if pieces or items or any(cols):
                    bt.add_row(rules.display(r), pieces, ", ".join(items), *cols)
            cols = []
        else:
            # the seated players, and any other army with pieces on the board (a neutral army)
            cols = [p for p in rules.players
                    if p in st.seats or any(o == p and loc in rules.props for (_, o, loc) in st.pieces)]
            for p in cols:
                bt.add_column(p)
            for label in extra:
                bt.add_column(label)
        for r in rules.regions if not big else []:
            cells = []
            for p in cols:
                parts = [rules.counted(st.pieces[(k, p, r)], k) for k in owned if st.pieces.get((k, p, r), 0)]
                for fam in on_board:
                    for it in st.zones[f"{fam}.{r}"]:
                        if rules.item_owner.get(it) == p:
                            parts.append(_item_look(st, it, viewer))
                cells.append(", ".join(parts))
            cells += _region_columns(st, extra, viewer, r)
            near = dict.fromkeys(rules.adj.get(r, ()) + tuple(rules.adj_in.get("", {}).get(r, ())))
            bt.add_row(rules.display(r), ", ".join(rules.display(a) for a in near), *cells)
        console.print(bt)
    for text, f in rules.hud["zones"]:
        try:
            zid = f(st, {"me": viewer})
        except Exception:
            continue
        if zid in rules.zones:
            console.print(Panel(_zone_text(st, zid, viewer), title=zid, expand=True))
    for fam in rules.hud["player_zones"]:
        for p in st.seats:
            zid = f"{fam}.{p}"
            if zid in rules.zones and st.zones[zid]:
                console.print(f"[bold]{zid}[/]: ", _zone_text(st, zid, viewer))


def _region_columns(st, extra, viewer, r) -> list:
    """The game's own board columns (display: regions:) for region r; empty when none/false/0."""
    cells = []
    for f in extra.values():
        try:
            v = f(st, {"me": viewer, "r": r})
        except Exception:
            v = None
        cells.append("" if v in (None, False, 0, "", []) else _fmt_value(st.rules, v))
    return cells
