"""A small board drawn at its regions' positions (a board of up to 24 regions)."""
from __future__ import annotations

from .panes import click, e, player_styles


def board_map(t: dict, marked: set, names: dict, width: int) -> str | None:
    """A small board drawn at its regions' positions: each region's name and, under it, each
    owner's pieces and items (count and kind initial, in the owner's colour). None when the board
    is large, has no positions, or the pane is narrow (the list below says everything anyway)."""
    regions = t["board"]["regions"]
    if not (2 <= len(regions) <= 24) or width < 60 or any(not r.get("pos") for r in regions):
        return None
    styles = player_styles(t)
    xs = [r["pos"][0] for r in regions]
    ys = [r["pos"][1] for r in regions]
    label_w = 15
    cols = width - 1
    xr, yr = (max(xs) - min(xs)) or 1, (max(ys) - min(ys)) or 1
    rows = max(6, min(12, round((cols - label_w) * yr / xr * 0.45) + 2))
    grid: dict = {}  # row -> [(col, length, markup)]
    kinds_seen: dict = {}

    def free(row, col, n):
        return all(col + n + 1 <= c or c2 + 1 <= col for c, c2 in ((c, c + ln) for c, ln, _ in grid.get(row, [])))

    for r in regions:
        name = r["name"].split(" (")[0][:label_w]
        col = int((r["pos"][0] - min(xs)) / xr * (cols - label_w))
        row = int((r["pos"][1] - min(ys)) / yr * (rows - 2))
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
        for dr in (0, 1, -1, 2, -2, 3):
            rr = max(0, min(rows - 2, row + dr))
            if free(rr, col, len(name)) and free(rr + 1, col, max(plain, 1)):
                row = rr
                break
        style = "b reverse" if r["id"] in marked else "b"
        grid.setdefault(row, []).append((col, len(name), click("region", r["id"], e(name), style)))
        if bits:
            grid.setdefault(row + 1, []).append((col, plain, " ".join(bits)))
    lines = []
    for row in range(rows):
        out, at = "", 0
        for col, n, markup in sorted(grid.get(row, [])):
            if col < at:
                col = at
            out += " " * (col - at) + markup
            at = col + n
        lines.append(out)
    while lines and not lines[-1]:
        lines.pop()
    if kinds_seen:
        lines.append("[dim]" + e(" · ".join(f"{k} {v}" for k, v in kinds_seen.items())) + "[/]")
    return "\n".join(lines)
