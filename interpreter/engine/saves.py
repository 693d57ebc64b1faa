"""Saves that cannot lie (docs/saves.md): a save loads only into the state its own history
leads to under these rules, replayed from its seed, seats and options; anything else is
refused with a SaveError naming the first difference."""
from __future__ import annotations

import json
import re

from ..errors import EngineError, IllegalAction, SaveError

MAX_SAVE_BYTES = 64 * 2**20


def load(game, text, verify: bool = True):
    """A saved game, or SaveError naming the first problem (see Game.state_from_json)."""
    from .game import GameState

    if isinstance(text, (str, bytes)) and len(text) > MAX_SAVE_BYTES:
        raise SaveError(f"the save is larger than {MAX_SAVE_BYTES // 2**20} MB")
    try:
        d = json.loads(text, parse_constant=_no_constant) if isinstance(text, (str, bytes)) else text
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"save is not valid JSON: {exc}") from None
    except ValueError as exc:  # (a number of more digits than Python reads, or NaN/Infinity)
        raise SaveError(f"save is not valid JSON: {str(exc).split(':')[0]}") from None
    except RecursionError:
        raise SaveError("save is nested too deeply to be a save") from None
    if isinstance(d, dict) and "agents" in d:  # who played the seats: the front end's, not the game's
        saved_agents(d)
        d = {k: v for k, v in d.items() if k != "agents"}
    try:  # json.loads accepts nesting a little short of the limit that comparing it overruns
        st = GameState.from_dict(game.rules, d)
        return replayed(game, st, d) if verify else st
    except RecursionError:
        raise SaveError("save is nested too deeply to be a save") from None


def _no_constant(name):
    raise ValueError(f"{name} is no number a save holds")


def saved_agents(d) -> dict:
    """Who played each seat when the game was saved ({seat: 'human' or an agent's name}; empty
    when the save does not say), or SaveError when what it says is not that."""
    agents = d.get("agents", {}) if isinstance(d, dict) else {}
    if not isinstance(agents, dict) or not all(isinstance(k, str) and isinstance(v, str) and _AGENT.fullmatch(v)
                                               for k, v in agents.items()):
        raise SaveError("the save's 'agents' must name, for each seat, who played it ('human' or an agent "
                        "such as greedy:4)")
    return agents


_AGENT = re.compile(r"[a-z_]{1,20}(:[0-9]{1,7})?")  # (a name, not yet known to be an agent: play says)


def replayed(game, saved, d):
    """The state the saved history leads to, if it is the saved state."""
    r = game.rules
    options = {k: saved.vars.get(k) for k in r.options}
    try:
        st = game.new_game(seed=saved.seed, options=options, players=len(saved.seats) if r.seats else None)
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
    if _differ(got, want):  # (as JSON: true is not 1, 1.0 is not 1)
        raise SaveError(f"the save does not match its own history: {first_difference(got, want)}")
    return st


def _differ(a, b) -> bool:
    return a != b or json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True)


def first_difference(got, want, path="") -> str:
    if isinstance(got, dict) and isinstance(want, dict):
        for k in sorted(set(got) | set(want), key=str):
            if _differ(got.get(k), want.get(k)):
                return first_difference(got.get(k), want.get(k), f"{path}.{k}" if path else str(k))
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (a, b) in enumerate(zip(got, want)):
            if _differ(a, b):
                return first_difference(a, b, f"{path}[{i}]")

    def show(v):
        text = json.dumps(v)
        return text[:60] + "..." if len(text) > 60 else text
    return f"{path or 'the state'} is {show(want)} in the save, {show(got)} by the rules"
