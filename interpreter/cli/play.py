"""`lotr-rules play GAME`: play at the full-screen table (cli/tui) on a terminal, or in line mode
(--plain, --watch, or without a terminal): numbered actions, the board printed by cli/render."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import EngineError, SaveError
from .common import (UsageError, agent_names, console as _console, escape, game_dir, load, options as _options, read_json,
                     seats, writable_file)
from .render import render


def _ask_human(st, console, can_undo: bool, seat: dict):
    """A number, an action id, or a command: u (undo your last decision), s FILE (save, with who
    plays each seat), q."""
    acts = st.legal_actions()
    console.print(f"[bold]{st.current_player}[/], choose:")
    for i, a in enumerate(acts, 1):
        console.print(f"  [cyan]{i:>3}[/] {escape(a.label)}  [dim]{escape(a.id)}[/]")
    console.print("[dim]  b board · u undo · s FILE save · q quit[/]")
    while True:
        try:
            raw = input("> ").strip()
        except EOFError:
            raise SystemExit(0) from None
        if raw in ("q", "quit", "exit"):
            raise SystemExit(0)
        if raw == "b":
            render(st, st.current_player, console)
            continue
        if raw == "u":
            if can_undo:
                return "undo"
            console.print("[red]nothing to undo[/]")
            continue
        if raw.startswith("s "):
            path = raw[2:].strip()
            try:
                Path(path).write_text(st.to_json(agents=seat))
                console.print(f"saved to {path}; resume with: lotr-rules play {st.rules.name} --load {path}")
            except OSError as exc:
                console.print(f"[red]cannot save: {exc}[/]")
            continue
        if raw.isdigit() and 1 <= int(raw) <= len(acts):
            return acts[int(raw) - 1]
        for a in acts:
            if a.id == raw:
                return a
        console.print("[red]type a number from the list, an action id, b, u, s FILE or q[/]")


def default_agents() -> dict:
    """Each game's default agent (`agent: default:` in its game.yaml), read without loading it."""
    import re

    from .common import known_games
    from ..loading.loader import GAMES_DIR

    out = {}
    for name in known_games():
        try:
            text = (GAMES_DIR / name / "game.yaml").read_text(encoding="utf-8")
        except OSError:
            continue
        m = re.search(r"^agent:[ \t]*\n(?:(?:[ \t]+.*|[ \t]*#.*|)\n)*?[ \t]+default:[ \t]*['\"]?([\w:]+)", text, re.M)
        out[name] = m.group(1) if m else "random"
    return out


def add_arguments(p) -> None:
    from .common import UsageError  # noqa: F401  (the checks live in run)

    defaults = ", ".join(f"{g} {a}" for g, a in default_agents().items())
    p.add_argument("game", nargs="?", help="the game (may be left out with --load: the save names it)")
    p.add_argument("--seed", type=int, help="the game's random seed (default: a new one, shown)")
    p.add_argument("--agents", help="one per seat, or one for all: human, random, greedy, mcts, ismcts, greedy:DEPTH, "
                                    "mcts:ITERATIONS, ismcts:ITERATIONS (default: you in the first seat against the game's "
                                    "default agent on a terminal; the default agent everywhere otherwise). "
                                    f"Default agents: {defaults}")
    p.add_argument("--as", dest="as_seats", metavar="SEAT",
                   help="sit in this seat (SEAT,SEAT: people sharing the screen, each seat once) against the game's default "
                        "agent in the others, e.g. --as shadow; `lotr-rules games` lists each game's seats")
    p.add_argument("--plain", action="store_true",
                   help="line mode instead of the full-screen table (numbered actions; for scripts and "
                        "screen readers); without a terminal play is always in line mode")
    p.add_argument("--watch", action="store_true", help="let the computer play every seat (line mode)")
    p.add_argument("--save-log", metavar="FILE", help="write the game log (JSON) to this file at the end")
    p.add_argument("--load", metavar="SAVE", help="resume a game saved with 's FILE' during play, with the players it had "
                                               "(unless --agents or --as says otherwise)")


def seat_agents(args, seated, robot: str, interactive: bool) -> str:
    """The --agents text for this game: as given; or people in the --as seats and the default agent
    elsewhere; or (neither) a person in the first seat when there is a terminal."""
    from ..errors import did_you_mean

    if getattr(args, "as_seats", None):
        if args.agents:
            raise UsageError("give --as or --agents, not both (--agents names every seat's player)")
        want = [w.strip() for w in args.as_seats.split(",") if w.strip()]
        for w in want:
            if w not in seated:
                hint = did_you_mean(w, list(seated))
                raise UsageError(f"--as {w}: no such seat in this game; seats: {', '.join(seated)}"
                                 + (f" ({hint})" if hint else ""))
        twice = sorted({w for w in want if want.count(w) > 1})
        if twice:
            raise UsageError(f"--as names the seat {', '.join(twice)} twice: name each seat once "
                             f"(--as {','.join(dict.fromkeys(want))})")
        return ",".join("human" if p in want else robot for p in seated)
    return args.agents or ",".join(["human" if interactive else robot] + [robot] * (len(seated) - 1))


def log_record(game, st, options=None) -> dict:
    """A game log: enough to replay the game anywhere (see docs/saves.md)."""
    return {"game": game.name, "root": str(game.rules.root), "mods": list(game.rules.mods),
            "rules_digest": game.rules.digest, "seed": st.seed, "options": options or {},
            "players": len(st.seats), "actions": list(st.history), "winners": list(st.winners),
            "victory": st.victory, "scores": st.scores, "digest": st.digest()}


def saved_game(path: str) -> dict:
    """What a save says about the game it belongs to (its name, folder and mods)."""
    from ..engine.saves import saved_agents

    text, d = read_json(path, "save")
    if isinstance(d, dict) and "actions" in d and "format" not in d:
        raise UsageError(f"{path!r} is a game log, not a save: check it with lotr-rules replay {path}")
    if not isinstance(d, dict) or not isinstance(d.get("game"), str):
        raise UsageError(f"{path!r} is not a save of lotr-rules (saves are written with `s FILE` during play)")
    try:
        game_dir(d["game"])
    except UsageError as exc:
        raise UsageError(f"{path}: the save's game: {exc}") from None
    try:
        agents = saved_agents(d)
    except SaveError as exc:
        raise UsageError(f"{path}: {exc}") from None
    return {"text": text, "game": d["game"], "mods": [m for m in d.get("mods") or [] if isinstance(m, str)],
            "agents": agents}


def run(args) -> int:
    import random

    from ..agents import make_agent

    saved = saved_game(args.load) if args.load else None
    if args.game is None:
        if saved is None:
            raise UsageError("name a game to play (lotr-rules games lists them), or --load a save")
        args.game, args.mod = saved["game"], args.mod or saved["mods"]
    game = load(args.game, mods=args.mod)
    writable_file(args.save_log, "--save-log")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1_000_000)
    con = _console()
    interactive = sys.stdin.isatty() and not args.watch
    full_screen = interactive and sys.stdout.isatty() and not getattr(args, "plain", False)
    options = _options(game, args.option)
    st = None
    if saved is not None:
        try:
            st = game.state_from_json(saved["text"])
        except SaveError as exc:
            raise UsageError(f"{args.load}: {exc}") from None
        args.seed = st.seed
        options = {k: st.vars.get(k) for k in game.rules.options}
    seated = st.seats if st is not None else seats(game, args.players)
    robot = game.rules.default_agents or "random"
    if saved is not None and saved["agents"] and not args.agents and not getattr(args, "as_seats", None):
        # a saved game resumes with the players it had (a seat the save does not name: the default)
        kept = [saved["agents"].get(p, robot) for p in seated]
        args.agents = ",".join(robot if n == "human" and args.watch else n for n in kept)
    names = agent_names(game, seat_agents(args, seated, robot, interactive), seated, humans_allowed=True)
    if "human" in names and not sys.stdin.isatty():
        print(f"no terminal on standard input: a person cannot play; {robot} plays instead", file=sys.stderr)
        names = [robot if n == "human" else n for n in names]
    seat = dict(zip(seated, names))
    agents = {p: make_agent(n, args.seed * 31 + i) for i, (p, n) in enumerate(seat.items()) if n != "human"}
    if st is None:
        try:
            st = game.new_game(seed=args.seed, options=options, players=args.players)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if full_screen and "human" in names:
        from .tui import run_table

        return run_table(game, st, seat, agents, options, save_log=args.save_log)
    console = con
    console.rule(game.rules.title)
    console.print(f"seed {args.seed}; " + "; ".join(f"{p}: {n}" for p, n in seat.items())
                  + (f"; options {options}" if options else ""))
    humans = [p for p, n in seat.items() if n == "human"]
    viewer = humans[0] if len(humans) == 1 else None  # several humans at one screen: public log
    shown = 0
    last_kind = None
    undo = []  # states at the humans' earlier decisions
    while not st.is_terminal():
        p = st.current_player
        if seat[p] == "human":
            for line in st.log_for(p if len(humans) == 1 else None, shown):
                console.print(f"[dim]· {escape(line)}[/]")
            shown = len(st.log)
            # the whole board at each new kind of decision; for a run of the same decision
            # (placing one battalion after another) only the news: b shows the board again
            kind = (st.pending["type"], st.pending.get("label"))
            if kind != last_kind or st.pending["type"] == "ask":
                render(st, p, console)
            last_kind = kind
            a = _ask_human(st, console, bool(undo), seat)
            if a == "undo":
                st = undo.pop()
                shown = len(st.log)
                console.print("[yellow]undone[/]")
                continue
            undo.append(st.clone())
        else:
            a = agents[p].act(st)
        try:
            st.apply(a, atomic=True)
        except EngineError as exc:
            console.print(f"[red]the rules failed on {a.id}: {exc}; the game is left as it was[/]")
            return 1
        if not humans:
            for line in st.log_for(None, shown):
                console.print(f"· {escape(line)}")
            shown = len(st.log)
    for line in st.log_for(viewer, shown):
        console.print(f"· {escape(line)}")
    render(st, humans[0] if humans else None, console)
    from ..engine.primitives import over_words

    shown = over_words(st.rules, st.winners, st.victory)["victory"]  # (display: victories: words it)
    names = ", ".join(st.rules.display(w) for w in st.winners) or "none"
    console.rule(escape(f"winners: {names} ({shown}) after {len(st.history)} actions"))
    if args.save_log:
        try:
            Path(args.save_log).write_text(json.dumps(log_record(game, st, options), indent=1))
        except OSError as exc:
            raise UsageError(f"the game log could not be written to {args.save_log!r}: {exc.strerror or exc}") from None
        console.print(f"game log saved to {args.save_log}")
    return 0
