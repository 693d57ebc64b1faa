"""`lotr-rules replay LOG`: play a saved game log again and check it reproduces (docs/saves.md).
Exit 0 when it does, 1 when it does not, 2 when the file is not a game log."""
from __future__ import annotations

import sys

from ..errors import EngineError, IllegalAction
from .common import UsageError, game_dir, load, read_json


def _record(path: str) -> dict:
    """A game log, its fields checked: what replay needs must be there, of the right kinds."""
    _, rec = read_json(path, "game log")
    if not isinstance(rec, dict):
        raise UsageError(f"{path!r} is not a game log (game logs are written by lotr-rules play --save-log FILE)")
    if "format" in rec and "history" in rec and "actions" not in rec:
        raise UsageError(f"{path!r} is a save, not a game log: resume it with lotr-rules play --load {path}")
    kinds = {"game": str, "seed": int, "actions": list}
    for key, kind in kinds.items():
        if not isinstance(rec.get(key), kind) or isinstance(rec.get(key), bool):
            raise UsageError(f"{path!r} is not a game log: {key!r} is missing or not a {kind.__name__}")
    if not all(isinstance(a, str) for a in rec["actions"]):
        raise UsageError(f"{path!r} is not a game log: its actions must be texts")
    for key, kind in (("options", dict), ("players", int), ("mods", list), ("root", str)):
        if rec.get(key) is not None and (not isinstance(rec[key], kind) or isinstance(rec[key], bool)):
            raise UsageError(f"{path!r} is not a game log: {key!r} is not a {kind.__name__}")
    return rec


def run(args) -> int:
    rec = _record(args.log)
    name = rec["game"]
    try:
        game_dir(name)
    except UsageError:  # a game outside games/ is found by the folder the log recorded
        if rec.get("root"):
            name = rec["root"]
    game = load(name, mods=args.mod or [m for m in rec.get("mods") or [] if isinstance(m, str)])
    if rec.get("rules_digest") and rec["rules_digest"] != game.rules.digest:
        print(f"note: the rule files changed since this log was made ({rec['rules_digest']} -> "
              f"{game.rules.digest})", file=sys.stderr)
    try:
        st = game.new_game(seed=rec["seed"], options=rec.get("options") or None, players=rec.get("players"))
    except ValueError as exc:
        raise UsageError(f"{args.log}: the log's settings cannot start a game: {exc}") from None
    for i, a in enumerate(rec["actions"], 1):
        try:
            st.apply(a)
        except IllegalAction as exc:
            print(f"{args.log}: action {i} {a!r} is illegal on replay: {exc}", file=sys.stderr)
            return 1
        except EngineError as exc:
            print(f"{args.log}: the rules failed at action {i} {a!r}: {exc}", file=sys.stderr)
            return 1
        if args.verbose:
            print(f"{i:>4} {a}")
    ok = True
    for key, val in (("winners", st.winners), ("victory", st.victory), ("scores", st.scores), ("digest", st.digest())):
        if key in rec and rec[key] != val:
            print(f"{args.log}: {key} differs on replay: log {rec[key]!r}, replay {val!r}", file=sys.stderr)
            ok = False
    print(f"replayed {len(rec['actions'])} actions: winners {', '.join(st.winners) or 'none'} ({st.victory}); "
          f"{'matches the log' if ok else 'DOES NOT match the log'}")
    return 0 if ok else 1
