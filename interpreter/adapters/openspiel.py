"""Any game this engine loads, as an OpenSpiel (``pyspiel``) game.

    from interpreter.adapters import openspiel as osp
    game = osp.load("confrontation", mods=["deluxe"])          # a pyspiel.Game
    name = osp.register("duel", short_name="lotr_duel")         # or: pyspiel.load_game(name)
    pyspiel.load_game("lotr_rules", {"game": "risk", "players": 3, "max_actions": 2000})

``lotr_rules`` is registered when this module is imported; its parameters say which game:

    game         a game's name or folder (as ``load_game`` takes it; default: duel)
    mods         the mods, separated by ';'
    options      game options, ``name:value;name:value``
    players      the number of players (0: the game's default)
    seed, chance_outcomes   the game starts with a chance node drawing k < chance_outcomes
                 (1000 by default: the games of
                 ``lotr-rules simulate --seed 1 --games 1000``), uniformly: the game of seed ``seed + k`` (seed 1 by default)
    max_actions  0: no cap; else the game ends after that many actions with no winner (returns 0)
    num_actions  the size of the action space (every action id hashed to a slot; common.py)
    returns      auto | outcome | scores (common.py);  max_return: the payoff bound for scores

Chance: EXPLICIT_STOCHASTIC, with one chance node: the first. The engine draws every die and
shuffle from the seeded random source inside a state, so a game is fixed by its seed and the
players' actions; the chance node draws the seed (one of ``chance_outcomes`` seeds, uniformly) and
no other node is chance. Algorithms that sample chance (MCCFR, MCTS, RL) see a new deal each
episode; ones that enumerate it (CFR, exact values, best responses) enumerate the seeds, so keep
``chance_outcomes`` small for those (a game of K seeds is then an approximation of the game with
K deals). Why not SAMPLED_STOCHASTIC: OpenSpiel serializes such a game's random generator
(Game::GetRNGState), which a game written in Python cannot provide in open_spiel 1.6.11, so
random_sim_test with serialization fails for any of them.

Dynamics: SEQUENTIAL. A secret simultaneous choice in our games is a sequence of decisions whose
first choice is hidden from the other player (grammar/LANGUAGE.md), which is how OpenSpiel
represents it as an imperfect-information sequential game.

Serialization: a state's Python side is pickled by OpenSpiel; ours pickles as the game's spec
plus ``state.to_json()`` (the engine's own save) and is rebuilt with ``state_from_json``.
"""
from __future__ import annotations

import functools
import hashlib
import json

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the extras installed
    raise ImportError("the OpenSpiel adapter needs open_spiel: pip install 'lotr-rules[openspiel]' "
                      "(open_spiel==1.6.11 on Python 3.11)") from exc

from .common import DEFAULT_NUM_ACTIONS, Spec, context, options_text

GENERIC = "lotr_rules"
NO_CAP_LENGTH = 1_000_000  # reported as the longest game when no max_actions is set

_DEFAULTS = {"game": "duel", "mods": "", "options": "", "players": 0, "seed": 1,
             "chance_outcomes": 1000,
             "max_actions": 0, "num_actions": DEFAULT_NUM_ACTIONS, "returns": "auto", "max_return": 0.0}
_REGISTERED: dict = {}  # short name -> default parameters


def _spec(params: dict) -> tuple[Spec, int]:
    p = {**_DEFAULTS, **(params or {})}
    spec = Spec.make(p["game"], p["mods"], p["options"], p["players"], p["max_actions"], p["num_actions"],
                     p["returns"], p["max_return"])
    return spec, int(p["seed"])


def _game_type(short_name: str, defaults: dict, ctx=None) -> "pyspiel.GameType":
    n = len(ctx.seats) if ctx else 10
    perfect = ctx.perfect_information if ctx else False
    return pyspiel.GameType(
        short_name=short_name,
        long_name=(f"lotr-rules: {ctx.rules.title}" if ctx else "lotr-rules: any game from its rule files"),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=((pyspiel.GameType.Utility.ZERO_SUM if ctx.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM)
                 if ctx else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=(len(ctx.seats) if ctx else 1),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(defaults),
    )


class LotrGame(pyspiel.Game):
    """A game of this engine, its parameters as in the module's doc."""

    short_name = GENERIC

    def __init__(self, params=None):
        params = {**_REGISTERED.get(self.short_name, _DEFAULTS), **(params or {})}
        self.spec, self.first_seed = _spec(params)
        self.n_seeds = int(params.get("chance_outcomes", _DEFAULTS["chance_outcomes"]))
        if self.n_seeds < 1:
            raise ValueError(f"chance_outcomes must be 1 or more, not {self.n_seeds}")
        self.ctx = context(self.spec)
        ctx = self.ctx
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=self.n_seeds,
            num_players=len(ctx.seats),
            min_utility=-ctx.max_return,
            max_utility=ctx.max_return,
            utility_sum=0.0 if ctx.zero_sum else None,
            max_game_length=self.spec.max_actions or NO_CAP_LENGTH)
        super().__init__(_game_type(self.short_name, _REGISTERED.get(self.short_name, _DEFAULTS), ctx), info,
                         params)

    def new_initial_state(self):
        """A chance node: the seed of the game is drawn (``seed + k``, k < chance_outcomes)."""
        return LotrState(self)

    def state_for_seed(self, k: int):
        """The state right after the chance node drew outcome k (the game of seed ``seed + k``)."""
        s = LotrState(self)
        s.apply_action(int(k))
        return s

    def max_chance_nodes_in_history(self):
        return 1

    def make_py_observer(self, iig_obs_type=None, params=None):
        return LotrObserver(self.ctx, iig_obs_type, params)


class _Holder:
    """The engine state inside an OpenSpiel state (None at the chance node that draws the seed),
    with what the adapter keeps beside it: the seeds, each player's own decisions, the number of
    actions, whether the game was cut. OpenSpiel deep-copies a state's attributes to clone it and
    pickles them to serialize it: both go through the engine's clone and JSON save."""

    __slots__ = ("spec", "ctx", "first_seed", "outcomes", "st", "mine", "n", "cut", "_table", "_views")

    def __init__(self, spec, first_seed, outcomes, st=None, mine=None, n=0, cut=False):
        self.spec, self.first_seed, self.outcomes = spec, first_seed, outcomes
        self.ctx = context(spec)
        self.st, self.n, self.cut = st, n, cut
        self.mine = mine if mine is not None else {}
        self._table = None
        self._views = {}

    def view(self, player):
        """The engine's view for a player, computed once per position (OpenSpiel asks for each
        player's strings and tensors several times a step)."""
        v = self._views.get(player)
        if v is None:
            v = self._views[player] = self.st.view(player)
        return v

    def __deepcopy__(self, memo):
        h = _Holder(self.spec, self.first_seed, self.outcomes, self.st.clone() if self.st is not None else None,
                    {p: list(v) for p, v in self.mine.items()}, self.n, self.cut)
        h._table = self._table
        return h

    def __reduce__(self):
        return _restore, (self.spec, self.first_seed, self.outcomes,
                          self.st.to_json() if self.st is not None else None, self.mine, self.n, self.cut)

    def table(self, ctx) -> dict:
        if self._table is None:
            self._table = ctx.codec.table(a.id for a in self.st.legal_actions())
        return self._table


@functools.lru_cache(maxsize=8)
def _uniform(k: int) -> list:
    p = 1.0 / k
    return [(i, p) for i in range(k)]


def _restore(spec, first_seed, outcomes, text, mine, n, cut):
    ctx = context(spec)
    st = ctx.game.state_from_json(text, verify=False) if text is not None else None
    return _Holder(spec, first_seed, outcomes, st, mine, n, cut)


class LotrState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self._h = _Holder(game.spec, game.first_seed, game.n_seeds)

    @property
    def engine_state(self):
        """The engine's GameState (None before the seed is drawn); read it, and apply actions
        through this OpenSpiel state."""
        return self._h.st

    def _ctx(self):
        return self._h.ctx

    # -- OpenSpiel API
    def current_player(self):
        h = self._h
        if h.st is None:
            return pyspiel.PlayerId.CHANCE
        if h.st.over or h.cut:
            return pyspiel.PlayerId.TERMINAL
        return self._ctx().index[h.st.current_player]

    def chance_outcomes(self):
        return _uniform(self._h.outcomes)

    def _legal_actions(self, player):
        if self.is_terminal() or player != self.current_player():
            return []
        return sorted(self._h.table(self._ctx()))

    def _apply_action(self, action):
        h = self._h
        ctx = self._ctx()
        if h.st is None:
            k = int(action)
            if not 0 <= k < h.outcomes:
                raise ValueError(f"chance outcome {k} is not one of 0..{h.outcomes - 1}")
            h.st = ctx.new_state(h.first_seed + k)
            h._views = {}
            return
        st = h.st
        aid = h.table(ctx).get(int(action))
        if aid is None:
            raise ValueError(f"action {action} is not legal now")
        p = st.current_player
        st.apply(aid)
        h._table = None
        h._views = {}
        h.mine.setdefault(p, []).append(aid)
        h.n += 1
        if h.spec.max_actions and h.n >= h.spec.max_actions and not st.over:
            h.cut = True

    def _action_to_string(self, player, action):
        h = self._h
        if h.st is None:
            return f"seed {h.first_seed + int(action)}"
        aid = h.table(self._ctx()).get(int(action)) if not self.is_terminal() else None
        return aid if aid is not None else f"slot {action}"

    def action_id(self, action: int) -> str:
        """Our action id for an OpenSpiel action legal now."""
        return self._h.table(self._ctx())[int(action)]

    def action_for(self, action_id: str) -> int:
        """The OpenSpiel action for one of our legal action ids."""
        for k, v in self._h.table(self._ctx()).items():
            if v == action_id:
                return k
        raise ValueError(f"{action_id!r} is not legal now")

    def is_terminal(self):
        h = self._h
        return h.st is not None and (h.st.over or h.cut)

    def returns(self):
        st = self._h.st
        if st is None or not st.over:
            return [0.0] * len(self._ctx().seats)
        return self._ctx().returns(st)

    def __str__(self):
        """A digest of the whole state (OpenSpiel compares clones by it): cheap for long games."""
        st = self._h.st
        if st is None:
            return f"{self._h.spec.game}: the seed is drawn next"
        d = st.to_dict()
        body = {k: d[k] for k in ("vars", "zones", "facedown", "shown", "pieces", "stack", "envs", "pending", "rng",
                                  "over", "winners", "victory", "scores", "seed")}
        digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:16]
        last = st.history[-1] if st.history else "-"
        return (f"{self._h.spec.game} seed {st.seed} after {len(st.history)} actions (last {last}); "
                f"to act: {st.current_player}; over: {st.over}{' (cut)' if self._h.cut else ''}; state {digest}")


class LotrObserver:
    """OpenSpiel's observer: strings and tensors from ``state.view(player)``.

    private_info SINGLE_PLAYER (the default): what the player sees; NONE: the public view;
    ALL_PLAYERS: every seat's view together. perfect_recall adds the log the player has read
    (and, in the string, the player's own past decisions): the information state."""

    def __init__(self, ctx, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.ctx = ctx
        t = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.recall = t.perfect_recall
        self.private = t.private_info
        enc = ctx.encoder
        self.blocks = enc.info_blocks if self.recall else enc.blocks
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            self.blocks = [(f"{p}.{name}", shape) for p in ctx.seats for name, shape in self.blocks]
        self.tensor = np.zeros(enc.size(self.blocks), np.float32)
        self.dict = enc.views(self.tensor, self.blocks)

    def _viewers(self, player):
        if self.private == pyspiel.PrivateInfoType.NONE:
            return [None]
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return list(self.ctx.seats)
        return [self.ctx.seats[player] if player is not None and player >= 0 else None]

    def set_from(self, state, player):
        self.tensor.fill(0)
        st = state.engine_state
        if st is None:  # the seed is not drawn yet: nothing is seen
            return
        enc = self.ctx.encoder
        viewers = self._viewers(player)
        for who in viewers:
            if len(viewers) > 1:
                d = {name.split(".", 1)[1]: arr for name, arr in self.dict.items() if name.startswith(f"{who}.")}
            else:
                d = self.dict
            enc.fill(d, state._h.view(who), who, info=self.recall)
            if state._h.cut:  # a game cut at max_actions: over, nobody won
                d["result"][-1] = 1

    def string_from(self, state, player):
        st = state.engine_state
        if st is None:
            return "start"
        out = []
        for who in self._viewers(player):
            v = state._h.view(who)
            if self.recall:
                out.append(self.ctx.information_state_string(st, who, state._h.mine.get(who, ()), v))
            else:
                out.append(self.ctx.observation_string(st, who, v))
        if state._h.cut:
            out.append("cut")
        return "\n".join(out)


pyspiel.register_game(_game_type(GENERIC, _DEFAULTS), LotrGame)


def _params(game, mods=(), options=None, players=None, max_actions=0, num_actions=DEFAULT_NUM_ACTIONS,
            returns="auto", max_return=0.0, seed=1, chance_outcomes=1000) -> dict:
    spec = Spec.make(game, mods, options, players, max_actions, num_actions, returns, max_return)
    context(spec)  # load and check now: a bad game or option is an error here, not inside OpenSpiel
    for k, v in (("game", spec.game), *(("mods", m) for m in spec.mods)):
        if any(ch in str(v) for ch in "(),=;"):
            raise ValueError(f"{k} {v!r}: a name or path for OpenSpiel may not hold ( ) , = ;")
    if any(ch in options_text(dict(spec.options)) for ch in "(),="):
        raise ValueError("options for OpenSpiel may not hold ( ) , =")
    return {"game": spec.game, "mods": ";".join(spec.mods), "options": options_text(dict(spec.options)),
            "players": spec.players, "seed": int(seed), "max_actions": spec.max_actions,
            "num_actions": spec.num_actions, "returns": spec.returns, "max_return": float(spec.max_return),
            "chance_outcomes": int(chance_outcomes)}


def register(game, mods=(), options=None, players=None, short_name=None, **kw) -> str:
    """Register a game (with its mods, options, players...) under its own short name (default
    ``lotr_<name>[_<mod>...]``), so ``pyspiel.load_game(short_name)`` loads it; returns the name.
    Registering the same name again with the same parameters is allowed."""
    params = _params(game, mods, options, players, **kw)
    ctx = context(_spec(params)[0])
    name = short_name or f"lotr_{ctx.name_key()}"
    if name in _REGISTERED:
        if _REGISTERED[name] != params:
            raise ValueError(f"{name!r} is registered already with other parameters")
        return name
    cls = type(f"LotrGame_{name}", (LotrGame,), {"short_name": name})
    _REGISTERED[name] = params
    pyspiel.register_game(_game_type(name, params, ctx), cls)
    return name


def load(game, mods=(), options=None, players=None, **kw):
    """A ``pyspiel.Game`` for a game of this engine (through the generic ``lotr_rules``)."""
    return pyspiel.load_game(GENERIC, _params(game, mods, options, players, **kw))
