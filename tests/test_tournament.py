"""`lotr-rules tournament` (interpreter/cli/tournament.py): agents play each other from every
seat; standings with an Elo and its interval, pairs with Wilson intervals; bad usage is one line
and exit code 2."""
from __future__ import annotations

import contextlib
import io
import json
import math
import sys
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli import build_parser, main, simulate, tournament
from interpreter.cli.common import UsageError
from interpreter.cli.stats import wilson

TTT = "tools/bench_games/tic_tac_toe"
TEAMS = str(Path(__file__).parent / "games" / "teams")


def run_args(argv):
    args = build_parser().parse_args(["tournament", *argv])
    return args.func(args)


def test_tournament_json(capsys):
    assert main(["tournament", TTT, "--agents", "random,mcts:40,ismcts:40", "--games", "8", "--json",
                 "--workers", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games_per_pair"] == 8 and len(out["pairs"]) == 3
    for p in out["pairs"]:
        assert p["games"] == 8 and p["a_wins"] + p["draws"] + p["b_wins"] == 8
        assert set(p["by_side"]) == {"x", "o"} and all(v["games"] == 4 for v in p["by_side"].values())
        assert sum(v["a_wins"] for v in p["by_side"].values()) == p["a_wins"]
        lo, hi = wilson(p["a_wins"] + p["draws"] / 2, 8)
        assert (p["ci_low"], p["ci_high"]) == (round(lo, 4), round(hi, 4))
        assert p["ci_low"] <= p["a_score"] <= p["ci_high"]
    st = {s["agent"]: s for s in out["standings"]}
    assert st["random"]["elo"] < st["mcts:40"]["elo"] and st["random"]["elo"] < st["ismcts:40"]["elo"]
    assert all(s["elo_low"] <= s["elo"] <= s["elo_high"] and s["games"] == 16 for s in st.values())
    assert abs(sum(s["elo"] for s in st.values())) < 0.5  # ratings are centred
    assert [s["agent"] for s in out["standings"]] == sorted(st, key=lambda a: -st[a]["elo"])


def _lineups(monkeypatch, argv) -> dict:
    """{line-up: seeds} that a tournament sends to its workers (the games are not played)."""
    sent = []

    def fake_run_tasks(tasks, workers, backend, address, advance):
        sent.extend(tasks)
        return [[{"seed": s, "winners": [], "victory": None, "scores": None, "actions": 1} for s in t[2]]
                for t in tasks]

    monkeypatch.setattr(tournament, "run_tasks", fake_run_tasks)
    with contextlib.redirect_stdout(io.StringIO()):
        assert run_args([*argv, "--json", "--workers", "1"]) == 0
    lineups = {}
    for t in sent:
        lineups.setdefault(tuple(t[1]), []).extend(t[2])
    return lineups


def test_tournament_pairs_play_the_same_seeds_from_both_seats(monkeypatch):
    """Each pair plays seed k both ways round: the line-ups sent to the workers."""
    lineups = _lineups(monkeypatch, [TTT, "--agents", "random,greedy:1", "--games", "6"])
    assert lineups == {("random", "greedy:1"): [1, 2, 3], ("greedy:1", "random"): [1, 2, 3]}


def test_tournament_table(capsys):
    assert main(["tournament", TTT, "--agents", "random,mcts,ismcts", "--games", "4", "--budget", "10",
                 "--workers", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert "Elo" in out and "95% interval" in out and "W-D-L" in out and "by side" in out
    assert "mcts:10" in out and "ismcts:10" in out and "10 iterations a move (--budget)" in out


def test_tournament_plays_team_against_team(capsys, monkeypatch):
    """Four seats in two teams: each agent plays a whole team, each team in turn."""
    lineups = _lineups(monkeypatch, [TEAMS, "--players", "4", "--agents", "greedy,random", "--games", "8"])
    g = load_game(TEAMS)
    teams = list(g.teams(4).values())
    seated = g.seating(4)
    assert len(lineups) == 2
    for lineup, seeds in lineups.items():
        assert seeds == [1, 2, 3, 4]
        greedy_seats = {p for p, a in zip(seated, lineup) if a == "greedy"}
        assert any(greedy_seats == set(t) for t in teams)
    assert main(["tournament", TEAMS, "--players", "4", "--agents", "greedy,random", "--games", "8", "--json",
                 "--workers", "1"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert len(pair["by_side"]) == 2 and pair["games"] == 8


def test_tournament_lone_seat_goes_round_without_teams(monkeypatch):
    """Risk for three, no teams: one agent alone at each seat in turn against the other."""
    lineups = _lineups(monkeypatch, ["risk", "--players", "3", "--agents", "random,greedy:1", "--games", "6"])
    assert sorted(lineups) == sorted([("random", "greedy:1", "greedy:1"), ("greedy:1", "random", "greedy:1"),
                                      ("greedy:1", "greedy:1", "random")])
    assert all(seeds == [1, 2] for seeds in lineups.values())


def test_tournament_usage_errors():
    for argv, msg in ([[TTT, "--agents", "random"], "two or more"],
                      [[TTT, "--agents", "random,random"], "twice"],
                      [[TTT, "--agents", "mcts,mcts:30"], "twice"],  # mcts is mcts:30 here
                      [[TTT, "--agents", "random,oracle"], "unknown agent"],
                      [[TTT, "--agents", "random,greedy", "--games", "0"], "--games"],
                      [[TTT, "--agents", "random,greedy", "--budget", "0"], "--budget"],
                      [[TTT, "--agents", "random,greedy", "--workers", "0"], "--workers"],
                      [[TTT, "--agents", "random,greedy", "--address", "auto"], "--address"]):
        with pytest.raises(UsageError, match=msg):
            run_args(argv)


def _one_line_error(capsys, argv, expect):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and expect in err, err


def test_tournament_bad_usage_is_one_line_and_exit_2(capsys, monkeypatch):
    _one_line_error(capsys, ["tournament", "duel", "--agents", "random,oracle"], "unknown agent 'oracle'")
    _one_line_error(capsys, ["tournament", "no-such-game", "--agents", "random,greedy"], "no-such-game")
    monkeypatch.setitem(sys.modules, "ray", None)  # Ray not installed
    _one_line_error(capsys, ["tournament", "duel", "--agents", "random,greedy", "--backend", "ray"],
                    "pip install 'lotr-rules[ray]'")
    monkeypatch.undo()
    monkeypatch.setattr(simulate, "ray_available", lambda: True)
    _one_line_error(capsys, ["tournament", "duel", "--agents", "random,greedy", "--backend", "ray",
                             "--address", "ray://nohost"], "write auto, HOST:PORT")


def test_elo_fit():
    """A beats B 3 games in 4: Bradley-Terry puts them 400*log10(3) = 191 Elo apart, a little less
    with the prior's half point each; the fit is converged (a warm start gives the same)."""
    elo, strengths = tournament._fit(["a", "b"], [("a", "b", 75, 25)])
    assert 170 < elo["a"] - elo["b"] < 191 and abs(elo["a"] + elo["b"]) < 1e-9
    again, _ = tournament._fit(["a", "b"], [("a", "b", 75, 25)], start=strengths)
    assert abs(again["a"] - elo["a"]) < 1e-6
    # three agents in a chain: a > b > c, each beating the next 3 in 4 (a-c not played)
    elo3, _ = tournament._fit(["a", "b", "c"], [("a", "b", 75, 25), ("b", "c", 75, 25)])
    assert elo3["a"] > elo3["b"] > elo3["c"]
    gap = 400 * math.log10(3)
    assert 0.8 * gap < elo3["a"] - elo3["b"] < gap and 0.8 * gap < elo3["b"] - elo3["c"] < gap
