"""The games a server offers: the catalogue of games and their mods (loaded once, cached by game
and mods), what the start page shows of each, and which agents may play on a server."""
from __future__ import annotations

from pathlib import Path

from ..errors import RuleError, one_line

#: agents offered by the start page (any known agent name is accepted, within AGENT_LIMITS)
AGENT_CHOICES = ["random", "greedy", "greedy:2", "mcts"]
#: the largest number an agent may carry on a server (look-ahead depth, MCTS iterations); a
#: game's own default agent is always allowed
AGENT_LIMITS = {"greedy": 4, "mcts": 3000}


class WebError(Exception):
    """A request the server refuses, with a message for the person (HTTP 400 / a socket error)."""


def clean(exc) -> str:
    return " ".join(one_line(part) for part in str(exc).split("\n"))[:500]


class Catalogue:
    """The games a server offers (the games under games/, and any game folder named when the
    server started), their mods, and loaded rules cached by (game, mods)."""

    def __init__(self, extra=(), extra_mods=None):
        from ..cli.common import known_games
        from ..loading.loader import GAMES_DIR

        self.folders: dict[str, Path] = {name: GAMES_DIR / name for name in known_games()}
        for path in extra:
            p = Path(path).resolve()
            self.folders.setdefault(p.name, p)
        # mods a game may use: its own mods/ folder, and mods named on the command line
        self.extra_mods = {k: list(v) for k, v in (extra_mods or {}).items()}
        self._games: dict = {}
        self._info: dict = {}

    def key(self, name: str) -> str:
        """The catalogue's name of a game named by folder or by its rules' name."""
        if name in self.folders:
            return name
        for k in self.folders:
            info = self._info.get(k)
            if info is not None and info.get("rules_name") == name:
                return k
        for k in self.folders:  # load them to learn their rules' names
            if self.info(k).get("rules_name") == name:
                return k
        raise WebError(f"no game {name!r} on this server")

    def mods_of(self, key: str) -> list[str]:
        folder = self.folders[key]
        own = sorted(m.parent.name for m in folder.glob("mods/*/mod.yaml"))
        return own + [m for m in self.extra_mods.get(key, []) if m not in own]

    def game(self, name: str, mods=()):
        key = self.key(name)
        mods = tuple(mods or ())
        allowed = self.mods_of(key)
        for m in mods:
            if m not in allowed:
                raise WebError(f"no mod {m!r} for {key}" + (f" (its mods: {', '.join(allowed)})" if allowed else ""))
        if len(set(mods)) != len(mods):
            raise WebError("a mod is named twice")
        got = self._games.get((key, mods))
        if got is None:
            from .. import load_game

            try:
                got = load_game(str(self.folders[key]), mods=mods)
            except RuleError as exc:
                raise WebError(f"{key} cannot be loaded: {len(exc.diagnostics)} problem(s) in its rule files "
                               f"(lotr-rules validate {key} lists them)") from None
            self._games[(key, mods)] = got
        return got

    def info(self, key: str, mods=()) -> dict:
        """What the start page shows of a game (with mods: the rules after them)."""
        mods = tuple(mods or ())
        if not mods and key in self._info:
            return self._info[key]
        out = {"game": key, "mods": self.mods_of(key), "mod_docs": {}}
        for m in out["mods"]:
            out["mod_docs"][m] = _mod_description(self.folders[key], m)
        try:
            g = self.game(key, mods)
        except WebError as exc:
            out.update(title=key, error=str(exc))
            return out
        r = g.rules
        seatings = {}
        for n in g.player_counts:
            seatings[str(n)] = [{"id": p, "name": r.display(p)} for p in g.seating(n)]
        out.update(rules_name=r.name, title=r.title, players=g.player_counts, default_players=g.default_players,
                   seatings=seatings, default_agent=r.default_agents or "random",
                   options={k: {"default": d.get("default"), "choices": d.get("choices"), "doc": d.get("doc", "")}
                            for k, d in r.options.items()})
        if not mods:
            self._info[key] = out
        return out

    def listing(self) -> list[dict]:
        return [self.info(k) for k in sorted(self.folders)]

    def listed(self) -> bool:
        """Every game's start-page data is at hand (no loading needed)."""
        return all(k in self._info for k in self.folders)


def _mod_description(folder: Path, mod: str) -> str:
    import yaml

    try:
        from ..loading.mods import resolve_mod_dir

        p = resolve_mod_dir(mod, folder) / "mod.yaml"
        d = yaml.safe_load(p.read_text(encoding="utf-8"))
        return str(d.get("description", "")) if isinstance(d, dict) else ""
    except Exception:  # a description is a nicety; a broken mod says so when it is loaded
        return ""


def agent_ok(name) -> bool:
    from ..agents import agent_known

    if not isinstance(name, str) or not agent_known(name):
        return False
    base, _, arg = name.partition(":")
    return not arg or int(arg) <= AGENT_LIMITS.get(base, 10**6)
