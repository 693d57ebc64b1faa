"""The public face of the engine: ``Game`` (loaded rules) and ``GameState`` (one game).

Every decision is an ``Action`` with a stable, readable id:

* a move offered by ``ask``:           its id template, e.g. ``take:c1_07:play``
* a value picked by ``choose``:         ``choose:<label>:<value>`` (``none`` to stop early)
* a branch of ``one_of`` / ``may``:     ``choose:<label>:<branch>`` (``yes``/``no`` for may)
* the next step of ``any_order``:       ``order:<label>:<branch>``
"""
from __future__ import annotations

import difflib
import hashlib
import json

from ..errors import EngineError, IllegalAction, RuleError, SaveError
from ..model.rules import fmt_value as _fmt
from ..model.state import State
from . import vm


class Action:
    """A legal action: ``id`` (stable, readable), ``label`` (for people), ``player``."""

    __slots__ = ("id", "_label", "player", "payload", "_rules")

    def __init__(self, id, label, player, payload, rules=None):
        self.id, self._label, self.player, self.payload, self._rules = id, label, player, payload, rules

    @property
    def label(self) -> str:
        if self._rules is not None:  # a label is formatted only when someone reads it
            display = self._rules.display
            if self._label is None:  # a move: its label template over its arguments
                name, env = self.payload
                self._label = self._rules.moves[name].label_fmt.format(**{k: display(v) for k, v in env.items()})
            else:  # a choice: "label: value"
                self._label = f"{self._label}: {display(self.payload)}"
            self._rules = None
        return self._label

    def __repr__(self):
        return f"Action({self.id!r})"

    def __eq__(self, other):
        return isinstance(other, Action) and other.id == self.id

    def __hash__(self):
        return hash(self.id)


def _same_id(aid, m):
    raise EngineError(f"two legal actions share the id {aid!r}: give move '{m.name}' an id naming all "
                      "its arguments")


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
        return list(self._legal_now().values())

    def _legal_now(self) -> dict:
        if self._legal is None:
            self._legal = self._enumerate()
        return self._legal

    def _enumerate(self) -> dict:
        p = self.pending
        out = {}
        self.work = 0  # listing actions has a work budget of its own
        if p is None or self.over:
            return out
        self._enumerate_into(p, out)
        return out

    def _enumerate_into(self, p, out):
        player = p["player"]
        t = p["type"]
        rules = self.rules
        if t == "ask":
            for name in p["moves"]:
                m = rules.moves[name]
                try:
                    self._enum_move(m, player, out)
                except EngineError:
                    raise
                except Exception as exc:  # a move's arguments or condition failed
                    raise EngineError(rules.failure(rules.where_src(m.src), exc)) from None
        elif t == "choose":
            label = p["label"]
            text = label if p.get("about") is None else f"{label} ({rules.display(p['about'])})"
            for v in p["options"]:
                aid = f"choose:{label}:{_fmt(v)}"
                out[aid] = Action(aid, text, player, v, rules)
            if p["optional"]:
                aid = f"choose:{label}:none"
                out[aid] = Action(aid, f"{text}: none (stop)", player, None)
        elif t == "branch":
            for b in p["options"]:
                aid = f"choose:{p['label']}:{b}"
                out[aid] = Action(aid, f"{p['label']}: {b}", player, b)
        elif t == "order":
            for b in p["options"]:
                aid = f"order:{p['label']}:{b}"
                out[aid] = Action(aid, f"{p['label']}: {b} next", player, b)

    def _enum_move(self, m, player, out):
        env = {"me": player}
        params = m.params
        n = len(params)
        rules = self.rules
        cond = m.cond
        if n == 1:  # the common case, without recursion
            name, dom = params[0]
            make_id = m.make_id
            for v in dom(self, env):
                env[name] = v
                if cond is None or cond(self, env):
                    aid = make_id(env)
                    if aid in out:
                        _same_id(aid, m)
                    out[aid] = Action(aid, None, player, (m.name, {"me": player, name: v}), rules)
            return

        if n == 2:  # two arguments, the second's choices depending on the first (no recursion)
            (n0, dom0), (n1, dom1) = params
            make_id = m.make_id
            for v0 in dom0(self, env):
                env[n0] = v0
                for v1 in dom1(self, env):
                    env[n1] = v1
                    if cond is None or cond(self, env):
                        aid = make_id(env)
                        if aid in out:
                            _same_id(aid, m)
                        out[aid] = Action(aid, None, player, (m.name, {"me": player, n0: v0, n1: v1}), rules)
            return

        def rec(i):
            if i == n:
                if m.cond is None or m.cond(self, env):
                    aid = m.make_id(env)
                    if aid in out:
                        _same_id(aid, m)
                    out[aid] = Action(aid, None, player, (m.name, dict(env)), rules)
                return
            name, dom = params[i]
            for v in dom(self, env):
                env[name] = v
                rec(i + 1)
            env.pop(name, None)

        rec(0)

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
        aid = action.id if isinstance(action, Action) else action
        if not isinstance(aid, str):
            raise IllegalAction(f"an action is an Action or its id (a text), not {type(aid).__name__}")
        a = self._legal_now().get(aid)
        if a is None:
            if self.over:
                raise IllegalAction(f"the game is over; {aid!r} cannot be played")
            ids = list(self._legal)
            close = difflib.get_close_matches(str(aid), ids, n=3, cutoff=0.5)
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            raise IllegalAction(f"{aid!r} is not a legal action now ({len(ids)} legal).{hint}")
        p = self.pending
        t = p["type"]
        fr = self.stack[-1]
        entry = f"{a.player}: {a.label}" if t == "ask" else None  # formatted before any change
        self._legal = None
        self.pending = None
        self.history.append(aid)
        if t == "ask":
            name, binding = a.payload
            fr[1] += 1
            m = self.rules.moves[name]
            if not m.private:
                self.log.append(entry)
            else:
                public = m.name if m.private is True else m.private.format(
                    **{k: self.rules.display(v) for k, v in binding.items()})
                self.log.append([a.player, entry, f"{a.player}: {public}"])
            self.stack.append([self.rules.moves[name].block, 0, dict(binding), None])
        elif t == "choose":
            fr[2][p["var"]] = a.payload
            fr[1] += 1
        elif t == "branch":
            fr[1] += 1
            stmt = self.rules.blocks[fr[0]][fr[1] - 1]
            if stmt.logged:  # a one_of's branch is a public choice, like a move
                self.log.append(f"{a.player}: {p['label']}: {a.payload}")
            block = stmt.branches.get(a.payload)
            if block is not None:
                self.stack.append([block, 0, fr[2], None])
        elif t == "order":
            stmt = self.rules.blocks[fr[0]][fr[1]]
            fr[3].remove(a.payload)
            self.stack.append([stmt.branches[a.payload], 0, fr[2], None])
        self.steps = 0
        vm.run(self)
        if self.pending is not None and self.pending["type"] == "ask" and not self._legal_now():
            raise EngineError(f"{self.pending['player']} must act but no move is legal "
                              f"(moves offered: {', '.join(self.pending['moves'])})")
        return self

    # ---- views --------------------------------------------------------------------
    def view(self, player=None) -> dict:
        """What ``player`` may see (plain data); player=None gives the public view."""
        rules = self.rules
        zones = {}
        down = self.facedown
        shown = self.shown
        for zid, items in self.zones.items():
            zd = rules.zones[zid]
            if zd.visibility == "hidden" or (zd.visibility == "owner" and zd.owner != player):
                zones[zid] = {"count": sum(1 for i in items if i is not None)}
                known = [i for i in items if i in shown and player in shown[i]] if shown else ()
                if known:  # items shown to this player alone (reveal_to)
                    zones[zid]["known"] = known
            else:  # a face-down item shows its back; an owned one still faces its owner
                zones[zid] = [None if i is None else (i if i not in down else self._back(i, player))
                              for i in items]
        hidden = rules.hidden_vars
        vars_ = {k: v for k, v in self.vars.items()
                 if not k.startswith("@") and (k not in hidden or (hidden[k] is not None and hidden[k] == player))}
        pending = None
        if self.pending is not None:
            if self.pending["player"] == player:
                pending = dict(self.pending)
            else:
                pending = {"player": self.pending["player"], "type": self.pending["type"]}
        return {
            "game": rules.name,
            "viewer": player,
            "current_player": self.current_player,
            "vars": vars_,
            "zones": zones,
            "pieces": [[k, o, loc, n] for (k, o, loc), n in self.pieces.items()],
            "pending": pending,
            "over": self.over,
            "winners": list(self.winners),
            "victory": self.victory,
            "scores": self.scores,
            "log": self.log_for(player),
        }

    def _back(self, item, player):
        """How a face-down item looks to `player`: itself to its owner, else '?' (or '?owner'
        for an owned item, whose side shows on its back)."""
        owner = self.rules.item_owner.get(item)
        if player is not None and player in self.shown.get(item, ()):
            return item  # shown to this player (reveal_to)
        if owner is None:
            return "?"
        return item if owner == player else "?" + owner

    def log_for(self, player=None, start: int = 0) -> list[str]:
        """The log lines from `start` as `player` may read them (None: the public log)."""
        return [e if isinstance(e, str) else (e[1] if e[0] == player else e[2]) for e in self.log[start:]]

    def digest(self) -> str:
        return hashlib.sha256("\n".join(map(str, self.log + self.history)).encode()).hexdigest()[:16]


class Game:
    """Loaded, checked and compiled rules of one game (plus mods)."""

    def __init__(self, rules):
        self.rules = rules

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
                raise ValueError(f"{r.name} is played by {', '.join(map(str, sorted(r.seats)))} players, not {n}")
            return tuple(r.seats[n])
        if n != len(r.players):
            raise ValueError(f"{r.name} is played by {len(r.players)} players, not {n}")
        return tuple(r.players)

    def new_game(self, seed: int = 0, options: dict | None = None, players=None) -> GameState:
        """A new game; `players` is a number of players for games that seat 2 or more."""
        r = self.rules
        st = GameState(r)
        st.seats = self.seating(players)
        st.seed = int(seed)
        st.rng = int(seed) & ((1 << 64) - 1)
        st.vars = dict(r.var_defs)
        for k, v in (options or {}).items():
            if k not in r.options:
                raise ValueError(f"unknown option {k!r}; options: {', '.join(r.options) or 'none'}")
            choices = r.options[k].get("choices")
            if choices is not None and v not in choices:
                raise ValueError(f"option {k!r} is one of {', '.join(map(str, choices))}, not {v!r}")
            st.vars[k] = v
        st.zones = {z: ([None] * len(zd.slot_names) if zd.tableau else []) for z, zd in r.zones.items()}
        for item in r.items:
            z = r.start_zone.get(item)
            if z is not None:
                st.zones[z].append(item)
                st.where[item] = z
                if r.zones[z].face == "down":
                    st.facedown.add(item)
        for k, d in r.kinds.items():
            if "owners" in d:
                supply = d.get("supply") or {}
                for p in d["owners"]:
                    n = supply.get(p, 0) if "supply" in d else d["per_player"]
                    if n:
                        st.pieces[(k, p, "supply")] = n
            elif d.get("total"):
                st.pieces[(k, None, d["at"])] = d["total"]
        if r.flow is not None:
            st.stack.append([r.flow, 0, {"me": None}, None])
        vm.run(st)
        if st.pending is not None and st.pending["type"] == "ask" and not st._legal_now():
            raise EngineError(f"{st.pending['player']} must act but no move is legal")
        return st

    MAX_SAVE_BYTES = 64 * 2**20

    def state_from_json(self, text, verify: bool = True) -> GameState:
        """A saved game, or SaveError naming the first problem.

        A save holds the state and the history that led to it (seed, options, players, every
        action). With verify (the default) the history is replayed under these rules and the
        result must equal the saved state in every field: a save loads only into a state the
        rules can reach, whatever was edited in it. verify=False trusts the text (for saves the
        program itself just made) and checks its structure only."""
        if isinstance(text, (str, bytes)) and len(text) > self.MAX_SAVE_BYTES:
            raise SaveError(f"the save is larger than {self.MAX_SAVE_BYTES // 2**20} MB")
        try:
            d = json.loads(text) if isinstance(text, (str, bytes)) else text
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise SaveError(f"save is not valid JSON: {exc}") from None
        except RecursionError:
            raise SaveError("save is nested too deeply to be a save") from None
        st = GameState.from_dict(self.rules, d)
        return self._replayed(st, d) if verify else st

    def _replayed(self, saved, d) -> GameState:
        """The state the saved history leads to, if it is the saved state."""
        r = self.rules
        options = {k: saved.vars.get(k) for k in r.options}
        try:
            st = self.new_game(seed=saved.seed, options=options,
                               players=len(saved.seats) if r.seats else None)
        except (ValueError, EngineError) as exc:
            raise SaveError(f"the save's settings cannot start a game: {exc}") from None
        if st.seats != saved.seats:
            raise SaveError(f"the save seats {list(saved.seats)}, but {len(saved.seats)} players sit as "
                            f"{list(st.seats)}")
        for i, aid in enumerate(saved.history, 1):
            try:
                st.apply(aid)
            except IllegalAction:
                raise SaveError(f"the save's history does not follow the rules: action {i} ({str(aid)[:60]!r}) "
                                "is not legal there") from None
            except EngineError as exc:
                raise SaveError(f"replaying the save's history failed at action {i}: {exc}") from None
        want = json.loads(json.dumps(d, sort_keys=True))
        got = json.loads(st.to_json())
        if got != want:
            raise SaveError(f"the save does not match its own history: {_first_difference(got, want)}")
        return st


def _first_difference(got, want, path="") -> str:
    if isinstance(got, dict) and isinstance(want, dict):
        for k in sorted(set(got) | set(want), key=str):
            if got.get(k) != want.get(k):
                return _first_difference(got.get(k), want.get(k), f"{path}.{k}" if path else str(k))
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    show = lambda v: (json.dumps(v)[:60] + "...") if len(json.dumps(v)) > 60 else json.dumps(v)  # noqa: E731
    return f"{path or 'the state'} is {show(want)} in the save, {show(got)} by the rules"


def _build(name_or_path: str, mods=()):
    from ..dsl.parser import deep_recursion, save_ast_cache
    from ..errors import Diagnostic
    from ..loading.loader import load_spec
    from .build import build_rules

    spec = load_spec(name_or_path, mods)
    rules = None
    if spec.game is not None:
        try:
            with deep_recursion():  # every expression the parser accepts compiles
                rules = build_rules(spec)
            save_ast_cache()
        except Exception as exc:  # checking must never end in a traceback
            if not spec.diags:
                spec.diags.append(Diagnostic(str(spec.root), 1, 1, "E999",
                                             f"internal error while checking: {exc!r}",
                                             "please report this with the rule files"))
    return rules, sorted(set(spec.diags))


def load_game(name_or_path: str, mods=()) -> Game:
    """Load, check and compile a game. Raises RuleError with every problem found."""
    rules, diags = _build(name_or_path, tuple(mods))
    if rules is None or any(d.severity == "error" for d in diags):
        raise RuleError(diags)
    return Game(rules)


def check_game(name_or_path: str, mods=()) -> list:
    """All diagnostics for a game's rule files, with mods applied in order (empty when valid)."""
    return _build(name_or_path, tuple(mods))[1]
