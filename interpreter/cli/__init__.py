"""The ``lotr-rules`` command line: one module per command, sharing cli/common.py (games, mods,
options, agents and seats named on the command line) and cli/playout.py (one game played by
agents). Nothing here knows a game: what is shown comes from the game's ``display:`` section.

Exit codes, the same for every command: 0 done; 1 a rule or test failure (rule-file errors, a
failing scenario, a log that does not replay, a rule failing while the game runs); 2 bad usage
(an unknown game, mod, option, agent or file, a value out of range: one line on stderr);
3 an internal error (a bug of lotr-rules: one line, with where to report it); 130 interrupted.
No command ever prints a Python traceback.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..errors import EngineError, SaveError
from . import cards, games, merged, play, replay, schema, serve, simulate, test, tournament, validate
from .common import UsageError

REPORT = "please report it to the lotr-rules project with the command you ran and the output of lotr-rules --version"


def version() -> str:
    try:
        from importlib.metadata import version as v

        return v("lotr-rules")
    except Exception:
        return "unknown"


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage in one line (exit 2): what is wrong, what to write instead
    when that can be said, and where the command's usage is (its --help)."""

    def error(self, message):
        print(f"{self.prog}: error: {message}{_fix(message)} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def _fix(message: str) -> str:
    """What to write instead, for argparse's messages that do not say it."""
    import re

    flag = re.match(r"argument (-[\w-]+|\w+)", message)
    flag = flag.group(1).split("/")[-1] if flag else None
    if flag == "--option" and "expected one argument" in message:
        return "; write --option NAME=VALUE, with an option that `lotr-rules games` lists"
    if flag and "expected one argument" in message:
        return f"; write {flag} VALUE"
    if flag and "invalid int value" in message:
        return f"; write a whole number after {flag}" if flag.startswith("-") else "; write a whole number"
    if message.startswith("unrecognized arguments"):
        return "; the command does not take these"
    return ""


def _mod_option(p):
    p.add_argument("--mod", action="append", default=[], metavar="PATH",
                   help="apply a mod: a folder holding mod.yaml, or a name under the game's mods/ "
                        "(repeatable, applied in order)")


def _option_option(p):
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a game option (repeatable); `lotr-rules games` lists each game's options")


def _players_option(p):
    p.add_argument("--players", type=int, metavar="N",
                   help="number of players, for games played by several counts (default: the game's)")


def _game_command(sub, name, help_text, module):
    """A command that plays a game: its module's arguments, then --option, --players and --mod."""
    p = sub.add_parser(name, help=help_text)
    module.add_arguments(p)
    _option_option(p)
    _players_option(p)
    _mod_option(p)
    p.set_defaults(func=module.run)


def build_parser():
    ap = _Parser(prog="lotr-rules", description="Run board games from YAML rule files.")
    ap.add_argument("--version", action="version", version=f"lotr-rules {version()}")
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser, metavar="COMMAND")
    ap.commands = sub.choices  # name -> the command's parser (its errors name its usage)

    p = sub.add_parser("validate", help="check rule files; print path:line:col problems")
    p.add_argument("paths", nargs="+", help="game names, game folders, or a folder of games")
    p.add_argument("--format", choices=["text", "json", "github"], default="text",
                   help="text (default), json for tools, github for GitHub Actions annotations")
    _mod_option(p)
    p.set_defaults(func=validate.run)

    _game_command(sub, "play", "play or watch a game in the terminal", play)

    _game_command(sub, "simulate", "play many games between agents and report statistics", simulate)
    _game_command(sub, "tournament", "agents play each other from every seat; Elo and win rates with intervals",
                  tournament)

    p = sub.add_parser("replay", help="re-run a saved game log and check it matches")
    p.add_argument("log", help="a game log written by play --save-log")
    p.add_argument("-v", "--verbose", action="store_true", help="print each action")
    _mod_option(p)
    p.set_defaults(func=replay.run)

    p = sub.add_parser("test", help="run YAML rule scenarios: test GAME [FILE...], test GAMES_FOLDER, test FILE...")
    p.add_argument("game", help="a game (its scenarios and its mods'), a folder of games, or a scenario file")
    p.add_argument("files", nargs="*", help="scenario files (default: the game's and its mods' scenarios/)")
    _mod_option(p)
    p.set_defaults(func=test.run)

    p = sub.add_parser("schema", help="print the JSON Schema of a kind of rule file (or 'dsl')")
    p.add_argument("kind", nargs="?", help="game, board, cards, mod, scenario, common or dsl")
    p.set_defaults(func=schema.run)

    p = sub.add_parser("merged", help="print a game's rules after its mods, each entry with the file that set it")
    p.add_argument("game")
    _mod_option(p)
    p.set_defaults(func=merged.run)

    p = sub.add_parser("games", help="list the games with their player counts, options and mods")
    games.add_arguments(p)
    p.set_defaults(func=games.run)

    p = sub.add_parser("serve", help="play in the browser: a local server drawing each game's board")
    serve.add_arguments(p)
    p.set_defaults(func=serve.run)

    p = sub.add_parser("cards", help="list a game's cards, tiles and tokens with what they do")
    p.add_argument("game")
    p.add_argument("--type", help="only items of this type")
    p.add_argument("--code", action="store_true", help="show each item's effect code instead of its text")
    _mod_option(p)
    p.set_defaults(func=cards.run)
    return ap


def _options_first(argv: list) -> list:
    """Put each `--mod VALUE` right after the command, so it may also follow a list of files
    (`test GAME FILE... --mod X`), which argparse cannot mix with a variable positional list."""
    if not argv:
        return argv
    head, rest, mods = argv[:1], argv[1:], []
    i = 0
    while i < len(rest):
        if rest[i] == "--mod" and i + 1 < len(rest):
            mods += rest[i:i + 2]
            i += 2
        else:
            head.append(rest[i])
            i += 1
    return head[:1] + mods + head[1:]


def main(argv=None) -> int:
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        for a in argv:
            if "\0" in a:  # (no file, game or option has one; the file system refuses it)
                raise UsageError(f"argument {a!r} holds a NUL character")
        ap = build_parser()
        args, extra = ap.parse_known_args(_options_first(argv))
        if extra:  # said by the command's own parser, whose usage is the one to read
            ap.commands.get(args.cmd, ap).error(f"unrecognized arguments: {' '.join(extra)}")
        return args.func(args) or 0
    except SystemExit as exc:  # argparse (2), --help/--version (0), a rule-file report (1)
        return exc.code if isinstance(exc.code, int) else 2
    except UsageError as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except SaveError as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"error: the rules failed while running: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except OSError as exc:  # a file named on the command line that cannot be used (a name too long, a full disk)
        where = f": {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"error: {exc.strerror or _one_line(exc)}{where}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug of ours: say so in one line, never a traceback
        print(f"internal error ({type(exc).__name__}: {_one_line(exc)[:200]}); {REPORT}", file=sys.stderr)
        return 3


def _one_line(exc) -> str:
    from ..errors import one_line

    return " ".join(one_line(part) for part in str(exc).split("\n"))


if __name__ == "__main__":
    sys.exit(main())
