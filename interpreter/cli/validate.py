"""`lotr-rules validate PATH...`: check rule files; problems as path:line:col lines (text, JSON or
GitHub annotations). Exit 0 without errors, 1 with errors, 2 for a path that holds no game."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from ..loading.loader import _display
from .common import check_mods, game_dir, game_dirs


def _github(d) -> str:
    """A diagnostic as a GitHub Actions annotation (workflow command)."""
    def esc(text, prop=False):
        text = str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return text.replace(":", "%3A").replace(",", "%2C") if prop else text
    msg = d.message + (f" (hint: {d.hint})" if d.hint else "")
    return (f"::{d.severity} file={esc(d.path, True)},line={d.line},col={d.col},"
            f"title={esc(d.code, True)}::{esc(msg)}")


def run(args) -> int:
    """Exit 0: no errors (warnings allowed); 1: errors found; 2: a path that is not a game."""
    from .. import check_game

    errors, report = 0, []
    for path in args.paths:
        dirs = game_dirs(path)
        if not any((d / "game.yaml").is_file() for d in dirs):
            game_dir(path)  # a usage error saying what is there instead
        for d in dirs:
            check_mods(d, args.mod)
            # with --mod: the game with those mods; without: the game, then each of its own mods
            runs = [args.mod] if args.mod else [[]] + [[str(m.parent)] for m in sorted(d.glob("mods/*/mod.yaml"))]
            for mods in runs:
                t = time.perf_counter()
                diags = check_game(str(d), mods=mods)
                ms = (time.perf_counter() - t) * 1000
                n_err = sum(1 for x in diags if x.severity == "error")
                errors += n_err
                name = " + ".join([_display(d)] + [Path(m).resolve().name for m in mods])
                report.append({"game": str(d), "mods": [str(m) for m in mods], "ok": n_err == 0,
                               "diagnostics": [{"path": x.path, "line": x.line, "col": x.col, "code": x.code,
                                                "severity": x.severity, "message": x.message, "hint": x.hint}
                                               for x in diags]})
                if args.format == "json":
                    continue
                for x in diags:
                    print(_github(x) if args.format == "github" else str(x), flush=True)
                warned = len(diags) - n_err
                status = (f"{n_err} error(s)" if n_err else "ok") + (f", {warned} warning(s)" if warned else "")
                print(f"{name}: {status} ({ms:.0f} ms)", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"ok": errors == 0, "errors": errors,
                          "warnings": sum(len(r["diagnostics"]) for r in report) - errors, "games": report},
                         indent=1, ensure_ascii=False))
    return 1 if errors else 0
