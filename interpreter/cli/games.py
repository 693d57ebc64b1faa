"""`lotr-rules games`: the games there are, with their player counts, seats, options and mods."""
from __future__ import annotations

from .common import console as _console, escape, known_games


def add_arguments(p) -> None:
    p.add_argument("--json", action="store_true", help="print the list as JSON")


def run(args) -> int:
    import json

    from .. import load_game
    from ..errors import RuleError
    from ..loading.loader import GAMES_DIR

    out = []
    for name in known_games():
        folder = GAMES_DIR / name
        entry = {"game": name, "folder": str(folder), "mods": sorted(m.parent.name for m in folder.glob("mods/*/mod.yaml"))}
        try:
            r = load_game(str(folder)).rules
        except RuleError as exc:
            entry.update(title=name, error=f"{len(exc.diagnostics)} problem(s) in its rule files")
            out.append(entry)
            continue
        counts = sorted(r.seats) or [len(r.players)]
        seats = {n: list(r.seats[n]) for n in counts} if r.seats else {len(r.players): list(r.players)}
        entry.update(title=r.title, players=counts, seats=seats, default_players=getattr(r, "default_players", None) or max(counts),
                     default_agent=r.default_agents or "random",
                     options={k: {"default": d.get("default"), "choices": d.get("choices"), "doc": d.get("doc", "")}
                              for k, d in r.options.items()})
        out.append(entry)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    from rich.table import Table

    t = Table(title="games (lotr-rules play GAME)")
    for col in ("game", "title", "players", "seats (--as SEAT)", "computer plays", "options", "mods"):
        t.add_column(col)
    for e in out:
        opts = "\n".join(f"{k}={'|'.join(map(str, o['choices'])) if o['choices'] else o['default']}"
                         f" (default {o['default']})" for k, o in (e.get("options") or {}).items())
        seats = "\n".join(f"{n}: {', '.join(s)}" for n, s in (e.get("seats") or {}).items())
        t.add_row(e["game"], escape(e.get("title", "")), e.get("error") or "/".join(map(str, e["players"])),
                  escape(seats or "-"), e.get("default_agent", ""), escape(opts or "-"), ", ".join(e["mods"]) or "-")
    _console().print(t)
    return 0
