"""The public face of the engine: ``Game`` (loaded rules) and ``GameState`` (one game).

    game = load_game("duel"); st = game.new_game(seed=7)
    st.legal_actions(); st.apply("take:c1_14:play"); st.view(player); st.to_json()

Every decision is an ``Action`` with a stable, readable id (decisions.py says which); the rules
run in ``vm.py``; what each player may see is ``info.py``; saves are checked by ``saves.py``.
"""
from __future__ import annotations

import difflib
import gc
import hashlib
import threading

from ..errors import EngineError, IllegalAction, RuleError
from ..model.state import State
from . import decisions, info, saves, vm
from .decisions import Action  # noqa: F401 (part of the API)


def _action_id(action) -> str:
    """The id of an action given as an Action (of a subclass) or a text (of a subclass)."""
    aid = action.id if isinstance(action, Action) else action
    if not isinstance(aid, str):
        raise IllegalAction(f"an action is an Action or its id (a text), not {type(aid).__name__}")
    return aid


class GameState(State):
    """One game in progress. See DESIGN.md "The public API" for the contract."""

    __slots__ = ()

    # ---- who acts -----------------------------------------------------------
    @property
    def current_player(self):
        if self.over or self.pending is None:
            return None
        return self.pending["player"]

    def is_terminal(self) -> bool:
        return self.over

    # ---- legal actions --------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = decisions.actions(self)
        return list(legal.values())

    def _legal_now(self) -> dict:
        if self._legal is None:
            self._legal = decisions.actions(self)
        return self._legal

    # ---- applying ---------------------------------------------------------------
    def apply(self, action, atomic: bool = False) -> "GameState":
        """Apply a legal action (an Action or its id). Illegal: IllegalAction, state unchanged.

        With atomic=True the state is also left unchanged when a rule fails while running
        (EngineError, e.g. a mod's effect that loops past the step budget); this costs one
        clone per action, so simulations leave it off and interactive play turns it on."""
        if atomic:
            snapshot = self.clone()
            try:
                return self.apply(action)
            except Exception:
                for name in State.__slots__:
                    setattr(self, name, getattr(snapshot, name))
                raise
        t = type(action)
        aid = action.id if t is Action else action if t is str else _action_id(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = decisions.actions(self)
        a = legal.get(aid)
        if a is None:
            if self.over:
                raise IllegalAction(f"the game is over; {aid!r} cannot be played")
            ids = list(self._legal)
            close = difflib.get_close_matches(str(aid), ids, n=3, cutoff=0.5)
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            raise IllegalAction(f"{aid!r} is not a legal action now ({len(ids)} legal).{hint}")
        decisions.take(self, a)
        vm.run(self)
        p = self.pending
        if p is not None and p["type"] == "ask" and not self._legal_now():
            raise EngineError(f"{p['player']} must act but no move is legal (moves offered: {', '.join(p['moves'])})")
        return self

    # ---- what players see ------------------------------------------------------------
    def view(self, player=None, log_from: int = 0) -> dict:
        """What ``player`` may see (plain data); player=None gives the public view; the log from
        entry `log_from` on."""
        return info.view(self, player, log_from)

    def log_for(self, player=None, start: int = 0) -> list[str]:
        """The log lines from `start` as `player` may read them (None: the public log)."""
        return info.log_for(self, player, start)

    def edit(self, setup: dict) -> "GameState":
        """Change the position from outside the rules (a scenario's set-up, a tool): variables,
        items, pieces, faces, who acts (engine/edit.py); ValueError names what is wrong."""
        from . import edit

        edit.apply(self, setup)
        return self

    def resample(self, player, rng) -> "GameState":
        """A copy as `player` might imagine it: what they cannot see dealt anew (for agents)."""
        return info.resample(self, player, rng)

    def digest(self) -> str:
        entry = self.rules.log_entry
        return hashlib.sha256("\n".join(map(str, [entry(e) for e in self.log] + self.history)).encode()).hexdigest()[:16]


class Game:
    """Loaded, checked and compiled rules of one game (plus mods)."""

    def __init__(self, rules, declarations=None):
        self.rules = rules
        self._declarations = declarations
        self._blank_state = None  # the starting position, built on first use (_blank)
        self._seatings = {}  # the seats by number of players asked for (None: the default)

    @property
    def declarations(self):
        """What the build declared: for checking text later (rules loaded from the cache of
        checked rules read theirs on first use: build/checked.py)."""
        d = self._declarations
        if callable(d):
            d = self._declarations = d()
        return d

    @property
    def name(self):
        return self.rules.name

    @property
    def players(self):
        """Everyone the rules name; `seating(n)` says who plays in an n-player game."""
        return list(self.rules.players)

    @property
    def player_counts(self) -> list:
        return sorted(self.rules.seats) or [len(self.rules.players)]

    @property
    def default_players(self) -> int:
        """The number of players a game has when none is asked for."""
        r = self.rules
        return r.default_players or (max(r.seats) if r.seats else len(r.players))

    def teams(self, players=None) -> dict:
        """{team: its seated players} for a number of players (each player its own team when the
        game declares no teams)."""
        return self.rules.teams_of(self.seating(players))

    def seating(self, players=None) -> tuple:
        """The players seated for a number of players (None: the game's default_players, else its
        largest seating)."""
        r = self.rules
        if players is None:
            players = r.default_players
        if players is None:
            return tuple(r.seats[max(r.seats)]) if r.seats else tuple(r.players)
        n = int(players)
        if r.seats:
            if n not in r.seats:
                raise ValueError(f"{r.title or r.name} is played by {', '.join(map(str, sorted(r.seats)))} "
                                 f"players, not {n}")
            return tuple(r.seats[n])
        if n != len(r.players):
            raise ValueError(f"{r.title or r.name} is played by {len(r.players)} players, not {n}")
        return tuple(r.players)

    def check_options(self, given: dict) -> dict:
        """Options for a new game, each a known name with a single value among its choices;
        ValueError saying what is wrong (the command line and the browser say it their way)."""
        if not given:
            return {}
        if not isinstance(given, dict):
            raise ValueError(f"options are a mapping of name to value, not {type(given).__name__}")
        from ..errors import did_you_mean

        opts = self.rules.options
        for k, v in given.items():
            if k not in opts:
                hint = did_you_mean(str(k), opts)
                raise ValueError(f"unknown option {str(k)[:40]!r} for {self.name}" + (f"; {hint}" if hint else "")
                                 + f" (options: {', '.join(opts) or 'none'})")
            if isinstance(v, (dict, list)) or (v is not None and not isinstance(v, (int, str, bool))):
                raise ValueError(f"option {k}: {v!r} is not a single value")
            choices = opts[k].get("choices")
            if choices is not None and v not in choices:
                raise ValueError(f"option {k} is one of {', '.join(map(str, choices))}, not {v!r}")
        return dict(given)

    def new_game(self, seed: int = 0, options: dict | None = None, players=None) -> GameState:
        """A new game; `players` is a number of players for games that seat 2 or more."""
        r = self.rules
        st = (self._blank_state or self._blank()).fresh()
        cached = players is None or type(players) is int
        seats = self._seatings.get(players) if cached else None
        if seats is None:
            seats = self.seating(players)
            if cached:
                self._seatings[players] = seats
        st.seats = seats
        try:
            st.seed = seed = int(seed)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"a seed is a whole number, not {seed!r}") from None
        st.rng = seed & ((1 << 64) - 1)
        if options:
            st.vars.update(self.check_options(options))
        if r.flow is not None:
            st.stack.append([r.flow, 0, {"me": None}, None])
        vm.run(st)
        p = st.pending
        if p is not None and p["type"] == "ask" and not st._legal_now():
            raise EngineError(f"{p['player']} must act but no move is legal")
        return st

    def _blank(self) -> GameState:
        """Every item in its starting zone and every piece in its supply: built once, copied by
        each new game (State.fresh)."""
        if self._blank_state is not None:
            return self._blank_state
        r = self.rules
        blank = GameState(r)
        blank.vars = r.var_defs  # (copied by fresh)
        blank.zones = {z: ([None] * len(zd.slot_names) if zd.tableau else []) for z, zd in r.zones.items()}
        for item in r.items:
            z = r.start_zone.get(item)
            if z is not None:
                blank.zones[z].append(item)
                blank.where[item] = z
                if r.zones[z].face == "down":
                    blank.facedown.add(item)
        for k, d in r.kinds.items():
            if "owners" in d:
                supply = d.get("supply") or {}
                for p in d["owners"]:
                    n = supply.get(p, 0) if "supply" in d else d["per_player"]
                    if n:
                        blank.pieces[(k, p, "supply")] = n
            elif d.get("total"):
                blank.pieces[(k, None, d["at"])] = d["total"]
        self._blank_state = blank
        return blank

    def state_from_json(self, text, verify: bool = True) -> GameState:
        """A saved game, or SaveError naming the first problem.

        A save holds the state and the history that led to it (seed, options, players, every
        action). With verify (the default) the history is replayed under these rules and the
        result must equal the saved state in every field: a save loads only into a state the
        rules can reach, whatever was edited in it. verify=False trusts the text (for saves the
        program itself just made) and checks its structure only."""
        return saves.load(self, text, verify)

    def expression(self, text: str, names=("me",), src=None):
        """Effect-language text checked against these rules and made a function
        ``f(state, env)``: env gives the locals named (``me`` by default). Raises RuleError
        (src: where the text is written, for its diagnostics)."""
        from ..build.expressions import compile_expression

        return compile_expression(self, text, names, src)


_BUILDING = threading.RLock()  # one build at a time: the cycle collector's state is the process's
_froze = None  # after a process's first build: whether it froze what was alive then (_build)


def _build(name_or_path: str, mods=()):
    """(rules, declarations, diagnostics). Python's cycle collector is paused meanwhile: a
    build makes hundreds of thousands of objects that all stay alive until it ends, and each
    collection on the way walks them all again (a tenth of a first load of a large game).
    After a process's first build, everything alive then is frozen (gc.freeze; not if the
    application froze objects itself): the collector's first pass after the build, its passes
    during play and its pass at exit walk none of the rules. A process that builds again (a
    test run, a tool loading several games) unfreezes what that first build froze, and the
    collector works as usual from then on: rules let go are freed by its next full pass
    (freezing at every build would mean collecting everything at each one)."""
    global _froze
    with _BUILDING:
        collecting = gc.isenabled()
        gc.disable()
        first = _froze is None
        if _froze:
            gc.unfreeze()
        _froze = False
        try:
            return _build_now(name_or_path, mods)
        finally:
            if first and not gc.get_freeze_count():
                gc.freeze()
                _froze = True
            if collecting:
                gc.enable()


def _build_now(name_or_path: str, mods=()):
    from ..build import build_rules
    from ..dsl.parse import cache_scope, deep_recursion, save_ast_cache
    from ..errors import Diagnostic
    from ..loading.loader import load_spec
    from .link import namespace

    spec = load_spec(name_or_path, mods)
    rules = decl = None
    if spec.game is not None:
        try:
            with deep_recursion(), cache_scope(spec.root.resolve()):  # every accepted expression compiles
                rules, decl = build_rules(spec, namespace)
            save_ast_cache()
        except Exception as exc:  # checking must never end in a traceback
            if not spec.diags:
                spec.diags.append(Diagnostic(str(spec.root), 1, 1, "E999",
                                             f"internal error while checking: {exc!r}",
                                             "please report this with the rule files"))
    return rules, decl, sorted(set(spec.diags))


def load_game(name_or_path: str, mods=()) -> Game:
    """Load, check and compile a game. Raises RuleError with every problem found."""
    rules, decl, diags = _build(name_or_path, tuple(mods))
    if rules is None or any(d.severity == "error" for d in diags):
        raise RuleError(diags)
    return Game(rules, decl)


def check_game(name_or_path: str, mods=()) -> list:
    """All diagnostics for a game's rule files, with mods applied in order (empty when valid).

    Every block's and function's code is compiled too (a load compiles each when it first
    runs, build/module.py): what validates has compiled whole."""
    rules, _, diags = _build(name_or_path, tuple(mods))
    if rules is not None and not any(d.severity == "error" for d in diags):
        what = ""
        try:
            for b in range(len(rules.blocks)):
                what = f"block {b}"
                rules.statement(b, 0)
            for name, f in rules.functions.items():
                what = f"function {name}"
                if hasattr(f, "load"):  # (a stand-in until first called)
                    f.load()
        except Exception as exc:  # (a fault of the engine's code generator, not of the rules)
            from ..errors import Diagnostic

            diags.append(Diagnostic(str(rules.root), 1, 1, "E999", f"internal error: the generated code of {what} "
                                    f"does not compile: {exc!r}", "please report this with the rule files"))
    return diags
