"""The browser board's server: a Starlette app over the rooms of rooms.py.

Pages:  /                  start page: the games, their mods, player counts and options; new
                           game or load a save
        /play/TOKEN        the table of one link (a seat, the hot seat, or watching)
        /host/TOKEN        the creator's page: the links to hand out, the save
JSON:   GET  /api/games                    the games (and the agents offered)
        GET  /api/games/GAME?mods=a,b      one game with mods applied (its seats and options)
        POST /api/new                      a new game or a loaded save -> its links
        GET  /api/table/TOKEN              what that link sees now (as the socket sends it)
        POST /api/act/TOKEN                {"action": id, "version": n} (the socket does the same)
        GET  /api/host/TOKEN               the host page's data
        GET  /api/save/TOKEN               the save (the host, or the only person of a game)
Socket: /ws/TOKEN          the table on every change, chat lines; from the page:
                           {"type": "act", "action", "version"}, {"type": "chat", "text"},
                           {"type": "undo"} (the one person of a game against the computer),
                           {"type": "sync"}, {"type": "ping"}

Nothing here prints or sends a Python traceback: a request that fails gets one line of text.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .catalogue import AGENT_CHOICES, AGENT_LIMITS, Catalogue, WebError, clean
from .lobby import Lobby
from .rooms import Connection

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 8192          # bytes of one message from a page
MAX_BODY = 70 * 2**20       # a save posted to /api/new
log = logging.getLogger("lotr_rules.web")


def _base(request) -> str:
    return str(request.base_url)


def _links(room, base: str) -> dict:
    info = room.host_info(base)
    first = next((lk["url"] for lk in info["links"]), info["watch"])
    return {"id": room.id, "title": info["title"], "links": info["links"], "watch": info["watch"],
            "host": info["host"], "play": first, "hotseat": room.hotseat,
            "seats": info["seats"]}


def create_app(lobby: Lobby | None = None, *, catalogue: Catalogue | None = None, agent_delay: float = 0.6) -> Starlette:
    """The app; `lobby` holds its games (a new one by default)."""
    lobby = lobby or Lobby(catalogue or Catalogue(), agent_delay=agent_delay)

    def error(status: int, message: str):
        return JSONResponse({"error": message}, status_code=status)

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def play_page(request):
        if lobby.find(request.path_params["token"]) is None:
            return _gone()
        return FileResponse(STATIC / "play.html")

    async def host_page(request):
        got = lobby.find(request.path_params["token"])
        if got is None or got[1].kind != "host":
            return _gone()
        return FileResponse(STATIC / "host.html")

    async def games(request):
        cat = lobby.catalogue
        listing = cat.listing() if cat.listed() else await asyncio.to_thread(cat.listing)
        return JSONResponse({"games": listing,
                             "agents": AGENT_CHOICES, "limits": AGENT_LIMITS})

    async def game_info(request):
        mods = [m for m in request.query_params.get("mods", "").split(",") if m]
        try:
            key = lobby.catalogue.key(request.path_params["game"])
            return JSONResponse(await asyncio.to_thread(lobby.catalogue.info, key, tuple(mods)))
        except WebError as exc:
            return error(404, str(exc))

    async def new_game(request):
        body = await _body(request)
        if isinstance(body, Response):
            return body
        try:
            room = lobby.register(await asyncio.to_thread(lobby.build, body))
        except WebError as exc:
            return error(400, str(exc))
        return JSONResponse(_links(room, _base(request)))

    async def get_table(request):
        got = lobby.find(request.path_params["token"])
        if got is None:
            return error(404, "no game behind this link (the server may have restarted)")
        room, role = got
        msg, _ = room.message(role)
        return JSONResponse(msg)

    async def post_act(request):
        got = lobby.find(request.path_params["token"])
        if got is None:
            return error(404, "no game behind this link (the server may have restarted)")
        room, role = got
        body = await _body(request, MAX_MESSAGE)
        if isinstance(body, Response):
            return body
        if not isinstance(body, dict):
            return error(400, 'send {"action": "<an option id>", "version": <n>}')
        try:
            room.act(role, body.get("action"), body.get("version"))
        except WebError as exc:
            return JSONResponse({"error": str(exc), "version": room.version}, status_code=409)
        msg, _ = room.message(role)
        return JSONResponse(msg)

    async def host_api(request):
        got = lobby.find(request.path_params["token"])
        if got is None or got[1].kind != "host":
            return error(404, "no game behind this link")
        return JSONResponse(got[0].host_info(_base(request)))

    async def save(request):
        got = lobby.find(request.path_params["token"])
        if got is None:
            return error(404, "no game behind this link")
        room, role = got
        if not room.can_save(role):
            return error(403, "only the host of this game may save it (a save shows every hidden card)")
        name = f"{room.key}-{room.id}-{len(room.state.history)}.json"
        return Response(room.save(), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def ws_endpoint(ws: WebSocket):
        got = lobby.find(ws.path_params["token"])
        await ws.accept()
        if got is None:
            await ws.send_text(json.dumps({"type": "error", "fatal": True,
                                           "message": "no game behind this link (the server may have restarted)"}))
            await ws.close(code=4404)
            return
        room, role = got
        conn = Connection(role, ws.send_text)
        conn.render = lambda: room.text_for(conn)
        room.conns.add(conn)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        conn.push()
        if room.chat:
            conn.push(room.chat_text())
        _others(room, conn)
        room.kick()  # a game set up before the server ran may wait for the computer's move

        def reply_error(message: str, table: bool = False):
            conn.push(json.dumps({"type": "error", "message": message, "version": room.version}))
            if table:
                conn.push()

        said: list = []  # when this page last chatted
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    reply_error("send text messages (JSON), not bytes")
                    continue
                if len(text) > MAX_MESSAGE:
                    reply_error(f"a message is at most {MAX_MESSAGE} characters")
                    continue
                try:
                    data = json.loads(text)
                except (ValueError, RecursionError):
                    reply_error("a message is a JSON object, e.g. {\"type\": \"act\", \"action\": \"...\"}")
                    continue
                if not isinstance(data, dict):
                    reply_error("a message is a JSON object, e.g. {\"type\": \"act\", \"action\": \"...\"}")
                    continue
                kind = data.get("type")
                if kind == "act":
                    try:
                        room.act(role, data.get("action"), data.get("version"))
                    except WebError as exc:
                        reply_error(str(exc), table=True)
                elif kind == "undo":
                    try:
                        conn.push(json.dumps({"type": "note", "message": room.undo(role)}))
                    except WebError as exc:
                        reply_error(str(exc))
                elif kind == "sync":
                    conn.log_seen = (None, -1)
                    conn.push()
                elif kind == "chat":
                    now = asyncio.get_running_loop().time()
                    said = [t for t in said if now - t < 5.0]
                    if len(said) >= 5:  # five lines in five seconds at most
                        reply_error("slow down: a few chat lines at a time")
                        continue
                    said.append(now)
                    try:
                        room.say(role, data.get("text"))
                    except WebError as exc:
                        reply_error(str(exc))
                elif kind == "ping":
                    conn.push(json.dumps({"type": "pong", "version": room.version}))
                else:
                    reply_error("unknown message type (act, undo, chat, sync or ping)")
        except WebSocketDisconnect:
            pass
        except Exception as exc:  # never a traceback: one line in the server's log
            log.warning("socket closed after an error: %s", clean(exc))
        finally:
            conn.closed = True
            conn.wake.set()
            room.conns.discard(conn)
            pump.cancel()
            _others(room, conn)

    async def not_found(request: Request, exc: HTTPException):
        if request.url.path.startswith("/api/"):
            return error(exc.status_code, exc.detail or "not found")
        return PlainTextResponse(f"{exc.status_code}: {exc.detail or 'not found'}", status_code=exc.status_code)

    async def server_error(request: Request, exc: Exception):
        log.warning("request %s failed: %s", request.url.path, clean(exc))
        return error(500, "the server failed on this request; the game is unchanged")

    routes = [
        Route("/", index),
        Route("/play/{token}", play_page),
        Route("/host/{token}", host_page),
        Route("/api/games", games),
        Route("/api/games/{game}", game_info),
        Route("/api/new", new_game, methods=["POST"]),
        Route("/api/table/{token}", get_table),
        Route("/api/act/{token}", post_act, methods=["POST"]),
        Route("/api/host/{token}", host_api),
        Route("/api/save/{token}", save),
        WebSocketRoute("/ws/{token}", ws_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found, Exception: server_error})
    app.state.lobby = lobby
    return _Headers(app)


def _others(room, conn):
    """Tell the other pages of a room that someone came or went (the seats' online marks)."""
    for c in list(room.conns):
        if c is not conn and not c.closed:
            c.push()


def _gone():
    return PlainTextResponse("No game behind this link: the link is wrong, or the server was restarted "
                             "(games live in its memory). Start a new game at /.", status_code=404)


async def _body(request, limit=MAX_BODY):
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return JSONResponse({"error": f"the request is larger than {limit} bytes"}, status_code=413)
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):
        return JSONResponse({"error": "the request is not JSON"}, status_code=400)


class _Headers:
    """Security headers on every page: scripts and styles from this server only, no referrer
    (links carry tokens), no framing; pages that show a game are never cached."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                csp = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                       f"connect-src 'self' ws://{host} wss://{host}; frame-ancestors 'none'; base-uri 'none'; "
                       "form-action 'self'")
                headers += [(b"content-security-policy", csp.encode("latin-1")),
                            (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"x-frame-options", b"DENY")]
                if not path.startswith("/static/"):
                    headers.append((b"cache-control", b"no-store"))
                message = dict(message, headers=headers)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:  # the app's own handler answered already, or the client left
            log.warning("request %s failed: %s", path, clean(exc))


# --------------------------------------------------------------------------------------------
# running it


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: a free one), or OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def uvicorn_config(app, log_level="warning"):
    import uvicorn

    return uvicorn.Config(app, log_level=log_level, access_log=False, ws_max_size=64 * 1024,
                          ws_ping_interval=20, ws_ping_timeout=20, lifespan="off", timeout_graceful_shutdown=2)


class BackgroundServer:
    """The server in a thread (for tests and embedding): .url, .alive(), .stop(), .lobby, .loop.

        with BackgroundServer(create_app(Lobby(agent_delay=0))) as srv:
            httpx.get(srv.url + "api/games")
    """

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        import uvicorn

        self.app = app
        self.lobby = app.state.lobby
        self.sock = bind(host, port)
        self.host, self.port = self.sock.getsockname()[:2]
        self.url = f"http://{host}:{self.port}/"
        self.server = uvicorn.Server(uvicorn_config(app))
        self.server.install_signal_handlers = lambda: None  # not the main thread
        self.loop = None
        self.failed = None
        self.thread = threading.Thread(target=self._run, name="lotr-rules-web", daemon=True)

    def _run(self):
        try:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(self.server.serve(sockets=[self.sock]))
        except BaseException as exc:  # kept for alive() to report
            self.failed = exc
        finally:
            if self.loop is not None:
                self.loop.run_until_complete(self.lobby.close())
                self.loop.close()

    def start(self, timeout: float = 10.0):
        import time

        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the web server did not start: {self.failed!r}")
            time.sleep(0.02)
        return self

    def alive(self) -> bool:
        return self.thread.is_alive() and self.server.started and not self.server.should_exit

    def call(self, fn, timeout: float = 10.0):
        """Run fn() on the server's loop (where the rooms live) and return its result."""
        async def run():
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)
        with contextlib.suppress(OSError):
            self.sock.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
