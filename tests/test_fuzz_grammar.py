"""Grammar fuzzing through the whole checker (hypothesis): random expressions and statements of
the effect language, put into a real game, go through check_game (parse, names, types, code
generation) without ever crashing; those that check clean load and run, and anything that
goes wrong while they run is an EngineError in rule terms, the state left as it was."""
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import EngineError, check_game, load_game

TOY = Path(__file__).resolve().parent / "games" / "toy"

NAMES = ["score[me]", "score[red]", "secret[me]", "log_order", "edge_hits", "current", "me", "red", "blue",
         "table", "bag", "hand[me]", "cups", "swords", "suits", "c1", "c2", "none", "true", "false",
         "north", "south", "pawn", "x", "nosuchname"]
FUNCS = ["count", "sum", "min", "max", "size", "empty", "top", "range", "distinct", "sort", "flatten",
         "players", "regions", "adjacent", "pieces", "zone_of", "total", "other", "any", "all", "roll",
         "keys", "get", "reach", "distance", "is_facedown", "known_to", "nosuchfunction"]

atoms = st.one_of(st.sampled_from(NAMES), st.integers(-5, 99999).map(str),
                  st.sampled_from(["'text'", "'cups'", '""']))


def _exprs():
    return st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or", "in",
                                              "not in"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            inner.map(lambda e: f"not {e}"), inner.map(lambda e: f"-{e}"),
            st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
            st.tuples(inner, inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"[v for v in {t[1]} if {t[0]}]"),
            st.tuples(st.sampled_from(FUNCS), st.lists(inner, max_size=3)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(inner, st.sampled_from(["value", "suit", "name", "nope"])).map(lambda t: f"{t[0]}.{t[1]}"),
        ),
        max_leaves=12)


EXPR = _exprs()
STMT = st.one_of(
    EXPR.map(lambda e: f"let y = {e}"),
    EXPR.map(lambda e: f"log_order = {e}"),
    EXPR.map(lambda e: f"score[me] += {e}"),
    st.tuples(EXPR, EXPR).map(lambda t: f"if {t[0]} {{ log('{{}}', {t[1]}) }} else {{ }}"),
    EXPR.map(lambda e: f"repeat {e} {{ edge_hits += 1 }}"),
    EXPR.map(lambda e: f"for v in {e} {{ log('{{}}', v) }}"),
    EXPR.map(lambda e: f"choose v in {e} label pick_one optional"),
    EXPR.map(lambda e: f"move({e}, table)"),
    EXPR.map(lambda e: f"place(pawn, me, {e}, north)"),
    EXPR.map(lambda e: f"emit scored(by=me, n={e})"),
    EXPR.map(lambda e: f"one_of what {{ a if {e} {{ }} b {{ log('b') }} }}"),
    EXPR.map(lambda e: f"reveal_to({e}, me)"),
    st.just("return"),
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=int(__import__("os").environ.get("LOTR_FUZZ", "120")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(body=st.lists(STMT, min_size=1, max_size=4), cond=EXPR)
def test_any_text_goes_through_the_checker_and_runs_safely(workdir, body, cond):
    game = workdir / "g"
    if game.exists():
        shutil.rmtree(game)
    shutil.copytree(TOY, game, ignore=shutil.ignore_patterns("mods"))
    text = (game / "game.yaml").read_text()
    block = "\n".join("      " + line for line in body)
    text = text.replace("  pass:\n    do: log('{} passes', me)",
                        f"  pass:\n    if: {cond!r}\n    do: |\n{block}\n      log('done')")
    (game / "game.yaml").write_text(text)
    diags = check_game(str(game))               # never raises
    assert not [d for d in diags if d.code == "E999"], diags
    if any(d.severity == "error" for d in diags):
        return
    try:
        st_ = load_game(str(game)).new_game(seed=1)
    except EngineError:                          # the move's condition fails at the first decision
        return
    for _ in range(6):                           # run it: failures are EngineErrors, state unchanged
        if st_.over:
            break
        try:
            acts = st_.legal_actions()
        except EngineError:
            return
        before = st_.to_json()
        a = next((x for x in acts if x.id == "pass"), acts[0])
        try:
            st_.apply(a, atomic=True)
        except EngineError:
            assert st_.to_json() == before
            return
