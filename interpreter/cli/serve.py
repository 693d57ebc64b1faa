"""`lotr-rules serve [GAME]`: play in the browser. A local server (interpreter/web) draws each
game's board from its rule files; it prints the links to open. With GAME (or --load SAVE) a game
is set up at once and each person's link is printed; without, the start page creates games."""
from __future__ import annotations

import sys

from .play import saved_game
from .common import UsageError, agent_names, load, options as _options, read_text, seats


def add_arguments(p) -> None:
    p.add_argument("game", nargs="?", help="set up a game of this at once (default: only the start page, "
                                           "which lists the games)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets others "
                        "on your network join with their links)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--agents", help="who plays each seat of GAME, one per seat or one for all: human, random, "
                                    "greedy, mcts, ismcts, greedy:DEPTH, mcts:ITERATIONS, ismcts:ITERATIONS (default: a person in the first "
                                    "seat, the game's default agent in the others)")
    p.add_argument("--hotseat", action="store_true",
                   help="the people of GAME share one screen (one link); default: one link per person")
    p.add_argument("--seed", type=int, help="GAME's random seed (default: a new one)")
    p.add_argument("--load", metavar="SAVE", help="resume a saved game (a save from the browser or from play)")
    p.add_argument("--open", action="store_true", help="open the first link in the web browser")
    p.add_argument("--agent-delay", type=float, default=0.6, metavar="SECONDS",
                   help="pause before each computer move, so people can follow (default 0.6)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set one of GAME's options (repeatable); `lotr-rules games` lists them")
    p.add_argument("--players", type=int, metavar="N", help="number of players of GAME, where it varies")
    p.add_argument("--mod", action="append", default=[], metavar="PATH",
                   help="apply a mod to GAME: a name under its mods/ or a folder holding mod.yaml (repeatable)")


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def run(args) -> int:
    import threading

    from ..loading.loader import GAMES_DIR
    from ..web import Catalogue, Lobby, WebError
    from ..web.server import bind, create_app, uvicorn_config

    if not (0 <= args.port <= 65535):
        raise UsageError(f"--port {args.port}: a port is 0 to 65535")
    if not (0 <= args.agent_delay <= 10):
        raise UsageError("--agent-delay is 0 to 10 seconds")
    spec = None
    extra, extra_mods = [], {}
    if args.load and not args.game:
        saved = saved_game(args.load)
        args.game, args.mod = saved["game"], args.mod or saved["mods"]
    if args.game:
        game = load(args.game, mods=args.mod)
        root = game.rules.root
        if root.parent != GAMES_DIR:
            extra.append(root)
        key = root.name
        extra_mods[key] = list(args.mod)
        st = None
        if args.load:
            spec = {"save": read_text(args.load, "save")}
            try:
                st = game.state_from_json(spec["save"])
            except Exception as exc:
                raise UsageError(f"{args.load}: {exc}") from None
            seated = st.seats
            if args.option or args.players or args.seed is not None:
                raise UsageError("--load resumes a game as saved: --option, --players and --seed do not apply")
        else:
            seated = seats(game, args.players)
            spec = {"game": key, "mods": list(args.mod), "options": _options(game, args.option),
                    "players": args.players, "seed": args.seed}
        robot = game.rules.default_agents or "random"
        names = agent_names(game, args.agents or ",".join(["human"] + [robot] * (len(seated) - 1)), seated,
                            humans_allowed=True)
        spec.update(seats=dict(zip(seated, names)), hotseat=args.hotseat)
    elif args.agents or args.hotseat or args.option or args.players or args.mod or args.seed is not None:
        raise UsageError("--agents, --hotseat, --option, --players, --mod and --seed set up GAME: name a game "
                         "(or create games on the start page)")

    lobby = Lobby(Catalogue(extra=extra, extra_mods=extra_mods), agent_delay=args.agent_delay)
    room = None
    if spec is not None:
        try:
            room = lobby.create(spec)
        except WebError as exc:
            raise UsageError(str(exc)) from None
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
                         + (" (another server uses that port? try --port 0)" if exc.errno in (98, 48, 10048) else ""))
    except (OverflowError, ValueError) as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc}") from None
    port = sock.getsockname()[1]
    base = f"http://{_url_host(args.host)}:{port}/"
    out = sys.stdout
    print(f"lotr-rules is serving at {base}  (new games, load a save; Ctrl-C stops it and forgets its games)",
          file=out)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"listening on {args.host}: anyone who can reach this machine can open the start page; a game "
              "needs its link", file=out)
    first = base
    if room is not None:
        info = room.host_info(base)
        print(f"{info['title']}" + (f" (mods: {', '.join(room.mods)})" if room.mods else ""), file=out)
        for lk in info["links"]:
            who = ", ".join(s["name"] for s in lk["seats"])
            print(f"  {'hot seat: ' + who if lk['kind'] == 'hotseat' else who}: {lk['url']}", file=out)
        for s in info["seats"]:
            if s["controller"] != "human":
                print(f"  {s['name']}: the computer ({s['controller']})", file=out)
        print(f"  watch: {info['watch']}", file=out)
        print(f"  host page (these links, save): {info['host']}", file=out)
        first = info["links"][0]["url"] if info["links"] else info["watch"]
    out.flush()

    import uvicorn

    server = uvicorn.Server(uvicorn_config(create_app(lobby)))
    if args.open:
        import webbrowser

        def opener():
            import time

            for _ in range(200):
                if server.started:
                    break
                time.sleep(0.05)
            webbrowser.open(first)

        threading.Thread(target=opener, daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0
