"""`lotr-rules play`: the full-screen table on a terminal, line mode with --plain or without a
terminal; --help names each game's real default agent; a save made at the table resumes."""
import io
import re
import sys

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.cli.play import default_agents


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


class _Stdin(io.StringIO):
    def __init__(self, text="", tty=False):
        super().__init__(text)
        self._tty = tty

    def isatty(self):
        return self._tty


def test_play_plain_without_a_terminal_plays_to_the_end(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin())
    code, out, err = run(["play", "duel", "--plain", "--agents", "random,random", "--seed", "3"], capsys)
    assert code == 0, err
    assert "winners:" in out and "Traceback" not in out + err


def test_a_person_without_a_terminal_is_replaced_by_the_computer(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin())
    code, out, err = run(["play", "confrontation", "--agents", "human,random", "--seed", "4",
                          "--option", "placement=random"], capsys)
    assert code == 0, err
    assert "no terminal on standard input" in err and "winners:" in out


def test_the_full_screen_table_opens_on_a_terminal_and_not_with_plain(capsys, monkeypatch):
    import interpreter.cli.tui as tui

    calls = []
    monkeypatch.setattr(tui, "run_table", lambda game, st, seat, agents, options=None, save_log=None:
                        calls.append((game.name, dict(seat))) or 0)
    monkeypatch.setattr(sys, "stdin", _Stdin(tty=True))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    code, out, err = run(["play", "duel", "--seed", "2"], capsys)
    assert code == 0 and calls == [("duel", {"fellowship": "human", "sauron": "greedy:4"})]
    # --plain keeps the line mode: it reads the person's choices from standard input
    monkeypatch.setattr(sys, "stdin", _Stdin("q\n", tty=True))
    code, out, err = run(["play", "duel", "--plain", "--seed", "2", "--agents", "human,random"], capsys)
    assert len(calls) == 1 and code == 0
    assert "choose:" in out or "choose" in out
    # the cards one may take now, in words under the layout: name, price and what each does
    import re

    text = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", out).split())
    assert "takeable now:" in text and "c1_12 Treasure: 2 coins · you pay 0" in text


def test_play_help_names_each_games_default_agent(capsys):
    code, out, err = run(["play", "--help"], capsys)
    assert code == 0
    text = " ".join(out.split())
    for game, agent in default_agents().items():
        assert f"{game} {agent}" in text
    for game in ("duel", "confrontation", "risk"):
        want = load_game(game).rules.default_agents
        assert want and re.match(r"(greedy|mcts)(:\d+)?$", want), game  # a worthy opponent, not random
        assert default_agents()[game] == want
    assert "--plain" in out


def test_a_save_made_at_the_table_resumes_in_line_mode(tmp_path, capsys, monkeypatch):
    from interpreter.agents import make_agent
    from interpreter.cli.tui.session import Session

    game = load_game("duel")
    st = game.new_game(seed=5)
    s = Session(game, st, {"fellowship": "human", "sauron": "random"}, {"sauron": make_agent("random", 1)})
    s.advance()
    s.choose(s.st.legal_actions()[0].id)
    s.advance()
    path = tmp_path / "g.json"
    assert "saved to" in s.save(str(path))
    monkeypatch.setattr(sys, "stdin", _Stdin())
    code, out, err = run(["play", "--load", str(path), "--plain", "--agents", "random,random"], capsys)
    assert code == 0, err
    assert "winners:" in out


def test_bad_usage_of_play_is_one_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin())
    for argv in (["play", "duel", "--agents", "human,bogus", "--plain"], ["play", "nosuchgame", "--plain"],
                 ["play", "--load", "/no/such/save.json"], ["play", "duel", "--plain", "--bogus"]):
        code, out, err = run(argv, capsys)
        assert code == 2, argv
        assert "Traceback" not in out + err


@pytest.mark.parametrize("name", ["duel", "confrontation", "risk"])
def test_every_game_has_a_worthy_default_agent(name):
    agent = load_game(name).rules.default_agents
    assert agent is not None and not agent.startswith("random")


def test_a_bug_inside_the_table_ends_it_with_one_line_and_exit_3(capsys, monkeypatch):
    """No traceback ever reaches the person: an exception inside the table is said in one line."""
    import interpreter.cli.tui as tui
    from interpreter.cli.tui import app as app_mod

    def broken(self, t):
        raise RuntimeError("boom")

    monkeypatch.setattr(app_mod.TableApp, "_show", broken)
    monkeypatch.setattr(app_mod.TableApp, "run", lambda self, **kw: self.run_async_headless())

    async def headless(self):
        async with self.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    async def run_async_headless(self):
        try:
            await headless(self)
        except Exception:
            pass
    app_mod.TableApp.run_async_headless = lambda self: __import__("asyncio").run(run_async_headless(self))
    game = load_game("duel")
    st = game.new_game(seed=1)
    from interpreter.agents import make_agent
    code = tui.run_table(game, st, {"fellowship": "human", "sauron": "random"}, {"sauron": make_agent("random", 1)})
    out = capsys.readouterr()
    assert code == 3
    assert "internal error" in out.err and "boom" in out.err and "Traceback" not in out.out + out.err
