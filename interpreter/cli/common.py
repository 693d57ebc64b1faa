"""What the commands share: reading a game named on the command line, options, agents and
seats, checked before anything runs; errors of usage as UsageError (exit 2)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import RuleError


class UsageError(Exception):
    """Bad usage: an unknown game, option, agent or file; a value out of range. Exit 2."""


def console(stderr=False):
    """A rich console; written to a file or a pipe (no terminal to fit), as wide as its tables
    need (up to 200 columns, COLUMNS saying otherwise), so that names are never cut."""
    import os

    from rich.console import Console

    c = Console(stderr=stderr, highlight=False)
    if not c.is_terminal and "COLUMNS" not in os.environ:
        c = Console(stderr=stderr, highlight=False, width=200)
    return c


def escape(text) -> str:
    """Text from the rules, shown literally (rich would read '[...]' as markup)."""
    from rich.markup import escape as rich_escape

    from ..errors import one_line

    return rich_escape(one_line(text) if "\n" not in str(text) else str(text))


def known_games() -> list[str]:
    from ..loading.loader import GAMES_DIR

    return sorted(p.parent.name for p in GAMES_DIR.glob("*/game.yaml")) if GAMES_DIR.is_dir() else []


def game_dir(name: str) -> Path:
    """The folder of a game named on the command line, or UsageError with a did-you-mean."""
    from ..errors import did_you_mean
    from ..loading.loader import resolve_game_dir

    p = resolve_game_dir(name)
    if (p / "game.yaml").is_file():
        return p
    games = known_games()
    hint = did_you_mean(name, games)
    raise UsageError(f"no game {name!r}" + (f"; {hint}" if hint else "") +
                     f" (games: {', '.join(games)}; or a folder holding game.yaml)")


def load(name: str, mods=()):
    """Load a game with its mods; rule-file problems are printed and end the command (exit 1);
    a game or mod that does not exist is a UsageError (exit 2)."""
    from .. import load_game

    root = game_dir(name)
    check_mods(root, mods)
    try:
        return load_game(str(root), mods=mods)
    except RuleError as exc:
        for d in exc.diagnostics:
            print(str(d), file=sys.stderr)
        print(f"{len(exc.diagnostics)} problem(s) in the rule files of {name}", file=sys.stderr)
        raise SystemExit(1) from None


def check_mods(root: Path, mods) -> None:
    """Each mod named on the command line exists (a folder holding mod.yaml), else UsageError."""
    from ..loading.mods import resolve_mod_dir

    for m in mods:
        folder = resolve_mod_dir(m, root)
        if not (folder / "mod.yaml").is_file():
            have = sorted(q.parent.name for q in (root / "mods").glob("*/mod.yaml"))
            raise UsageError(f"no mod {m!r} for {root.name}" +
                             (f" (its mods: {', '.join(have)}; or a folder holding mod.yaml)" if have
                              else " (a mod is a folder holding mod.yaml)"))


def game_dirs(path: str) -> list[Path]:
    """The game folders a path names: one game, or every game in a folder of games."""
    from ..loading.loader import resolve_game_dir

    p = resolve_game_dir(path)
    if (p / "game.yaml").is_file():
        return [p]
    if p.is_dir():
        found = sorted(q.parent for q in p.glob("*/game.yaml"))
        if found:
            return found
    return [p]


def options(game, pairs) -> dict:
    """--option name=value pairs, values read as YAML scalars (3, true, discard) and checked
    against the option's choices. Each mistake is one line saying what to write instead: a pair
    naming no option (`=3`), an unknown name, a name without its value (only an option whose
    values are true and false may be named alone, for true), a value not among the choices."""
    from ..errors import did_you_mean
    from ..loading.yamlread import scalar

    opts = game.rules.options
    listed = ", ".join(opts) or "none"
    out = {}
    for pair in pairs or []:
        name, eq, value = pair.partition("=")
        name = name.strip()
        if not name:
            raise UsageError(f"--option {pair!r} names no option: write --option NAME=VALUE "
                             f"(options of {game.name}: {listed})")
        if name not in opts:
            hint = did_you_mean(name, opts)
            raise UsageError(f"unknown option {name[:40]!r} for {game.name}" + (f"; {hint}" if hint else "")
                             + f" (options: {listed}; `lotr-rules games` lists their values)")
        choices, default = opts[name].get("choices"), opts[name].get("default")
        flag = isinstance(default, bool) or bool(choices) and all(isinstance(c, bool) for c in choices)
        if not value.strip():
            if flag and not eq:
                out[name] = True
                continue
            raise UsageError(f"--option {name} needs a value: write --option {name}=VALUE"
                             + (f", VALUE one of {', '.join(map(_shown, choices))}" if choices else "")
                             + (f" (default {_shown(default)})" if default is not None else ""))
        try:
            out[name] = scalar(value)
        except ValueError as exc:
            raise UsageError(f"option {name}: {value!r} is not a value ({exc}; write e.g. {name}=3)") from None
        if type(default) is int and type(out[name]) is not int:
            raise UsageError(f"option {name} is a whole number, not {value.strip()!r}: "
                             f"write e.g. --option {name}={default}")
        if choices is not None and out[name] not in choices:
            raise UsageError(f"option {name} is one of {', '.join(map(_shown, choices))}, not {value.strip()!r}: "
                             f"write e.g. --option {name}={_shown(choices[0])}")
    try:
        return game.check_options(out)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _shown(v) -> str:
    """A value as written on the command line (true, not True)."""
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def seats(game, players) -> tuple:
    try:
        return game.seating(players)
    except ValueError as exc:
        alone = ("; to play alone, take one seat (--as SEAT, `lotr-rules games` lists them) and the "
                 "computer plays the others" if str(players).strip() == "1" else "")
        raise UsageError(f"{exc}{alone}") from None


def agent_names(game, text, seated, humans_allowed=False) -> list[str]:
    """One agent name per seat (one name stands for all), each a known agent."""
    from ..agents import AGENTS, agent_known

    names = [a.strip() for a in str(text).split(",")]
    if len(names) == 1:
        names = names * len(seated)
    if len(names) != len(seated):
        raise UsageError(f"--agents needs {len(seated)} names, one per seat ({', '.join(seated)}), "
                         f"or one name for all")
    for a in names:
        if a == "human" and humans_allowed:
            continue
        if not agent_known(a):
            raise UsageError(f"unknown agent {a!r}; agents: {', '.join(AGENTS)}"
                             + (", human" if humans_allowed else "")
                             + " (with a number of 1 or more: greedy:DEPTH, mcts:ITERATIONS, ismcts:ITERATIONS)")
    return names


def writable_file(path: str | None, what: str) -> None:
    """Check before a game that a file can be written there (not a folder, the folder exists)."""
    if path is None:
        return
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{what} {path!r} is a folder, not a file")
    if not p.parent.exists():
        raise UsageError(f"{what} {path!r}: the folder {str(p.parent)!r} does not exist")


# where each kind of file read on the command line comes from: said when one is missing or broken
MADE_BY = {"save": "saves are written with `s FILE` during play",
           "game log": "game logs are written by lotr-rules play --save-log FILE"}


def read_text(path: str, what: str) -> str:
    from ..engine.saves import MAX_SAVE_BYTES
    from ..loading.loader import read_bounded

    try:
        raw = read_bounded(path, MAX_SAVE_BYTES)  # (a device such as /dev/zero has no end)
        if raw is None:
            raise UsageError(f"{what} {path!r} is larger than {MAX_SAVE_BYTES // 2**20} MB")
        return raw.decode("utf-8")
    except FileNotFoundError:
        raise UsageError(f"{what} {path!r} does not exist" + _made_by(what)) from None
    except IsADirectoryError:
        raise UsageError(f"{what} {path!r} is a folder, not a file") from None
    except UnicodeDecodeError:
        raise UsageError(f"{what} {path!r} is not UTF-8 text") from None
    except (OSError, ValueError) as exc:  # (ValueError: a name holding a NUL character)
        raise UsageError(f"{what} {path!r} cannot be read: {getattr(exc, 'strerror', None) or exc}") from None


def read_json(path: str, what: str):
    """(text, data) of a JSON file; UsageError naming `what` the file should be if it is not."""
    text = read_text(path, what)
    try:
        return text, json.loads(text)
    except (ValueError, RecursionError):
        made = f"; {MADE_BY[what]}" if what in MADE_BY else ""
        raise UsageError(f"{path!r} is not a {what}: it is not JSON (cut short, or not written by lotr-rules"
                         f"{made})") from None


def _made_by(what: str) -> str:
    return f" ({MADE_BY[what]})" if what in MADE_BY else ""
