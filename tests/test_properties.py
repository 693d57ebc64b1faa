"""Property-based checks (hypothesis): the skill matcher against brute force, and game
invariants, saves and clones along arbitrary action sequences."""
import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.engine.primitives import shortfall_of
from test_engine import invariants

SYMS = ["a", "b", "c", "d"]
provider = st.one_of(st.sampled_from(SYMS), st.lists(st.sampled_from(SYMS), min_size=2, max_size=3, unique=True))


def brute_shortfall(required, providers):
    need = [s for s, n in required.items() for _ in range(n)]
    options = [p if isinstance(p, list) else [p] for p in providers]
    best = len(need)
    for pick in itertools.product(*options) if options else [()]:
        left = list(need)
        for s in pick:
            if s in left:
                left.remove(s)
        best = min(best, len(left))
    return best


@given(st.dictionaries(st.sampled_from(SYMS), st.integers(0, 3), max_size=4), st.lists(provider, max_size=6))
def test_shortfall_is_the_optimal_matching(required, providers):
    assert shortfall_of(required, providers) == brute_shortfall(required, providers)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=150))
def test_any_action_sequence_keeps_invariants_saves_and_clones(duel, seed, picks):
    state = duel.new_game(seed=seed)
    for i, k in enumerate(picks):
        if state.is_terminal():
            break
        acts = state.legal_actions()
        state.apply(acts[k % len(acts)])
        invariants(state)
        if i % 10 == 0:
            text = state.to_json()
            assert duel.state_from_json(text).to_json() == text
            assert state.clone().to_json() == text


def test_a_provider_that_is_no_symbol_gives_none_on_every_path_of_the_matcher():
    """primitives._shortfall: symbols only, with one provider of alternatives, with several,
    and the general path (providers given as a tuple): a map among the providers covers
    nothing, and is no error."""
    need = {"a": 1, "b": 1}
    assert shortfall_of(need, [{"x": 1}, "a"]) == 1
    assert shortfall_of(need, [{"x": 1}, "a", ["b", "c"]]) == 0
    assert shortfall_of(need, [{"x": 1}, ["a", "c"], ["b", "c"]]) == 0
    assert shortfall_of(need, ({"x": 1}, "a")) == 1
    assert shortfall_of(need, ({"x": 1}, ["a", "c"], ["b", "c"])) == 0
