"""Rule scenarios written in YAML: set up a position, take actions, check the outcome.

The format is documented in ``docs/scenarios.md`` and checked by
``interpreter/schemas/scenario.schema.json``: an unknown key anywhere, or a scenario that
checks nothing, is an error at its file:line:col before anything runs. In short:

    - name: a card places its pieces in the chosen region
      cites: <rulebook file> "<section>"
      setup: {vars: {current: blue}, to_act: blue, items: {card_7: market.A1}}
      actions: [take:card_7:play, choose:region:north]
      expect:
        - pieces(unit, blue, north) == 1

Failures are reported as ``file:line: scenario 'name': what went wrong``, with values as
ids that can be pasted back into a scenario. The runner uses only the public API plus
generic set-up operations; it knows no game.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .loading.yamlsrc import Src
from .engine.edit import put_item
from .errors import EngineError, IllegalAction, RuleError, explain_exception
from .loading.yamlsrc import Source


class ScenarioFailure(AssertionError):
    pass


def _fail(where, msg):
    raise ScenarioFailure(f"{where}: {msg}")


def run_scenario(game, sc: dict, source: Source | None = None, path=()):
    """Run one scenario dict against a loaded Game; raise ScenarioFailure on a mismatch, or
    when a rule fails while the scenario runs (saying where, in rule terms)."""
    where_line = source.pos(path)[0] if source is not None else 0
    where = f"{source.display if source else '<scenario>'}:{where_line}: scenario '{sc.get('name', '?')}'"
    try:
        return _run(game, sc, source, path, where)
    except EngineError as exc:
        _fail(where, f"a rule failed: {exc}")


def _run(game, sc, source, path, where):
    game = _with_file_mods(game, source, where)
    try:
        st = game.new_game(seed=int(sc.get("seed", 0)), options=sc.get("options"), players=sc.get("players"))
    except ValueError as exc:
        _fail(where, f"bad game settings: {exc}")
    setup = sc.get("setup") or {}
    try:
        st.edit(setup)
    except (ValueError, KeyError) as exc:
        _fail(where, f"bad setup: {exc}")
    _check_turn(st, setup, where)
    ids = {a.id for a in st.legal_actions()}
    for a in sc.get("legal") or []:
        if a not in ids:
            _fail(where, f"{a!r} should be legal; legal: {sorted(ids)}")
    for a in sc.get("illegal") or []:
        if a in ids:
            _fail(where, f"{a!r} should not be legal")
    for i, a in enumerate(sc.get("actions") or []):
        if isinstance(a, dict):  # a set-up step between actions, e.g. the dice just rolled
            try:
                st.edit(a.get("setup") or {})
            except (ValueError, KeyError) as exc:
                _fail(where, f"bad setup at step {i + 1}: {exc}")
            continue
        try:
            st.apply(a)
        except IllegalAction as exc:
            legal = sorted(x.id for x in st.legal_actions())
            msg = str(exc).rstrip()
            if len(legal) <= 12:
                msg += ("" if msg.endswith((".", "?")) else ".") + f" Legal now: {', '.join(legal)}."
            _fail(where, f"action {i + 1} {a!r} refused: {msg}")
    for a in sc.get("then_legal") or []:
        if a not in {x.id for x in st.legal_actions()}:
            _fail(where, f"{a!r} should be legal after the actions; legal: "
                         f"{sorted(x.id for x in st.legal_actions())}")
    for a in sc.get("then_illegal") or []:
        if a in {x.id for x in st.legal_actions()}:
            _fail(where, f"{a!r} should not be legal after the actions")
    for j, text in enumerate(sc.get("expect") or []):
        try:
            f = game.expression(str(text), src=Src(source, tuple(path) + ("expect", j), "expectation"))
        except RuleError as exc:
            _fail(where, "bad expectation: " + "; ".join(str(d) for d in exc.diagnostics))
        env = {"me": st.current_player}
        try:
            holds = f(st, env)
        except Exception as exc:
            _fail(where, f"expectation {str(text).strip()!r} cannot be evaluated: {explain_exception(exc)}")
        if not holds:
            why = _explain(game, text, st, env)
            _fail(where, f"expected {str(text).strip()!r} to hold" + (f": {why}" if why else ""))
    lines = st.log_for(None)
    at, before = 0, None  # (each wanted line is looked for from the line found for the one before it on)
    for want in sc.get("log") or []:
        found = next((i for i in range(at, len(lines)) if str(want) in lines[i]), None)
        if found is None:
            if any(str(want) in line for line in lines[:at]):
                _fail(where, f"the public log has {want!r} before {before!r}, not after it (log: lists lines "
                             "in the order they are written)")
            _fail(where, f"no line of the public log contains {want!r}; the last lines: {lines[-5:]}")
        at, before = found, str(want)
    if "winners" in sc:
        if not st.over:
            _fail(where, f"expected the game to be over with winners {sc['winners']}")
        if sorted(st.winners) != sorted(sc["winners"]):
            _fail(where, f"winners {st.winners}, expected {sc['winners']}")
    if "scores" in sc and st.scores != sc["scores"]:
        _fail(where, f"scores {st.scores}, expected {sc['scores']}" if st.over else
              f"expected the game to be over with scores {sc['scores']}")
    if "victory" in sc and st.victory != sc["victory"]:
        _fail(where, f"victory {st.victory!r}, expected {sc['victory']!r}")
    if sc.get("over") is False and st.over:
        _fail(where, f"the game should go on, but it ended ({st.victory})")
    return st


def _check_turn(st, setup, where):
    """A set-up that makes it one player's turn (the game's `turn:` variable) while the pending
    decision is another's must say who acts: otherwise the wrong player would act silently."""
    turn = st.rules.turn_var
    vars_ = setup.get("vars") or {}
    if turn is None or turn not in vars_ or "to_act" in setup or st.pending is None:
        return
    who, waiting = vars_[turn], st.pending["player"]
    if who != waiting:
        _fail(where, f"the set-up makes it {who}'s turn ({turn}: {who}), but the pending decision "
                     f"({st.pending['type']}) is {waiting}'s: add to_act: {who} to setup: to hand it "
                     f"over, or to_act: {waiting} to keep it")


def _explain(game, text, st, env) -> str:
    """What made an expectation false: the first false part of an `and`, and for a comparison
    the values of both sides (expected vs actual)."""
    from .build.expressions import falsehood

    try:
        found = falsehood(game, str(text), st, env)
    except Exception:
        return ""
    if found is None:
        return ""
    op, lv, rv = found
    return f"the left side is {_as_rule_text(lv)}, the right side {_as_rule_text(rv)} ({op} does not hold)"


def _as_rule_text(v) -> str:
    """A value as the effect language writes it: ids bare, text quoted, none/true/false."""
    if isinstance(v, list):
        return "[" + ", ".join(_as_rule_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_as_rule_text(k)}: {_as_rule_text(x)}" for k, x in v.items()) + "}"
    if v is None or isinstance(v, bool):
        return {None: "none", True: "true", False: "false"}[v]
    if isinstance(v, str) and not v.isidentifier():
        return repr(v)
    return str(v)


def _with_file_mods(game, source, where):
    """The game with the mods the scenario file names (the game itself when it names none)."""
    data = source.data if source is not None else None
    mods = data.get("mods") if isinstance(data, dict) else None
    if not mods:
        return game
    if not isinstance(mods, list):
        _fail(where, "mods: must be a list of mod folders or names")
    here = Path(source.path).parent
    paths = tuple(str(here / str(m)) if (here / str(m)).is_dir() else str(m) for m in mods)
    try:
        return _load_with_mods(str(game.rules.root), paths)
    except RuleError as exc:
        _fail(where, "the game with mods " + ", ".join(paths) + " does not load:\n" + str(exc))


@lru_cache(maxsize=16)
def _load_with_mods(root: str, mods: tuple):
    from . import load_game

    return load_game(root, mods=mods)


EXPECTATIONS = ("expect", "legal", "illegal", "then_legal", "then_illegal", "log", "winners", "victory", "scores",
                "over")


def check_file(src: Source) -> list:
    """Diagnostics for a parsed scenario file: its shape against the scenario schema (unknown
    keys with a did-you-mean), and every scenario that checks nothing."""
    from .errors import Diagnostic
    from .loading.loader import Spec, _check_schema

    spec = Spec(root=Path(src.path))
    data = src.data
    if isinstance(data, dict) and "scenarios" in data:
        _check_schema(src, "scenario", spec, "file")
        base = ("scenarios",)
        cases = data["scenarios"] if isinstance(data["scenarios"], list) else []
    elif isinstance(data, list):
        base = ()
        cases = data
        for i in range(len(data)):
            _check_schema(src, "scenario", spec, "scenario", (i,))
    elif isinstance(data, dict):
        _check_schema(src, "scenario", spec, "scenario")
        return spec.diags + _checks_nothing(src, data, ())
    else:
        return [Diagnostic(src.display, 1, 1, "E101", "a scenario file holds a scenario, a list of them, "
                                                      "or {mods: [...], scenarios: [...]}", "see docs/scenarios.md")]
    for i, sc in enumerate(cases):
        spec.diags += _checks_nothing(src, sc, base + (i,))
    return spec.diags


def _checks_nothing(src, sc, path) -> list:
    from .errors import Diagnostic

    if not isinstance(sc, dict) or any(k in sc for k in EXPECTATIONS):
        return []
    line, col = src.pos(path)
    return [Diagnostic(src.display, line, col, "E101", f"scenario {sc.get('name', '?')!r} checks nothing",
                       "add expect:, legal:, illegal:, then_legal:, then_illegal:, log:, winners:, "
                       "victory: or over:")]


def load_scenarios(path: str | Path):
    """Yield (scenario dict, Source, yaml path) for a scenario file. A file that cannot be read,
    or that breaks the scenario format anywhere, raises ScenarioFailure listing every problem."""
    from .loading.loader import _display

    from .loading.loader import MAX_FILE_BYTES, read_bounded

    p = Path(path)
    try:
        raw = read_bounded(p, MAX_FILE_BYTES)  # (a device such as /dev/zero has no end)
        if raw is None:
            raise ScenarioFailure(f"{p}: the scenario file is larger than {MAX_FILE_BYTES // 2**20} MB")
        text = raw.decode("utf-8")
    except (OSError, ValueError) as exc:  # (UnicodeDecodeError is a ValueError, as is a NUL in the name)
        raise ScenarioFailure(f"{p}: cannot read the scenario file: {exc}") from None
    src = Source(str(p), text, _display(p))
    diags = []
    data = src.parse(diags)
    if not diags:
        diags = check_file(src)
    if diags:
        raise ScenarioFailure("\n".join(str(d) for d in sorted(set(diags))))
    data = data or []
    if isinstance(data, dict) and "scenarios" in data:
        data = data["scenarios"]
        base = ("scenarios",)
    else:
        base = ()
    if isinstance(data, dict):
        data = [data]
        single = True
    else:
        single = False
    for i, sc in enumerate(data):
        yield sc, src, (base if single else base + (i,))


def run_file(game, path) -> list[str]:
    """Run every scenario of a file; return failure messages (empty when all pass)."""
    fails = []
    for sc, src, ypath in load_scenarios(path):
        try:
            run_scenario(game, sc, src, ypath)
        except ScenarioFailure as exc:
            fails.append(str(exc))
    return fails


def apply_setup(st, setup: dict):
    """A scenario's set-up applied to a state (GameState.edit)."""
    st.edit(setup)


__all__ = ["run_scenario", "run_file", "load_scenarios", "apply_setup", "put_item", "ScenarioFailure"]
