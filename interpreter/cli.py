"""The ``lotr-rules`` command line: validate, play, simulate, replay, test, schema, cards.

Nothing here knows a game: what is shown comes from the game's ``display:`` section.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

from .errors import EngineError, IllegalAction, RuleError, SaveError


# ----------------------------------------------------------------------------- helpers
def _console(stderr=False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def _load(name, out=None, mods=()):
    from . import load_game

    try:
        return load_game(name, mods=mods)
    except RuleError as exc:
        for d in exc.diagnostics:
            print(str(d), file=sys.stderr)
        print(f"{len(exc.diagnostics)} problem(s) in the rule files of {name}", file=sys.stderr)
        raise SystemExit(1) from None


def _game_dirs(path: str) -> list[Path]:
    from .loading.loader import resolve_game_dir

    p = resolve_game_dir(path)
    if (p / "game.yaml").is_file():
        return [p]
    if p.is_dir():
        found = sorted(q.parent for q in p.glob("*/game.yaml"))
        if found:
            return found
    return [p]


# ----------------------------------------------------------------------------- validate
def _github(d) -> str:
    """A diagnostic as a GitHub Actions annotation (workflow command)."""
    def esc(text, prop=False):
        text = str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return text.replace(":", "%3A").replace(",", "%2C") if prop else text
    msg = d.message + (f" (hint: {d.hint})" if d.hint else "")
    return (f"::{d.severity} file={esc(d.path, True)},line={d.line},col={d.col},"
            f"title={esc(d.code, True)}::{esc(msg)}")


def cmd_validate(args) -> int:
    """Exit 0: no errors (warnings allowed); 1: errors found; 2: a path that is not a game."""
    from . import check_game

    errors, report = 0, []
    for path in args.paths:
        dirs = _game_dirs(path)
        if not any((d / "game.yaml").is_file() for d in dirs):
            print(f"error: {path}: no game here (a game folder holds game.yaml)", file=sys.stderr)
            return 2
        for d in dirs:
            # with --mod: the game with those mods; without: the game, then each of its own mods
            runs = [args.mod] if args.mod else [[]] + [[str(m.parent)] for m in sorted(d.glob("mods/*/mod.yaml"))]
            for mods in runs:
                t = time.perf_counter()
                diags = check_game(str(d), mods=mods)
                ms = (time.perf_counter() - t) * 1000
                n_err = sum(1 for x in diags if x.severity == "error")
                errors += n_err
                name = " + ".join([str(d)] + [Path(m).name for m in mods])
                report.append({"game": str(d), "mods": [str(m) for m in mods], "ok": n_err == 0,
                               "diagnostics": [{"path": x.path, "line": x.line, "col": x.col, "code": x.code,
                                                "severity": x.severity, "message": x.message, "hint": x.hint}
                                               for x in diags]})
                if args.format == "json":
                    continue
                for x in diags:
                    print(_github(x) if args.format == "github" else str(x), flush=True)
                warned = len(diags) - n_err
                status = (f"{n_err} error(s)" if n_err else "ok") + (f", {warned} warning(s)" if warned else "")
                print(f"{name}: {status} ({ms:.0f} ms)", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"ok": errors == 0, "errors": errors,
                          "warnings": sum(len(r["diagnostics"]) for r in report) - errors, "games": report},
                         indent=1, ensure_ascii=False))
    return 1 if errors else 0


# ----------------------------------------------------------------------------- rendering
def escape(text) -> str:
    """Text from the rules, shown literally (rich would read '[...]' as markup)."""
    from rich.markup import escape as rich_escape

    return rich_escape(str(text))


def _fmt_value(rules, v):
    if isinstance(v, list):
        return " ".join("/".join(map(str, x)) if isinstance(x, list) else rules.display(x) for x in v) or "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return rules.display(v)


def _zone_text(st, zid, viewer):
    from rich.text import Text

    rules = st.rules
    zd = rules.zones[zid]
    items = st.zones[zid]
    hidden = zd.visibility == "hidden" or (zd.visibility == "owner" and zd.owner != viewer)
    if hidden:
        return Text(f"{sum(1 for i in items if i is not None)} hidden")
    if zd.tableau:
        from .dsl.registry import REGISTRY

        avail = set(REGISTRY["available"].impl(st, zid))
        rows, order = {}, []
        for slot, it in zip(zd.slot_names, items):
            row = slot.rstrip("0123456789") or slot
            if row not in rows:
                rows[row] = []
                order.append(row)
            rows[row].append(it)
        t = Text()
        width = max(len(rows[r]) for r in order) if order else 0
        for r in order:
            t.append("  " * (width - len(rows[r])) + f"{r}: ", style="dim")
            for it in rows[r]:
                if it is None:
                    t.append("  ·   ", style="dim")
                elif it in st.facedown:
                    t.append(" [?]  ", style="dim")
                else:
                    t.append(f" {it} ", style="bold green" if it in avail else "")
            t.append("\n")
        return t
    if not items:
        return Text("-", style="dim")
    return Text(", ".join(("?" if rules.item_owner.get(i) != viewer else f"{i} ({rules.display(i)})")
                          if i in st.facedown else f"{i} ({rules.display(i)})" for i in items if i))


def _item_look(st, item, viewer) -> str:
    """An item as the viewer sees it: its name, '?' when its face is hidden from the viewer,
    and a '*' when it lies face up for everyone."""
    if item not in st.facedown:
        return f"{st.rules.display(item)}*"
    return st.rules.display(item) if st.rules.item_owner.get(item) == viewer else "?"


def render(st, viewer, console):
    from rich.panel import Panel
    from rich.table import Table

    rules = st.rules
    # players
    pt = Table(title=rules.title, expand=True)
    pt.add_column("player", style="bold")
    for label in rules.hud["players"]:
        pt.add_column(label)
    for p in st.seats:
        cells = []
        for label, f in rules.hud["players"].items():
            try:
                cells.append(escape(_fmt_value(rules, f(st, {"me": p}))))
            except Exception:  # a display expression must never break the game
                cells.append("?")
        name = f"▶ {p}" if p == st.current_player else p
        pt.add_row(name, *cells)
    console.print(pt)
    # board
    if rules.regions:
        bt = Table(title="board", expand=True)
        bt.add_column("region")
        big = len(rules.regions) > 20  # a large board: one line per region, no neighbour list
        if not big:
            bt.add_column("adjacent", style="dim")
        owned = rules.owned_kinds
        on_board = [f for f, keys in rules.zone_families.items() if keys == rules.regions]
        extra = rules.hud["regions"]
        if big:
            # one line per region where something stands: every owner's pieces, the items there,
            # and the game's own region columns (display: regions:)
            bt.add_column("pieces")
            bt.add_column("on the board")
            for label in extra:
                bt.add_column(label)
            by_loc: dict = {}
            for (k, o, loc), n in st.pieces.items():
                if loc in rules.props and n:
                    by_loc.setdefault(loc, {}).setdefault(o, []).append(f"{n} {k}")
            for r in rules.regions:
                items = [_item_look(st, it, viewer) for fam in on_board for it in st.zones[f"{fam}.{r}"]]
                cols = _region_columns(st, extra, viewer, r)
                pieces = "; ".join(f"{rules.display(o) if o else ''}: {', '.join(ks)}" for o, ks in by_loc.get(r, {}).items())
                if pieces or items or any(cols):
                    bt.add_row(rules.display(r), pieces, ", ".join(items), *cols)
            cols = []
        else:
            # the seated players, and any other army with pieces on the board (a neutral army)
            cols = [p for p in rules.players
                    if p in st.seats or any(o == p and loc in rules.props for (_, o, loc) in st.pieces)]
            for p in cols:
                bt.add_column(p)
            for label in extra:
                bt.add_column(label)
        for r in rules.regions if not big else []:
            cells = []
            for p in cols:
                parts = [f"{st.pieces.get((k, p, r), 0)} {k}" for k in owned if st.pieces.get((k, p, r), 0)]
                for fam in on_board:
                    for it in st.zones[f"{fam}.{r}"]:
                        if rules.item_owner.get(it) == p:
                            parts.append(_item_look(st, it, viewer))
                cells.append(", ".join(parts))
            cells += _region_columns(st, extra, viewer, r)
            near = dict.fromkeys(rules.adj.get(r, ()) + tuple(rules.adj_in.get("", {}).get(r, ())))
            bt.add_row(rules.display(r), ", ".join(rules.display(a) for a in near), *cells)
        console.print(bt)
    for text, f in rules.hud["zones"]:
        try:
            zid = f(st, {"me": viewer})
        except Exception:
            continue
        if zid in rules.zones:
            console.print(Panel(_zone_text(st, zid, viewer), title=zid, expand=True))
    for fam in rules.hud["player_zones"]:
        for p in st.seats:
            zid = f"{fam}.{p}"
            if zid in rules.zones and st.zones[zid]:
                console.print(f"[bold]{zid}[/]: ", _zone_text(st, zid, viewer))


def _region_columns(st, extra, viewer, r) -> list:
    """The game's own board columns (display: regions:) for region r; empty when none/false/0."""
    cells = []
    for f in extra.values():
        try:
            v = f(st, {"me": viewer, "r": r})
        except Exception:
            v = None
        cells.append("" if v in (None, False, 0, "", []) else st.rules.display(v) if isinstance(v, str) else str(v))
    return cells


def _ask_human(st, console, can_undo: bool):
    """A number, an action id, or a command: u (undo your last decision), s FILE (save), q."""
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
                Path(path).write_text(st.to_json())
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


def _options(game, pairs) -> dict:
    """--option name=value pairs; values read as YAML scalars (3, true, discard)."""
    import yaml

    out = {}
    for pair in pairs or []:
        name, _, value = pair.partition("=")
        if name not in game.rules.options:
            raise SystemExit(f"unknown option {name!r}; options: {', '.join(game.rules.options) or 'none'}")
        out[name] = yaml.safe_load(value) if value else True
    return out


def _log_record(game, st, options=None):
    return {"game": game.name, "rules_digest": game.rules.digest, "seed": st.seed, "options": options or {},
            "players": len(st.seats),
            "actions": list(st.history), "winners": list(st.winners), "victory": st.victory,
            "digest": st.digest()}


# ----------------------------------------------------------------------------- play
def cmd_play(args) -> int:
    import random

    from .agents import make_agent

    game = _load(args.game, mods=args.mod)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1_000_000)
    console = _console()
    interactive = sys.stdin.isatty() and not args.watch
    try:
        seats = game.seating(args.players)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    robot = game.rules.default_agents or "random"
    names = (args.agents or ",".join(["human" if interactive else robot] + [robot] * (len(seats) - 1))).split(",")
    if len(names) == 1:
        names = names * len(seats)
    if len(names) != len(seats):
        print(f"--agents needs {len(seats)} names ({', '.join(seats)})", file=sys.stderr)
        return 2
    if "human" in names and not sys.stdin.isatty():
        print("no terminal on standard input: a human cannot play; using random agents", file=sys.stderr)
        names = [robot if n == "human" else n for n in names]
    seat = dict(zip(seats, names))
    agents = {p: make_agent(n, args.seed * 31 + i) for i, (p, n) in enumerate(seat.items()) if n != "human"}
    options = _options(game, args.option)
    try:
        if args.load:
            st = game.state_from_json(Path(args.load).read_text())
            args.seed = st.seed
        else:
            st = game.new_game(seed=args.seed, options=options, players=args.players)
    except SaveError as exc:
        print(f"error: {args.load}: {exc}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
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
            a = _ask_human(st, console, bool(undo))
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
    console.rule(f"winners: {', '.join(st.winners) or 'none'} ({st.victory}) after {len(st.history)} actions")
    if args.save_log:
        Path(args.save_log).write_text(json.dumps(_log_record(game, st, options), indent=1))
        console.print(f"game log saved to {args.save_log}")
    return 0


# ----------------------------------------------------------------------------- simulate
def _sim_batch(task):
    game_name, agents, seeds, agent_seed, options, mods, players = task
    from . import load_game
    from .agents import make_agent

    game = load_game(game_name, mods=mods)
    out = []
    seats = game.seating(players)
    for seed in seeds:
        seat = {p: make_agent(a, seed * 7919 + agent_seed + i) for i, (p, a) in enumerate(zip(seats, agents))}
        n = 0
        t = time.perf_counter()
        try:
            st = game.new_game(seed=seed, options=options, players=players)
            while not st.over:
                st.apply(seat[st.current_player].act(st))
                n += 1
        except EngineError as exc:
            raise EngineError(f"game with seed {seed}, after {n} actions: {exc}") from None
        out.append({"seed": seed, "winners": st.winners, "victory": st.victory, "actions": n,
                    "scores": st.scores, "seconds": time.perf_counter() - t})
    return out


def cmd_simulate(args) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    game = _load(args.game, mods=args.mod)
    try:
        seats = game.seating(args.players)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    agents = (args.agents or game.rules.default_agents or "random").split(",")
    if len(agents) == 1:
        agents = agents * len(seats)
    if len(agents) != len(seats):
        print(f"--agents needs {len(seats)} names ({', '.join(seats)})", file=sys.stderr)
        return 2
    from .agents import AGENTS, agent_known

    for a in agents:
        if not agent_known(a):
            print(f"unknown agent {a!r}; agents: {', '.join(AGENTS)} (greedy:DEPTH, mcts:ITERATIONS)",
                  file=sys.stderr)
            return 2
    options = _options(game, args.option)
    try:
        game.new_game(seed=args.seed, options=options, players=args.players)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seeds = list(range(args.seed, args.seed + args.games))
    batch = max(1, min(50, args.games // max(1, args.workers * 4)))
    tasks = [(str(game.rules.root), agents, seeds[i:i + batch], args.seed, options, args.mod, args.players)
             for i in range(0, len(seeds), batch)]
    results = []
    t0 = time.perf_counter()
    show = not args.json and sys.stderr.isatty() or args.progress
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=_console(stderr=True), disable=not show) as prog:
        job = prog.add_task("games", total=len(seeds))
        if args.workers > 1:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(args.workers, mp_context=mp.get_context("spawn")) as ex:
                for res in ex.map(_sim_batch, tasks):
                    results.extend(res)
                    prog.update(job, advance=len(res))
        else:
            for task in tasks:
                res = _sim_batch(task)
                results.extend(res)
                prog.update(job, advance=len(res))
    wall = time.perf_counter() - t0
    n = len(results)
    wins = Counter()
    for r in results:
        if len(r["winners"]) == 1:
            wins[r["winners"][0]] += 1
        elif r["winners"]:
            wins["shared"] += 1
        else:
            wins["none"] += 1
    victories = Counter(r["victory"] for r in results)
    lengths = sorted(r["actions"] for r in results)
    total_actions = sum(lengths)
    summary = {
        "game": game.name, "games": n, "players": len(seats), "agents": dict(zip(seats, agents)),
        "seed": args.seed, "options": options,
        "wins": {k: wins.get(k, 0) for k in [*seats, "shared", "none"]},
        "win_rate": {k: round(wins.get(k, 0) / n, 4) for k in [*seats, "shared", "none"]},
        "victory_types": dict(victories.most_common()),
        "length": {"mean": round(total_actions / n, 2), "min": lengths[0], "median": lengths[n // 2],
                   "max": lengths[-1]},
        "mean_scores": ({p: round(sum((r["scores"] or {}).get(p, 0) for r in results) / n, 4) for p in seats}
                        if any(r["scores"] for r in results) else None),
        "seconds": round(wall, 3), "games_per_second": round(n / wall, 2),
        "actions_per_second": round(total_actions / wall, 1), "workers": args.workers,
    }
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    from rich.table import Table

    console = _console()
    t = Table(title=f"{game.rules.title}: {n} games, agents {', '.join(agents)}, seeds {args.seed}..{args.seed + n - 1}")
    t.add_column("outcome")
    t.add_column("games", justify="right")
    t.add_column("rate", justify="right")
    if summary["mean_scores"]:
        t.add_column("mean score", justify="right")
    for k in [*seats, "shared", "none"]:
        extra = [str(summary["mean_scores"][k]) if k in seats else ""] if summary["mean_scores"] else []
        t.add_row(k, str(wins.get(k, 0)), f"{wins.get(k, 0) / n:.1%}", *extra)
    console.print(t)
    v = Table(title="victory types")
    v.add_column("type")
    v.add_column("games", justify="right")
    for k, c in victories.most_common():
        v.add_row(str(k), str(c))
    console.print(v)
    L = summary["length"]
    console.print(f"game length (actions): mean {L['mean']}, min {L['min']}, median {L['median']}, max {L['max']}")
    console.print(f"{summary['games_per_second']} games/s, {summary['actions_per_second']} actions/s "
                  f"({args.workers} worker(s), {wall:.1f} s)")
    return 0


# ----------------------------------------------------------------------------- replay
def cmd_replay(args) -> int:
    try:
        rec = json.loads(Path(args.log).read_text())
        game_name, seed, actions = rec["game"], int(rec["seed"]), list(rec["actions"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"{args.log}: not a game log: {exc}", file=sys.stderr)
        return 1
    game = _load(game_name, mods=args.mod)
    if rec.get("rules_digest") and rec["rules_digest"] != game.rules.digest:
        print(f"note: the rule files changed since this log was made ({rec['rules_digest']} -> "
              f"{game.rules.digest})", file=sys.stderr)
    st = game.new_game(seed=seed, options=rec.get("options") or None, players=rec.get("players"))
    for i, a in enumerate(actions, 1):
        try:
            st.apply(a)
        except IllegalAction as exc:
            print(f"{args.log}: action {i} {a!r} is illegal on replay: {exc}", file=sys.stderr)
            return 1
        if args.verbose:
            print(f"{i:>4} {a}")
    ok = True
    for key, val in (("winners", st.winners), ("victory", st.victory), ("digest", st.digest())):
        if key in rec and rec[key] != val:
            print(f"{args.log}: {key} differs on replay: log {rec[key]!r}, replay {val!r}", file=sys.stderr)
            ok = False
    print(f"replayed {len(actions)} actions: winners {', '.join(st.winners) or 'none'} ({st.victory}); "
          f"{'matches the log' if ok else 'DOES NOT match the log'}")
    return 0 if ok else 1


# ----------------------------------------------------------------------------- test (YAML scenarios)
def _game_of(path: Path) -> Path | None:
    """The game folder a scenario file belongs to: the nearest folder above it holding game.yaml."""
    for folder in path.resolve().parents:
        if (folder / "game.yaml").is_file():
            return folder
    return None


def _scenario_files(game_dir: Path, mods) -> list[Path]:
    """The scenarios `test` runs for a game: with --mod, each named mod's own scenarios (their
    files name the mods they need); without, the game's and each of its mods' own, as
    `validate` checks the game and each of its mods."""
    from .loading.mods import resolve_mod_dir

    if mods:
        folders = [resolve_mod_dir(m, game_dir) for m in mods]
    else:
        folders = [game_dir] + sorted(m.parent for m in game_dir.glob("mods/*/mod.yaml"))
    return [f for d in folders for f in sorted(d.glob("scenarios/*.yaml"))]


def cmd_test(args) -> int:
    """`test GAME [FILE...]`, `test GAMES_FOLDER`, or `test FILE...` (each file's game is the
    folder above it that holds game.yaml; a mod's scenarios name their mod themselves)."""
    from .scenario import ScenarioFailure, load_scenarios, run_scenario

    if args.game.endswith((".yaml", ".yml")) and Path(args.game).is_file():
        args.files = [args.game, *args.files]
        root = _game_of(Path(args.game))
        if root is None:
            print(f"error: {args.game}: no game.yaml in a folder above it", file=sys.stderr)
            return 2
        args.game = str(root)
    dirs = _game_dirs(args.game)
    if not any((d / "game.yaml").is_file() for d in dirs):
        print(f"error: {args.game}: no game here (a game folder holds game.yaml)", file=sys.stderr)
        return 2
    if args.files and len(dirs) > 1:
        print("error: scenario files go with one game, not a folder of games", file=sys.stderr)
        return 2
    passed = failed = 0
    for d in dirs:
        game = _load(str(d), mods=args.mod)
        files = [Path(p) for p in args.files] if args.files else _scenario_files(d, args.mod)
        for f in files:
            try:
                cases = list(load_scenarios(f))
            except ScenarioFailure as exc:
                print(f"FAIL {exc}")
                failed += 1
                continue
            for sc, src, path in cases:
                try:
                    run_scenario(game, sc, src, path)
                    passed += 1
                except ScenarioFailure as exc:
                    print(f"FAIL {exc}")
                    failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# ----------------------------------------------------------------------------- schema / cards
def cmd_schema(args) -> int:
    from .loading.loader import KINDS, schema

    kind = args.kind
    if kind == "dsl":
        from .dsl.registry import REGISTRY

        for name, p in sorted(REGISTRY.items()):
            params = ", ".join(("*" if v else "") + f"{n}: {t}" + ("?" if d else "") for n, t, d, _, v in p.params)
            ret = f" -> {p.returns}" if p.kind == "fn" else ""
            print(f"{p.kind:4} {name}({params}){ret}\n       {p.doc}")
        return 0
    if kind is None:
        print("kinds: " + ", ".join([*KINDS, "common", "dsl"]))
        print("usage: lotr-rules schema KIND")
        return 0
    if kind not in (*KINDS, "common"):
        print(f"unknown kind {kind!r}; kinds: {', '.join([*KINDS, 'common', 'dsl'])}", file=sys.stderr)
        return 2
    print(json.dumps(schema(kind), indent=2))
    return 0


def cmd_cards(args) -> int:
    from rich.table import Table

    game = _load(args.game, mods=args.mod)
    r = game.rules
    t = Table(title=f"{r.title}: {len(r.items)} items")
    t.add_column("id", style="bold")
    t.add_column("type")
    t.add_column("name")
    t.add_column("properties")
    t.add_column("effect")
    for iid in r.items:
        props = r.props[iid]
        if args.type and props["type"] != args.type:
            continue
        shown = {k: v for k, v in props.items() if k not in ("name", "type") and v not in (None, 0, {}, [])}
        ptext = "; ".join(f"{k}={_fmt_value(r, v) if isinstance(v, list) else v}" for k, v in shown.items())
        extra = []
        if iid in r.grants:
            extra.append("grants " + ", ".join(f"{k}+{v}" for k, v in r.grants[iid].items()))
        effect = r.item_text.get(iid, "")
        t.add_row(iid, props["type"], escape(props["name"]), escape(ptext), escape("\n".join([effect, *extra]).strip()))
    _console().print(t)
    return 0


# ----------------------------------------------------------------------------- merged
def cmd_merged(args) -> int:
    """The game's rules after its mods, as YAML; each entry is preceded by the file and line
    that last set it."""
    import yaml

    from . import check_game
    from .loading.loader import load_spec

    diags = [d for d in check_game(args.game, mods=args.mod) if d.severity == "error"]
    if diags:
        for d in diags:
            print(str(d), file=sys.stderr)
        return 1
    spec = load_spec(args.game, args.mod)
    src = spec.game.source
    route = getattr(src, "route", lambda path: (src, path))

    def origin(source, path) -> str:
        return f"# {source.display}:{source.pos(path, key=bool(path))[0]}"

    class Dumper(yaml.SafeDumper):  # effect text over several lines stays a readable | block
        pass

    Dumper.add_representer(str, lambda d, v: d.represent_scalar(
        "tag:yaml.org,2002:str", v, style="|" if "\n" in v else None))

    def dump(value, indent: str) -> str:
        text = yaml.dump(value, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=100).rstrip("\n")
        return "\n".join(indent + line for line in text.split("\n"))

    out = []
    for section, value in spec.game.value.items():
        if isinstance(value, dict) and value:
            out.append(f"{section}:")
            for key, entry in value.items():
                out.append("  " + origin(*route((section, key))))
                out.append(dump({key: entry}, "  "))
        elif isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
            out.append(f"{section}:")
            for i, entry in enumerate(value):
                out.append("  " + origin(*route((section, entry.get("id", i)) if section in ("triggers", "listeners")
                                                else (section, i))))
                out.append(dump([entry], "  "))
        else:
            out.append(origin(*route((section,))))
            out.append(dump({section: value}, ""))
    for title, table in (("regions", spec.regions), ("items", spec.items)):
        out.append(f"{title}:")
        for name, e in table.items():
            out.append("  " + origin(e.source, e.path))
            out.append(dump({name: e.value}, "  "))
    out.append("connections:")
    for e in spec.connections:
        out.append("  " + origin(e.source, e.path))
        out.append(dump([e.value], "  "))
    print("\n".join(out))
    return 0


# ----------------------------------------------------------------------------- main
def _mod_option(p):
    p.add_argument("--mod", action="append", default=[], metavar="PATH",
                   help="apply a mod: a folder holding mod.yaml, or a name under the game's mods/ (repeatable, "
                        "applied in order)")


def build_parser():
    ap = argparse.ArgumentParser(prog="lotr-rules", description="Run board games from YAML rule files.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("validate", help="check rule files; print path:line:col problems")
    p.add_argument("paths", nargs="+", help="game names, game folders, or a folder of games")
    p.add_argument("--format", choices=["text", "json", "github"], default="text",
                   help="text (default), json for tools, github for GitHub Actions annotations")
    _mod_option(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("play", help="play or watch a game in the terminal")
    p.add_argument("game")
    p.add_argument("--seed", type=int, help="the game's random seed (default: a new one, shown)")
    p.add_argument("--agents", help="one per player: human, random, greedy, mcts (default human,random "
                                    "on a terminal, else random,random)")
    p.add_argument("--watch", action="store_true", help="let the computer play every side")
    p.add_argument("--save-log", help="write the game log (JSON) to this file")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--load", help="resume a game saved with 's FILE' during play")
    p.add_argument("--players", type=int, help="number of players, for games that seat several counts")
    _mod_option(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="play many games between agents and report statistics")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--agents", help="one per player (or one for all): random, greedy, mcts, greedy:DEPTH, "
                   "mcts:ITERATIONS (default: the game's agent: default, else random)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", action="store_true", help="show the progress bar even without a terminal")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--players", type=int, help="number of players, for games that seat several counts")
    _mod_option(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="re-run a saved game log and check it matches")
    p.add_argument("log")
    p.add_argument("-v", "--verbose", action="store_true")
    _mod_option(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("test", help="run YAML rule scenarios: test GAME [FILE...] or test FILE...")
    p.add_argument("game", help="a game (then its scenarios, or the files given), or a scenario file")
    p.add_argument("files", nargs="*")
    _mod_option(p)
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("schema", help="print the JSON Schema of a kind of rule file (or 'dsl')")
    p.add_argument("kind", nargs="?")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("merged", help="print a game's rules after its mods, each entry with the file that set it")
    p.add_argument("game")
    _mod_option(p)
    p.set_defaults(func=cmd_merged)

    p = sub.add_parser("cards", help="list a game's cards, tiles and tokens")
    p.add_argument("game")
    p.add_argument("--type", help="only items of this type")
    _mod_option(p)
    p.set_defaults(func=cmd_cards)
    return ap


def _options_first(argv: list) -> list:
    """Put each `--mod VALUE` right after the command, so it may also follow a list of files
    (`test GAME FILE... --mod X`), which argparse cannot mix with a variable positional list."""
    if not argv:
        return argv
    head, rest, mods = argv[:1], argv[1:], []
    i = 0
    while i < len(rest):
        if rest[i] == "--mod" and i + 1 < len(rest):
            mods += rest[i:i + 2]
            i += 2
        else:
            head.append(rest[i])
            i += 1
    return head[:1] + mods + head[1:]


def main(argv=None) -> int:
    args = build_parser().parse_args(_options_first(list(sys.argv[1:] if argv is None else argv)))
    try:
        return args.func(args) or 0
    except SaveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except EngineError as exc:
        print(f"error: the rules failed while running: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
