"""The benchmark games of tools/bench_games/ (tic-tac-toe, Kuhn poker): they validate, their
YAML scenarios pass, random playouts end with a sound result, and Kuhn poker's expected payoff
under uniform random play is the known 1/8 — computed exactly by enumerating the game tree,
for our game and (when it is installed) for OpenSpiel's, which tools/bench_vs_openspiel.py
times ours against.
"""
from __future__ import annotations

import contextlib
import io
import random
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import check_game, load_game
from interpreter.scenario import apply_setup, load_scenarios, run_file

BENCH = Path(__file__).resolve().parents[1] / "tools" / "bench_games"
TTT = BENCH / "tic_tac_toe"
KUHN = BENCH / "kuhn_poker"
LINES = [("c1", "c2", "c3"), ("c4", "c5", "c6"), ("c7", "c8", "c9"), ("c1", "c4", "c7"),
         ("c2", "c5", "c8"), ("c3", "c6", "c9"), ("c1", "c5", "c9"), ("c3", "c5", "c7")]
CARDS = ["jack", "queen", "king"]

_games = {}


def game(folder: Path):
    if folder not in _games:
        _games[folder] = load_game(str(folder))
    return _games[folder]


def random_playouts(g, n=200, seed=7):
    rng = random.Random(seed)
    for s in range(n):
        st = g.new_game(seed=s)
        while not st.is_terminal():
            acts = st.legal_actions()
            assert acts, f"seed {s}: a decision without legal actions"
            st.apply(acts[rng.randrange(len(acts))])
        yield s, st


@pytest.mark.parametrize("folder", [TTT, KUHN], ids=lambda p: p.name)
def test_validates_without_errors_or_warnings(folder):
    assert check_game(str(folder)) == []


@pytest.mark.parametrize("folder", [TTT, KUHN], ids=lambda p: p.name)
def test_scenarios_pass(folder):
    files = sorted((folder / "scenarios").glob("*.yaml"))
    assert files, f"{folder.name} has no scenarios"
    count = sum(1 for f in files for _ in load_scenarios(f))
    assert count >= 8
    fails = [msg for f in files for msg in run_file(game(folder), f)]
    assert not fails, "\n".join(fails)


def test_tic_tac_toe_random_playouts_end_in_a_line_or_a_full_grid():
    ends = {"line": 0, "draw": 0}
    for s, st in random_playouts(game(TTT)):
        marked = {p: set(st.zones[f"marked.{p}"]) for p in ("x", "o")}
        has_line = {p: any(set(line) <= marked[p] for line in LINES) for p in marked}
        if st.victory == "line":
            assert len(st.winners) == 1, f"seed {s}: {st.winners}"
            w = st.winners[0]
            assert has_line[w] and not has_line["o" if w == "x" else "x"], f"seed {s}"
        else:
            assert st.victory == "draw" and st.winners == [], f"seed {s}: {st.victory} {st.winners}"
            assert len(marked["x"]) == 5 and len(marked["o"]) == 4 and not any(has_line.values()), f"seed {s}"
        assert len(marked["x"]) - len(marked["o"]) in (0, 1), f"seed {s}: x moves first, turns alternate"
        ends[st.victory] += 1
    assert ends["line"] > 0 and ends["draw"] > 0


def test_kuhn_random_playouts_pay_one_or_two_chips_and_sum_to_zero():
    payoffs = set()
    for s, st in random_playouts(game(KUHN)):
        assert st.scores is not None, f"seed {s}: no payoff"
        scores = [st.scores[p] for p in st.seats]
        assert sum(scores) == 0, f"seed {s}: {scores}"
        assert all(abs(x) in (1, 2) for x in scores), f"seed {s}: {scores}"
        assert st.winners and scores[st.seats.index(st.winners[0])] > 0, f"seed {s}"
        assert st.victory in ("showdown", "fold")
        payoffs.add(scores[0])
    assert payoffs == {-2, -1, 1, 2}


def test_kuhn_cards_are_dealt_secretly():
    st = game(KUHN).new_game(seed=3)
    mine = st.view("first")["zones"]
    theirs = st.view("second")["zones"]
    assert len(mine["hand.first"]) == 1 and mine["hand.second"] == {"count": 1}
    assert len(theirs["hand.second"]) == 1 and theirs["hand.first"] == {"count": 1}
    assert mine["deck"] == {"count": 1}


# ----------------------------------------------------------------- exact expected payoff
def our_kuhn_value() -> Fraction:
    """First player's expected payoff when both players pick uniformly at random, over the 6
    equally likely deals (fixed with the scenario set-up API), by walking the whole tree."""
    g = game(KUHN)

    def value(st):
        if st.is_terminal():
            return Fraction(st.scores["first"])
        acts = st.legal_actions()
        return sum(value(st.clone().apply(a.id)) for a in acts) / len(acts)

    deals = [(a, b) for a in CARDS for b in CARDS if a != b]
    total = Fraction(0)
    for a, b in deals:
        st = g.new_game(seed=0)
        apply_setup(st, {"move_all": {"hand.first": "deck", "hand.second": "deck"},
                         "items": {a: "hand.first", b: "hand.second"}})
        total += value(st)
    return total / len(deals)


def openspiel_kuhn_value(pyspiel) -> Fraction:
    """The same for OpenSpiel's kuhn_poker; its chance nodes (the deal) are uniform."""
    g = pyspiel.load_game("kuhn_poker")

    def value(s):
        if s.is_terminal():
            return Fraction(s.returns()[0])  # whole chips: exact as a float
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert all(abs(p - 1 / len(outcomes)) < 1e-12 for _, p in outcomes)
            return sum(value(s.child(a)) for a, _ in outcomes) / len(outcomes)
        acts = s.legal_actions()
        return sum(value(s.child(a)) for a in acts) / len(acts)

    return value(g.new_initial_state())


def test_kuhn_expected_payoff_under_random_play_is_one_eighth():
    # first bets (1/2): called -> an even showdown, folded to (1/4) -> +1;
    # first checks (1/2): checked back -> even showdown, bet (1/4): called -> even, folded (1/8) -> -1
    assert our_kuhn_value() == Fraction(1, 8)


def test_kuhn_expected_payoff_matches_openspiel():
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import pyspiel
    except ImportError:
        pytest.skip("OpenSpiel is not installed (pip install open_spiel==1.6.11, Python 3.11): "
                    "nothing to compare our Kuhn poker with")
    theirs = openspiel_kuhn_value(pyspiel)
    assert theirs == Fraction(1, 8)
    assert our_kuhn_value() == theirs
