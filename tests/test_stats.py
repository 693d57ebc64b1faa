"""`simulate --stats` (interpreter/cli/stats.py): balance statistics per item and per choice with
intervals, game length, first-mover advantage; CSV, JSON and a plot; usage errors of simulate's
new options as one line and exit code 2."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli import build_parser, main, simulate
from interpreter.cli.common import UsageError
from interpreter.cli.stats import Recorder, aggregate, wilson

TTT = "tools/bench_games/tic_tac_toe"
KUHN = "tools/bench_games/kuhn_poker"
TEAMS = str(Path(__file__).parent / "games" / "teams")


def run(argv, capsys):
    code = main(["simulate", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_args(argv):
    """simulate.run on parsed arguments (a usage error raised, not printed)."""
    args = build_parser().parse_args(["simulate", *argv])
    return args.func(args)


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert round(wilson(10, 10)[0], 4) == 0.7225 and round(wilson(10, 10)[1], 9) == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    # narrower with more games, always around the rate
    assert wilson(50, 100)[1] - wilson(50, 100)[0] < hi - lo


def test_recorder_reads_items_and_choices_from_payloads():
    g = load_game(TTT)
    st = g.new_game(seed=1)
    rec = Recorder(g)
    a = next(a for a in st.legal_actions() if a.id == "mark:c5")
    assert rec.describe(a) == ([("c5", "mark")], "mark")  # the cell is an item of the rules
    k = load_game(KUHN)
    ks = k.new_game(seed=1)
    bet = next(a for a in ks.legal_actions() if a.id == "bet")
    assert Recorder(k).describe(bet) == ([], "bet")
    c = load_game("confrontation")
    cs = c.new_game(seed=2)
    place = cs.legal_actions()[0]
    items, choice = Recorder(c).describe(place)
    assert items and items[0][0] in c.rules.item_type_of and choice.startswith("place ")


def test_recorder_counts_a_known_game():
    """Tic-tac-toe played by hand: x marks c1, c2, c3 and wins; each mark is counted for its side."""
    g = load_game(TTT)
    st = g.new_game(seed=1)
    rec = Recorder(g)
    for aid in ("mark:c1", "mark:c4", "mark:c2", "mark:c5", "mark:c3"):
        rec(st, aid)
        st.apply(aid)
    assert st.winners == ["x"]
    r = rec.result()
    assert r["first"] == "x"
    assert r["sides"]["x"] == {"items": {"c1|mark": 1, "c2|mark": 1, "c3|mark": 1}, "choices": {"mark": 3}}
    assert r["sides"]["o"] == {"items": {"c4|mark": 1, "c5|mark": 1}, "choices": {"mark": 2}}


def _rec(winners, actions, first, sides):
    return {"winners": winners, "actions": actions, "stats": {"first": first, "sides": sides}}


def test_aggregate_counts_rates_and_intervals():
    """Four games by hand: x played c5 in three (won two), o in one (won it); x's choices twice
    in one game count two times, one game."""
    g = load_game(TTT)
    x5 = {"items": {"c5|mark": 1}, "choices": {"mark": 2}}
    o5 = {"items": {"c5|mark": 1}, "choices": {"mark": 1}}
    none = {"items": {}, "choices": {"mark": 1}}
    recs = [_rec(["x"], 5, "x", {"x": x5, "o": none}),
            _rec(["x"], 7, "x", {"x": x5, "o": none}),
            _rec(["o"], 6, "x", {"x": x5, "o": none}),
            _rec(["o"], 8, "o", {"x": none, "o": o5})]
    st = aggregate(recs, g)
    assert st["games"] == 4
    sides = {s["side"]: s for s in st["sides"]}
    assert sides["x"]["wins"] == 2 and sides["x"]["win_rate"] == 0.5
    assert (sides["x"]["ci_low"], sides["x"]["ci_high"]) == tuple(round(v, 4) for v in wilson(2, 4))
    items = {(r["side"], r["item"]): r for r in st["items"]}
    x = items[("x", "c5")]
    assert (x["times"], x["games"], x["wins"], x["win_rate"]) == (3, 3, 2, round(2 / 3, 4))
    assert (x["ci_low"], x["ci_high"]) == tuple(round(v, 4) for v in wilson(2, 3))
    assert x["side_win_rate"] == 0.5 and x["lift"] == round(2 / 3 - 0.5, 4) and x["how"] == "mark"
    o = items[("o", "c5")]
    assert (o["times"], o["games"], o["wins"]) == (1, 1, 1)
    choices = {(r["side"], r["choice"]): r for r in st["choices"]}
    assert (choices[("x", "mark")]["times"], choices[("x", "mark")]["games"]) == (7, 4)
    L = st["length"]
    assert (L["mean"], L["min"], L["max"]) == (6.5, 5, 8) and round(L["sd"], 2) == 1.29
    assert L["ci_low"] < 6.5 < L["ci_high"]
    f = st["first_player"]
    assert f["players"] == {"x": 3, "o": 1} and f["wins"] == 3 and f["win_rate"] == 0.75


def test_aggregate_first_mover_advantage():
    g = load_game(TTT)
    recs = [_rec(["x"], 5, "x", {})] * 3 + [_rec(["o"], 6, "x", {})] + [_rec([], 9, "x", {})]
    f = aggregate(recs, g)["first_player"]
    assert f["wins"] == 3 and f["win_rate"] == 0.6 and f["others_win_rate"] == 0.2 and f["advantage"] == 0.4


def test_simulate_stats_count_every_action(capsys):
    """Tic-tac-toe: every action marks one cell (an item), so the item rows' counts add up to the
    games' lengths, side by side; the choice rows too."""
    code, out, _ = run([TTT, "--games", "40", "--agents", "random", "--stats", "--json"], capsys)
    assert code == 0
    res = json.loads(out)
    st = res["stats"]
    total = round(res["length"]["mean"] * 40)
    by_side = {s: sum(r["times"] for r in st["items"] if r["side"] == s) for s in ("x", "o")}
    assert sum(by_side.values()) == total
    assert 0 <= by_side["x"] - by_side["o"] <= 40  # x moves first: one more mark in a game at most
    assert sum(r["times"] for r in st["choices"]) == total
    assert {r["item"] for r in st["items"]} == {f"c{i}" for i in range(1, 10)}
    assert all(r["games"] <= 40 and r["times"] == r["games"] for r in st["items"])  # a cell once a game
    assert st["first_player"]["players"] == {"x": 40}
    for s in st["sides"]:
        assert s["wins"] == res["wins"][s["side"]]


def test_simulate_stats_json(capsys):
    code, out, _ = run(["duel", "--games", "30", "--agents", "random", "--stats", "--json", "--seed", "4"], capsys)
    assert code == 0
    res = json.loads(out)
    st = res["stats"]
    assert st["games"] == 30 and len(st["sides"]) == 2
    for s in st["sides"]:
        assert 0 <= s["ci_low"] <= s["win_rate"] <= s["ci_high"] <= 1
    assert sum(s["wins"] for s in st["sides"]) + res["wins"]["shared"] + res["wins"]["none"] == 30
    L = st["length"]
    assert L["ci_low"] <= L["mean"] <= L["ci_high"] and L["min"] <= L["mean"] <= L["max"]
    assert L["mean"] == res["length"]["mean"]
    f = st["first_player"]
    assert list(f["players"].values()) == [30] and f["games"] == 30  # one seat always begins the Duel
    rules = load_game("duel").rules
    assert st["items"] and all(r["item"] in rules.item_type_of for r in st["items"])
    assert all(0 <= r["ci_low"] <= r["win_rate"] <= r["ci_high"] <= 1 and r["games"] <= 30 for r in st["items"])
    assert any(r["how"].startswith("take") for r in st["items"])
    assert st["choices"] and all(r["times"] >= r["games"] for r in st["choices"])
    # rows say what the side that did it won: lift is against the side's own rate
    r = st["items"][0]
    side = next(s for s in st["sides"] if s["side"] == r["side"])
    assert r["side_win_rate"] == side["win_rate"] and abs(r["lift"] - (r["win_rate"] - side["win_rate"])) < 1e-3


def test_simulate_stats_are_the_same_with_workers(capsys):
    _, a, _ = run(["confrontation", "--games", "12", "--agents", "random", "--stats", "--json"], capsys)
    _, b, _ = run(["confrontation", "--games", "12", "--agents", "random", "--stats", "--json", "--workers", "2"],
                  capsys)
    assert json.loads(a)["stats"] == json.loads(b)["stats"]


def test_simulate_stats_table_and_csv(capsys, tmp_path):
    """The printed tables, and the CSV holding the same rows and numbers as the JSON."""
    csv_path = tmp_path / "s.csv"
    code, out, _ = run(["confrontation", "--games", "20", "--agents", "random", "--csv", str(csv_path),
                        "--top", "5"], capsys)
    assert code == 0
    out = " ".join(out.split())  # the console wraps long lines
    assert "balance statistics" in out and "win rate by side" in out and "first mover" in out
    assert "items taken or played" in out and "choices" in out and f"CSV written to {csv_path}" in out
    rows = list(csv.DictReader(csv_path.open()))
    assert {r["kind"] for r in rows} == {"side", "first_player", "item", "choice"}
    assert all(float(r["ci_low"]) <= float(r["win_rate"]) <= float(r["ci_high"]) for r in rows)
    _, js, _ = run(["confrontation", "--games", "20", "--agents", "random", "--stats", "--json"], capsys)
    st = json.loads(js)["stats"]
    items = [r for r in rows if r["kind"] == "item"]
    assert len(items) == len(st["items"]) and len([r for r in rows if r["kind"] == "choice"]) == len(st["choices"])
    for r, j in zip(items, st["items"]):
        assert (r["side"], r["item"], r["how"]) == (j["side"], j["item"], j["how"])
        assert (int(r["times"]), int(r["games"]), int(r["wins"])) == (j["times"], j["games"], j["wins"])
        assert (float(r["win_rate"]), float(r["ci_low"]), float(r["ci_high"])) == (j["win_rate"], j["ci_low"],
                                                                                   j["ci_high"])
    sides = {r["side"]: int(r["wins"]) for r in rows if r["kind"] == "side"}
    assert sides == {s["side"]: s["wins"] for s in st["sides"]}


def test_simulate_plot_is_written(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'lotr-rules[plot]')")
    png = tmp_path / "s.png"
    code, out, _ = run(["confrontation", "--games", "20", "--agents", "random", "--plot", str(png)], capsys)
    assert code == 0 and f"plot written to {png}" in " ".join(out.split())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    from matplotlib.image import imread

    h, w = imread(str(png)).shape[:2]
    assert (w, h) == (1430, 1100)  # 13 x 10 inches at 110 dpi


def test_simulate_stats_for_teams(capsys):
    """Sides are teams: a team's win counts for the side whichever of its players acted."""
    code, out, _ = run([TEAMS, "--games", "12", "--players", "4", "--agents", "random", "--stats", "--json"], capsys)
    st = json.loads(out)["stats"]
    assert len(st["sides"]) == 2 and all(len(s["players"]) == 2 for s in st["sides"])
    assert {r["side"] for r in st["choices"]} <= {s["side"] for s in st["sides"]}


def test_simulate_usage_errors(tmp_path, monkeypatch):
    with pytest.raises(UsageError, match="--address is for --backend ray"):
        run_args(["duel", "--address", "auto"])
    with pytest.raises(UsageError, match="--top"):
        run_args(["duel", "--stats", "--top", "0"])
    with pytest.raises(UsageError, match="does not exist"):
        run_args(["duel", "--csv", str(tmp_path / "no" / "x.csv")])
    monkeypatch.setattr(simulate, "ray_available", lambda: False)
    with pytest.raises(UsageError, match="needs Ray"):
        run_args(["duel", "--backend", "ray"])


def _one_line_error(capsys, argv, expect):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and expect in err, err


def test_simulate_bad_usage_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch):
    """No traceback reaches the user: the command line's own entry point, exit code 2."""
    a_file = tmp_path / "f.txt"
    a_file.write_text("x")
    _one_line_error(capsys, ["simulate", "duel", "--agents", "oracle"], "unknown agent 'oracle'")
    _one_line_error(capsys, ["simulate", "duel", "--plot", str(a_file / "x.png")], "is not a folder")
    _one_line_error(capsys, ["simulate", "duel", "--plot", str(tmp_path / "none" / "x.png")], "does not exist")
    _one_line_error(capsys, ["simulate", "duel", "--plot", str(tmp_path)], "is a folder")
    _one_line_error(capsys, ["simulate", "duel", "--csv", str(a_file / "x.csv")], "is not a folder")
    if _has("matplotlib"):
        _one_line_error(capsys, ["simulate", "duel", "--plot", str(tmp_path / "x.nope")], "cannot write .nope")
    # Ray not installed (an import of it fails)
    monkeypatch.setitem(sys.modules, "ray", None)
    _one_line_error(capsys, ["simulate", "duel", "--backend", "ray"], "--backend ray needs Ray")
    monkeypatch.undo()
    # a bad --address: checked before Ray is asked (it would retry for minutes)
    monkeypatch.setattr(simulate, "ray_available", lambda: True)
    _one_line_error(capsys, ["simulate", "duel", "--backend", "ray", "--address", "nohost"], "write auto, HOST:PORT")
    _one_line_error(capsys, ["simulate", "duel", "--backend", "ray", "--address", "http://h:1"], "write auto")
    _one_line_error(capsys, ["simulate", "duel", "--backend", "ray", "--address", "h:99999"], "write auto")
    _one_line_error(capsys, ["simulate", "duel", "--backend", "ray", "--address", "127.0.0.1:1"],
                    "no Ray answers there")


def _has(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_simulate_without_plot_extra_says_what_to_install(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    _one_line_error(capsys, ["simulate", "duel", "--plot", str(tmp_path / "x.png")], "pip install 'lotr-rules[plot]'")
