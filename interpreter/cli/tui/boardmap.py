"""A small board drawn at its regions' positions (a board of up to 24 regions)."""
from __future__ import annotations

from .panes import click, e, player_styles


def board_map(t: dict, marked: set, names: dict, width: int) -> str | None:
    """A small board drawn at its regions' positions: each region's name and, right after it on
    the same row, each owner's pieces and items (count and kind initial, in the owner's colour), so
    a count is never read as another region's. None when the board is large, has no positions, the
    pane is narrow, or a region's label finds no free place near its position (the list below says
    everything anyway)."""
    regions = t["board"]["regions"]
    if not (2 <= len(regions) <= 24) or width < 60 or any(not r.get("pos") for r in regions):
        return None
    styles = player_styles(t)
    xs = [r["pos"][0] for r in regions]
    ys = [r["pos"][1] for r in regions]
    label_w = 15
    gap = 2  # spaces at least between two labels on a row, so one label is never read as the next's
    cols = width - 1
    xr, yr = (max(xs) - min(xs)) or 1, (max(ys) - min(ys)) or 1
    rows = max(6, min(12, round((cols - label_w) * yr / xr * 0.45) + 2))
    grid: dict = {}  # row -> [(col, length, markup)]
    kinds_seen: dict = {}

    def free(row, col, n):
        return all(col + n + gap <= c or c + ln + gap <= col for c, ln, _ in grid.get(row, []))

    for r in regions:
        name = r["name"].split(" (")[0][:label_w]
        pieces = {}
        for o, k, n in r["pieces"]:
            pieces.setdefault(o, []).append((k, n))
        for it in r["items"]:
            o = it.get("owner") or (it.get("props") or {}).get("side")
            pieces.setdefault(o, []).append(("?" if it.get("id") is None else "item", 1))
        bits, plain = [], 0
        for o, ks in pieces.items():
            agg: dict = {}
            for k, n in ks:
                agg[k] = agg.get(k, 0) + n
            text = "".join(f"{n}{'' if k in ('item', '?') else str(names.get(k, k))[:1]}" for k, n in agg.items())
            for k in agg:
                if k not in ("item", "?"):
                    kinds_seen[str(names.get(k, k))[:1]] = names.get(k, k)
            bits.append(f"[{styles.get(o, '')}]{e(text)}[/]" if o in styles else e(text))
            plain += len(text) + 1
        n = len(name) + plain  # the name, then " " and the counts on the same row
        if n > cols:
            return None
        col0 = min(int((r["pos"][0] - min(xs)) / xr * (cols - label_w)), cols - n)
        row0 = int((r["pos"][1] - min(ys)) / yr * (rows - 1))
        spot = None
        for dr in (0, 1, -1, 2, -2):  # near its place: a row up or down, then a little left or right
            for dc in (0, -4, 4, -8, 8):
                rr, cc = row0 + dr, col0 + dc
                if 0 <= rr < rows and 0 <= cc <= cols - n and free(rr, cc, n):
                    spot = (rr, cc)
                    break
            if spot:
                break
        if spot is None:
            return None  # too crowded at this width: the list says it all
        row, col = spot
        style = "b reverse" if r["id"] in marked else "b"
        label = click("region", r["id"], e(name), style) + ("".join(" " + b for b in bits))
        grid.setdefault(row, []).append((col, n, label))
    lines = []
    for row in range(rows):
        out, at = "", 0
        for col, n, markup in sorted(grid.get(row, [])):
            out += " " * (col - at) + markup
            at = col + n
        lines.append(out)
    while lines and not lines[-1]:
        lines.pop()
    if kinds_seen:
        lines.append("[dim]" + e(" · ".join(f"{k} {v}" for k, v in kinds_seen.items())) + "[/]")
    return "\n".join(lines)
