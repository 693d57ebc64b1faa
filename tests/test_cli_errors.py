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
