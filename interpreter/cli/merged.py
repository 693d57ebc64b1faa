"""`lotr-rules merged GAME --mod M`: the rules after the mods, as YAML, each entry with the
file and line that set it."""
from __future__ import annotations

import sys

from .common import check_mods, game_dir


def run(args) -> int:
    """The game's rules after its mods, as YAML; each entry is preceded by the file and line
    that last set it."""
    import yaml

    from .. import check_game
    from ..loading.loader import load_spec

    root = game_dir(args.game)
    check_mods(root, args.mod)  # (a mod that does not exist is a usage error, as in every command)
    args.game = str(root)
    diags = [d for d in check_game(args.game, mods=args.mod) if d.severity == "error"]
    if diags:
        for d in diags:
            print(str(d), file=sys.stderr)
        return 1
    spec = load_spec(args.game, args.mod)
    src = spec.game.source
    route = getattr(src, "route", lambda path: (src, path))

    def origin(source, path) -> str:
        return f"# {source.display}:{source.pos(path, key=bool(path))[0]}"

    class Dumper(yaml.SafeDumper):  # effect text over several lines stays a readable | block
        pass

    Dumper.add_representer(str, lambda d, v: d.represent_scalar(
        "tag:yaml.org,2002:str", v, style="|" if "\n" in v else None))

    def dump(value, indent: str) -> str:
        text = yaml.dump(value, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=100).rstrip("\n")
        return "\n".join(indent + line for line in text.split("\n"))

    out = []
    for section, value in spec.game.value.items():
        if isinstance(value, dict) and value:
            out.append(f"{section}:")
            for key, entry in value.items():
                out.append("  " + origin(*route((section, key))))
                out.append(dump({key: entry}, "  "))
        elif isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
            out.append(f"{section}:")
            for i, entry in enumerate(value):
                out.append("  " + origin(*route((section, entry.get("id", i)) if section in ("triggers", "listeners")
                                                else (section, i))))
                out.append(dump([entry], "  "))
        else:
            out.append(origin(*route((section,))))
            out.append(dump({section: value}, ""))
    for title, table in (("regions", spec.regions), ("items", spec.items)):
        out.append(f"{title}:")
        for name, e in table.items():
            out.append("  " + origin(e.source, e.path))
            out.append(dump({name: e.value}, "  "))
    out.append("connections:")
    for e in spec.connections:
        out.append("  " + origin(e.source, e.path))
        out.append(dump([e.value], "  "))
    print("\n".join(out))
    return 0
