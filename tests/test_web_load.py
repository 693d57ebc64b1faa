"""Load on the browser board's server: 50 games at once on one server (127.0.0.1), every person's
seat a WebSocket client clicking random options as fast as the server answers, some seats played
by the computer, for a bounded time (LOTR_WEB_LOAD_SECONDS, default 30); a finished game is
replaced by a new one. No error may come back, every game must move, and the server must keep
answering other requests meanwhile. The figures are written to artifacts/web-load.json.

The server runs in a thread of the test's process (as in the other web tests); the clients run
in a process of their own, so that they do not compete with the server for the interpreter's lock
(in one process the figures halve). Another visitor asks for the start page's data every half
second from the test's main thread."""
from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from interpreter.web import BackgroundServer, Lobby, create_app

GAMES = 50
SECONDS = float(os.environ.get("LOTR_WEB_LOAD_SECONDS", "30"))
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
# (game, players, mods, who plays each seat: None = a person)
MIX = [("duel", None, [], [None, None]),
       ("confrontation", None, [], [None, None]),
       ("confrontation", None, ["deluxe"], [None, "random"]),
       ("risk", 4, [], [None, None, "random", "random"]),
       ("risk", 3, [], [None, None, None]),
       ("war-of-the-ring", None, [], [None, "greedy:1"])]


class Stats:
    def __init__(self):
        self.actions = 0
        self.messages = 0
        self.errors = []
        self.latencies = []
        self.games_started = 0
        self.games_over = 0
        self.moves_per_slot = [0] * GAMES
        self.probes = []


async def seat_client(url, rng, stats, slot, stop_at):
    """One person: answers each table where it is to act with a random option."""
    acted = -1
    sent_at = None
    async with connect(url, max_size=None, open_timeout=20) as ws:
        while True:
            left = stop_at - time.monotonic()
            if left <= 0:
                return
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except (asyncio.TimeoutError, TimeoutError):
                return
            m = json.loads(raw)
            if m["type"] == "error":
                stats.errors.append(m["message"])
                continue
            if m["type"] != "table":
                continue
            stats.messages += 1
            if sent_at is not None and m["version"] > acted:
                stats.latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if m["error"]:
                stats.errors.append(m["error"])
                return
            if m["table"]["over"]:
                return
            if m["can_act"] and m["version"] > acted:
                acted = m["version"]
                opts = m["table"]["decision"]["options"]
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(opts)["id"], "version": m["version"]}))
                stats.actions += 1
                stats.moves_per_slot[slot] += 1


async def game_slot(base, slot, stats, stop_at):
    """One of the 50 games at a time: a new one whenever the last has ended."""
    rng = random.Random(slot)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        n = 0
        while time.monotonic() < stop_at - 1:
            game, players, mods, who = MIX[(slot + n) % len(MIX)]
            n += 1
            info = (await http.get(f"api/games/{game}", params={"mods": ",".join(mods)})).json()
            seats = [s["id"] for s in info["seatings"][str(players or info["default_players"])]]
            r = await http.post("api/new", json={"game": game, "players": players, "mods": mods,
                                                 "seed": rng.randrange(10**6),
                                                 "seats": {s: (w or "human") for s, w in zip(seats, who)}})
            assert r.status_code == 200, r.text
            res = r.json()
            stats.games_started += 1
            base_ws = base.replace("http://", "ws://")
            urls = [base_ws + "ws/" + lk["url"].rsplit("/", 1)[1] for lk in res["links"]]
            await asyncio.gather(*(seat_client(u, random.Random(rng.random()), stats, slot, stop_at) for u in urls))
            host = res["host"].rsplit("/", 1)[1]
            over = (await http.get(f"api/host/{host}")).json()
            if over["error"]:
                stats.errors.append(over["error"])
            if over["over"]:
                stats.games_over += 1


def swarm(base, seconds, out):
    """The clients (in their own process): 50 game slots for `seconds`; their figures into `out`."""
    stats = Stats()
    started = time.monotonic()
    stop_at = started + seconds

    async def main():
        await asyncio.gather(*(game_slot(base, i, stats, stop_at) for i in range(GAMES)))

    try:
        asyncio.run(main())
    except BaseException as exc:  # reported, not lost with the process
        stats.errors.append(f"client swarm failed: {exc!r}")
    out.put({"elapsed": time.monotonic() - started, "actions": stats.actions, "messages": stats.messages,
             "errors": stats.errors[:20], "error_count": len(stats.errors), "latencies": stats.latencies,
             "started": stats.games_started, "over": stats.games_over, "per_slot": stats.moves_per_slot})


def test_fifty_games_at_once_for_a_bounded_time():
    import multiprocessing

    srv = BackgroundServer(create_app(Lobby(agent_delay=0))).start()
    probes = []
    try:
        httpx.get(srv.url + "api/games", timeout=60)  # every game loaded once, before the clock starts
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        proc = ctx.Process(target=swarm, args=(srv.url, SECONDS, out), daemon=True)
        proc.start()
        deadline = time.monotonic() + SECONDS + 120
        got = None
        while got is None:
            assert time.monotonic() < deadline, "the clients did not finish"
            assert srv.alive(), "the server thread died under load"
            t0 = time.monotonic()
            r = httpx.get(srv.url + "api/games", timeout=30)
            assert r.status_code == 200
            probes.append(time.monotonic() - t0)
            try:
                got = out.get(timeout=0.5)
            except Exception:
                got = None
        proc.join(30)
        alive = srv.alive()
        rooms = len(srv.lobby.rooms)
    finally:
        srv.stop()
    lat = sorted(got["latencies"]) or [0.0]
    elapsed = got["elapsed"]
    figures = {
        "games_at_once": GAMES, "seconds": round(elapsed, 1), "games_started": got["started"],
        "games_finished": got["over"], "person_actions": got["actions"],
        "person_actions_per_second": round(got["actions"] / elapsed, 1), "messages_received": got["messages"],
        "messages_per_second": round(got["messages"] / elapsed, 1),
        "answer_latency_s": {"p50": round(statistics.median(lat), 4), "p95": round(lat[int(0.95 * (len(lat) - 1))], 4),
                             "max": round(lat[-1], 4)},
        "other_request_latency_s": {"p50": round(statistics.median(probes), 4), "max": round(max(probes), 4)},
        "errors": got["error_count"], "rooms_in_memory_at_end": rooms,
        "slowest_slot_actions": min(got["per_slot"]),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "web-load.json").write_text(json.dumps(figures, indent=1))
    print("\nload:", json.dumps(figures))
    assert alive, "the server thread died under load"
    assert not got["errors"], got["errors"][:5]
    assert min(got["per_slot"]) >= 5, got["per_slot"]  # every game moved
    assert max(probes) < 5.0, probes
    assert got["actions"] > GAMES * 10
