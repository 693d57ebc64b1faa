"""`lotr-rules cards GAME`: the cards, tiles and tokens of a game: name, properties and what
each does in words (its text:); --code shows the effect-language code instead."""
from __future__ import annotations

from .common import UsageError, console as _console, escape, load
from .render import _fmt_value


def run(args) -> int:
    from rich.table import Table

    from ..errors import did_you_mean

    game = load(args.game, mods=args.mod)
    r = game.rules
    if args.type and args.type not in r.item_types:
        hint = did_you_mean(args.type, r.item_types)
        raise UsageError(f"{game.name} has no item type {args.type!r}" + (f"; {hint}" if hint else "")
                         + f" (types: {', '.join(r.item_types)})")
    items = [i for i in r.items if not args.type or r.props[i]["type"] == args.type]
    t = Table(title=f"{r.title}: {len(items)} {args.type or 'item'}s")
    t.add_column("id", style="bold")
    t.add_column("type")
    t.add_column("name")
    t.add_column("properties")
    t.add_column("effect (code)" if args.code else "what it does")
    for iid in items:
        props = r.props[iid]
        shown = {k: v for k, v in props.items() if k not in ("name", "type") and v not in (None, 0, {}, [])}
        ptext = "; ".join(f"{k}={_fmt_value(r, v) if isinstance(v, list) else v}" for k, v in shown.items())
        if args.code:
            extra = (["grants " + ", ".join(f"{k}+{v}" for k, v in r.grants[iid].items())]
                     if iid in r.grants else [])
            what = "\n".join([r.item_text.get(iid, ""), *extra]).strip()
        else:
            what = r.item_words.get(iid, "")
        t.add_row(iid, props["type"], escape(props["name"]), escape(ptext), escape(what))
    _console().print(t)
    return 0
