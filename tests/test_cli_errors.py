"""Every command with bad arguments: one line on stderr, exit 2, never a traceback (issue:
hardened against bad input). Rule failures exit 1; internal errors 3."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _files(tmp):
    (tmp / "folder").mkdir(exist_ok=True)
    (tmp / "latin1.yaml").write_bytes(b"- name: caf\xe9\n  cites: x\n  expect: [true]\n")
    (tmp / "notjson.json").write_text("{nope")
    (tmp / "wrongtypes.json").write_text(json.dumps({"game": "duel", "seed": "abc", "actions": 3}))
    (tmp / "badactions.json").write_text(json.dumps({"game": "duel", "seed": 1, "actions": [1, 2]}))
    (tmp / "list.json").write_text("[1, 2]")
    (tmp / "badsave.json").write_text(json.dumps({"game": "duel", "format": 1, "seed": 1}))
    (tmp / "infinity.json").write_text('{"game": "duel", "format": 1, "seed": Infinity}')
    return tmp


BAD = [
    ([], "COMMAND"),
    (["bogus"], "invalid choice"),
    (["validate"], "required"),
    (["validate", "no_such_game"], "no game 'no_such_game'"),
    (["validate", "dule"], "did you mean 'duel'"),
    (["validate", "duel", "--format", "xml"], "invalid choice"),
    (["validate", "duel", "--mod", "no_such_mod"], "no mod 'no_such_mod'"),
    (["play", "nope"], "no game 'nope'"),
    (["play", "duel", "--option", "x=[unclosed"], "unknown option 'x'"),
    (["play", "duel", "--option", "set_aside=[unclosed"], "is not a value"),
    (["play", "duel", "--option", "set_aside=nowhere"], "one of discard, box"),
    (["play", "duel", "--option", "set_aside=!!bool maybe"], "'maybe' is not a !!bool"),
    (["simulate", "duel", "--option", "set_aside=!!timestamp x"], "'x' is not a !!timestamp"),
    (["merged", "duel", "--mod", "le\x00aders"], "holds a NUL character"),
    (["validate", "a" * 300], "File name too long"),
    (["test", "a" * 300], "File name too long"),
    (["replay", "/dev/zero"], "larger than 64 MB"),
    (["play", "--load", "{tmp}/infinity.json"], "Infinity is no number a save holds"),
    (["play", "duel", "--agents", "foo,bar"], "unknown agent 'foo'"),
    (["play", "duel", "--agents", "mcts:0"], "unknown agent 'mcts:0'"),
    (["play", "duel", "--agents", ","], "unknown agent ''"),
    (["play", "duel", "--agents", "random,random,random"], "needs 2 names"),
    (["play", "duel", "--seed", "abc"], "invalid int value"),
    (["play", "duel", "--players", "5"], "played by 2 players"),
    (["play", "duel", "--save-log", "{tmp}/folder", "--agents", "random"], "is a folder"),
    (["play", "duel", "--save-log", "{tmp}/nowhere/log.json", "--agents", "random"], "does not exist"),
    (["play", "duel", "--load", "{tmp}/missing.json"], "does not exist"),
    (["play", "duel", "--load", "{tmp}/notjson.json"], "not a save"),
    (["play", "duel", "--load", "{tmp}/badsave.json"], "error"),
    (["play", "--load", "{tmp}/list.json"], "not a save"),
    (["play"], "name a game"),
    (["play", "duel", "--as", "fellowshp"], "did you mean 'fellowship'"),
    (["play", "duel", "--as", "sauron", "--agents", "random"], "not both"),
    (["play", "duel", "--as", "fellowship,fellowship"], "names the seat fellowship twice"),
    (["play", "duel", "--as", "sauron, fellowship,sauron"], "names the seat sauron twice"),
    (["play", "war-of-the-ring", "--players", "4", "--as", "shadow"], "seats: gondor_player, rohan_player"),
    (["simulate", "duel", "--games", "0"], "--games must be 1 or more"),
    (["simulate", "duel", "--games", "-3"], "--games must be 1 or more"),
    (["simulate", "duel", "--workers", "0"], "--workers must be 1 or more"),
    (["simulate", "duel", "--agents", "greedy:x"], "unknown agent 'greedy:x'"),
    (["simulate", "duel", "--players", "3"], "played by 2 players"),
    (["simulate", "duel", "--mod", "nothing"], "no mod 'nothing'"),
    (["simulate", "risk", "--players", "7"], "played by 2, 3, 4 players"),
    (["replay", "{tmp}/missing.json"], "does not exist"),
    (["replay", "{tmp}/folder"], "is a folder"),
    (["replay", "{tmp}/notjson.json"], "not a game log"),
    (["replay", "{tmp}/wrongtypes.json"], "not a game log"),
    (["replay", "{tmp}/badactions.json"], "actions must be texts"),
    (["test", "nope"], "no game 'nope'"),
    (["test", "duel", "{tmp}/missing.yaml"], "does not exist"),
    (["test", "duel", "{tmp}/latin1.yaml"], "not UTF-8"),
    (["test", "duel", "--mod", "nope"], "no mod 'nope'"),
    (["schema", "bogus"], "unknown kind 'bogus'"),
    (["cards", "duel", "--type", "bogus"], "no item type 'bogus'"),
    (["cards", "nope"], "no game 'nope'"),
    (["merged", "nope"], "no game 'nope'"),
    (["merged", "duel", "--mod", "nosuch"], "no mod 'nosuch'"),
]


@pytest.mark.parametrize("argv, says", BAD, ids=[" ".join(a) or "(nothing)" for a, _ in BAD])
def test_bad_usage_is_one_line_and_exit_2(tmp_path, capsys, argv, says):
    _files(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code = main(argv)
    out = capsys.readouterr()
    assert code == 2, (code, out.out[-500:], out.err[-500:])
    assert says in out.err, out.err
    assert "Traceback" not in out.out + out.err
    assert len([ln for ln in out.err.splitlines() if ln.startswith(("error:", "lotr-rules"))]) >= 1


def test_the_console_script_prints_no_traceback_either(tmp_path):
    """A few of the same through the installed command, a separate process."""
    exe = Path(sys.executable).parent / "lotr-rules"
    for argv in (["play", "duel", "--agents", "mcts:0"], ["simulate", "duel", "--games", "0"],
                 ["validate", "nope"], ["cards", "duel", "--type", "bogus"]):
        res = subprocess.run([str(exe), *argv], capture_output=True, text=True, timeout=60)
        assert res.returncode == 2 and "Traceback" not in res.stderr + res.stdout, res.stderr
        assert len(res.stderr.strip().splitlines()) <= 2, res.stderr


def test_version_and_help(capsys):
    assert main(["--version"]) == 0 and "lotr-rules" in capsys.readouterr().out
    assert main(["play", "--help"]) == 0 and "--agents" in capsys.readouterr().out


def test_an_internal_error_is_one_line_and_exit_3(monkeypatch, capsys):
    import interpreter.cli.schema as schema

    def boom(args):
        raise ZeroDivisionError("oops")
    monkeypatch.setattr(schema, "run", boom)
    from interpreter.cli import build_parser  # noqa: F401 (the parser binds run when built)
    code = main(["schema", "game"])
    err = capsys.readouterr().err
    assert code == 3 and "internal error (ZeroDivisionError: oops)" in err and "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_game_log_that_cannot_be_written_is_a_one_line_error(capsys):
    """--save-log to a device that refuses writes passes the check before the game (it is a
    file in a folder that exists) and fails after it: one line naming the file, exit 2."""
    code = main(["play", "duel", "--agents", "random", "--seed", "1", "--save-log", "/dev/full"])
    err = capsys.readouterr().err
    assert code == 2 and "the game log could not be written to '/dev/full'" in err and "Traceback" not in err


def test_output_cut_short_by_its_reader_ends_quietly():
    """`lotr-rules merged war-of-the-ring | head -1`: the reader closes the pipe; the command
    stops with exit 0 and says nothing (a broken pipe is no error of the user's, and is not
    taken for a file that cannot be written)."""
    exe = Path(sys.executable).parent / "lotr-rules"
    p = subprocess.Popen([str(exe), "merged", "war-of-the-ring"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout.readline().startswith(b"#")
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0 and err == "", err


# Each mistake is one line naming the problem and what to write instead (exit 2): --option
# without its value, naming no option, an unknown one, a value of the wrong kind, for every
# command that takes options; argparse's own errors with the fix and where the usage is; saves
# and game logs that are missing, broken, or of the other kind.
FIXES = [
    (["play", "duel", "--option", "set_aside"],
     "--option set_aside needs a value: write --option set_aside=VALUE, VALUE one of discard, box"),
    (["simulate", "duel", "--option", "set_aside"], "write --option set_aside=VALUE"),
    (["tournament", "duel", "--agents", "random,greedy:1", "--option", "set_aside"],
     "write --option set_aside=VALUE"),
    (["serve", "duel", "--option", "set_aside"], "write --option set_aside=VALUE"),
    (["play", "duel", "--option", "set_aside="], "write --option set_aside=VALUE"),
    (["play", "duel", "--option", "=3"], "--option '=3' names no option: write --option NAME=VALUE"),
    (["serve", "duel", "--option", "=3"], "names no option"),
    (["simulate", "duel", "--option", "nosuch=3"], "unknown option 'nosuch' for duel (options: set_aside;"),
    (["play", "duel", "--option", "set_aside=nowhere"],
     "option set_aside is one of discard, box, not 'nowhere': write e.g. --option set_aside=discard"),
    (["play", "{root}/tests/games/saltroad", "--option", "rounds=abc"],
     "option rounds is a whole number, not 'abc': write e.g. --option rounds=10"),
    (["play", "{root}/tests/games/saltroad", "--option", "rounds"], "VALUE one of 6, 8, 10, 12 (default 10)"),
    (["play", "duel", "--option"],
     "lotr-rules play: error: argument --option: expected one argument; write --option NAME=VALUE"),
    (["simulate", "duel", "--option"], "(see lotr-rules simulate --help)"),
    (["play", "duel", "--seed"], "argument --seed: expected one argument; write --seed VALUE (see lotr-rules play --help)"),
    (["simulate", "duel", "--games", "abc"], "invalid int value: 'abc'; write a whole number after --games"),
    (["tournament", "duel"], "required: --agents (see lotr-rules tournament --help)"),
    (["test", "duel", "--option", "x=1"],
     "lotr-rules test: error: unrecognized arguments: --option x=1; the command does not take these"),
    (["play", "duel", "--bogus"], "lotr-rules play: error: unrecognized arguments: --bogus"),
    (["tournament", "nogame", "--agents", "random,random"], "no game 'nogame'"),
    (["serve", "nogame"], "no game 'nogame'"),
    (["tournament", "duel", "--agents", "random,random", "--mod", "nomod"], "no mod 'nomod' for duel"),
    (["play", "--load", "{tmp}/missing.json"], "does not exist (saves are written with `s FILE` during play)"),
    (["serve", "--load", "{tmp}/missing.json"], "does not exist (saves are written with `s FILE` during play)"),
    (["play", "--load", "{tmp}/notjson.json"], "is not a save: it is not JSON (cut short, or not written by"),
    (["serve", "--load", "{tmp}/notjson.json"], "is not a save: it is not JSON"),
    (["replay", "{tmp}/notjson.json"], "game logs are written by lotr-rules play --save-log FILE"),
    (["replay", "{tmp}/missing.json"], "game logs are written by lotr-rules play --save-log FILE"),
    (["replay", "{tmp}/save.json"], "is a save, not a game log: resume it with lotr-rules play --load"),
    (["play", "--load", "{tmp}/log.json"], "is a game log, not a save: check it with lotr-rules replay"),
    (["play", "--load", "{tmp}/othergame.json"], "the save's game: no game 'nogame'"),
]


@pytest.mark.parametrize("argv, says", FIXES, ids=[" ".join(a) for a, _ in FIXES])
def test_a_mistake_is_one_line_naming_the_problem_and_the_fix(tmp_path, capsys, argv, says):
    from interpreter import load_game

    _files(tmp_path)
    st = load_game("duel").new_game(seed=1)
    (tmp_path / "save.json").write_text(st.to_json())
    (tmp_path / "othergame.json").write_text(json.dumps({**json.loads(st.to_json()), "game": "nogame"}))
    (tmp_path / "log.json").write_text(json.dumps({"game": "duel", "seed": 1, "actions": []}))
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{root}", str(ROOT)) for a in argv]
    code = main(argv)
    out = capsys.readouterr()
    assert code == 2, (code, out.err)
    assert says in out.err, out.err
    assert len(out.err.strip().splitlines()) == 1, out.err  # no usage block: one line
    assert "Traceback" not in out.out + out.err


def test_a_true_or_false_option_may_be_named_alone(tmp_path):
    """`--option NAME` alone means true, for an option whose values are true and false only."""
    from interpreter.cli.common import UsageError, options

    class Game:
        name = "g"

        class rules:
            options = {"fast": {"default": False}, "mode": {"default": "a", "choices": ["a", "b"]}}

        @staticmethod
        def check_options(given):
            return given

    assert options(Game, ["fast"]) == {"fast": True}
    assert options(Game, ["fast=false"]) == {"fast": False}
    with pytest.raises(UsageError, match="--option mode needs a value"):
        options(Game, ["mode"])
