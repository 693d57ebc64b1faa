"""The browser board's server (interpreter/web), without a browser: the start page's data, new
games and saves, what each link may see (a leak test over random games played through the
server as every seat), robustness (illegal actions, malformed messages, closed sockets, two tabs
of one seat) and `lotr-rules serve` itself. The load test is tests/test_web_load.py, the page in
a real browser tests/test_web_browser.py."""
from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
import zlib

import httpx
import pytest
from websockets.sync.client import connect

from interpreter.web import BackgroundServer, Lobby, create_app

from test_table import hidden_from  # noqa: E402,F401  (also the browser tests' helper)

GAMES = [("duel", [], None), ("confrontation", [], None), ("confrontation", ["deluxe"], None), ("risk", [], 3),
         ("risk", [], 4), ("war-of-the-ring", [], None)]


@pytest.fixture(scope="module")
def srv():
    s = BackgroundServer(create_app(Lobby(agent_delay=0))).start()
    yield s
    alive = s.alive()
    s.stop()
    assert alive, "the server thread died during the tests"


def new(srv, game, mods=(), players=None, seats=None, **kw):
    body = {"game": game, "mods": list(mods), "players": players, "seats": seats, **kw}
    r = httpx.post(srv.url + "api/new", json=body, timeout=20)
    assert r.status_code == 200, r.text
    return r.json()


def token(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def ws_url(srv, tok):
    return srv.url.replace("http://", "ws://") + "ws/" + tok


def room_of(srv, tok):
    return srv.lobby.find(tok)[0]


def state_json(srv, tok) -> str:
    room = room_of(srv, tok)
    return srv.call(lambda: room.state.to_json())


def recv(ws, kind="table", timeout=10.0):
    """The next message of a kind (skipping others), as data."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {kind} message in {timeout} s"
        m = json.loads(ws.recv(timeout=left))
        if m["type"] == kind:
            return m


def recv_version(ws, version, timeout=10.0):
    """Messages until a table of at least this version; all of them."""
    got = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no table of version {version} in {timeout} s"
        m = json.loads(ws.recv(timeout=left))
        got.append(m)
        if m["type"] == "table" and m["version"] >= version:
            return got


# ---- the start page's data ---------------------------------------------------------------------

def test_the_start_page_lists_every_game_with_its_seats_options_and_mods(srv):
    r = httpx.get(srv.url)
    assert r.status_code == 200 and "start.js" in r.text
    assert "content-security-policy" in r.headers and r.headers["referrer-policy"] == "no-referrer"
    data = httpx.get(srv.url + "api/games", timeout=30).json()
    games = {g["game"]: g for g in data["games"]}
    assert {"duel", "confrontation", "risk", "war-of-the-ring"} <= set(games)
    assert games["risk"]["players"] == [2, 3, 4] and len(games["risk"]["seatings"]["4"]) == 4
    assert "deluxe" in games["confrontation"]["mods"] and games["confrontation"]["mod_docs"]["deluxe"]
    assert "placement" in games["confrontation"]["options"]
    assert games["war-of-the-ring"]["default_agent"] == "greedy:1"
    assert "random" in data["agents"]
    deluxe = httpx.get(srv.url + "api/games/confrontation?mods=deluxe", timeout=30).json()
    assert deluxe["title"] and set(deluxe["options"]) >= set(games["confrontation"]["options"])
    assert httpx.get(srv.url + "api/games/nosuch").status_code == 404
    for path in ("static/js/play.js", "static/js/board.js", "static/js/panels.js", "static/js/start.js",
                 "static/js/common.js", "static/js/host.js", "static/css/app.css"):
        assert httpx.get(srv.url + path).status_code == 200, path


@pytest.mark.parametrize("body, words", [
    ({"game": "nosuch"}, "no game"),
    ({"game": "duel", "mods": ["nosuch"]}, "no mod"),
    ({"game": "duel", "mods": ["../../etc"]}, "no mod"),
    ({"game": "risk", "players": 7}, "played by"),
    ({"game": "duel", "options": {"nosuch": 1}}, "unknown option"),
    ({"game": "duel", "options": {"set_aside": "nowhere"}}, "one of"),
    ({"game": "duel", "seats": {"fellowship": "human"}}, "seats"),
    ({"game": "duel", "seats": {"fellowship": "human", "sauron": "mcts:99999"}}, "neither"),
    ({"game": "duel", "seats": {"fellowship": "human", "sauron": "__import__"}}, "neither"),
    ({"game": "duel", "seed": "abc"}, "seed"),
    ({"save": "{not json"}, "not a save"),
    ({"save": json.dumps({"game": "duel", "format": 1})}, "cannot be loaded"),
    ([1, 2], "JSON object"),
])
def test_a_bad_new_game_is_refused_in_one_line(srv, body, words):
    r = httpx.post(srv.url + "api/new", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert "Traceback" not in r.text


def test_bad_requests_get_clean_answers(srv):
    assert httpx.post(srv.url + "api/new", content=b"{oops").json()["error"] == "the request is not JSON"
    r = httpx.get(srv.url + "nothing/here")
    assert r.status_code == 404 and "Traceback" not in r.text
    r = httpx.get(srv.url + "play/not-a-real-token-at-all")
    assert r.status_code == 404 and "No game behind this link" in r.text
    assert httpx.get(srv.url + "api/table/x").status_code == 404
    assert httpx.post(srv.url + "api/act/" + "y" * 24, json={}).status_code == 404


# ---- who sees what ------------------------------------------------------------------------------

def public_words(st, viewer) -> set:
    """Names that may show for other reasons: regions, players, visible items, pieces."""
    rules = st.rules
    v = st.view(viewer)
    out = {rules.display(r) for r in rules.regions} | {rules.display(p) for p in rules.players}
    for r in rules.regions:  # the board's own data ("site: Hobbiton") is printed on the board
        for x in rules.props[r].values():
            for y in (x if isinstance(x, list) else [x]):
                if isinstance(y, str):
                    out.add(rules.display(y))
    for zid, seen in v["zones"].items():
        for i in (seen.get("known", ()) if isinstance(seen, dict) else seen):
            if i and not str(i).startswith("?"):
                out.add(rules.display(i))
    for k, o, _, _ in v["pieces"]:
        out |= {rules.display(k), rules.display(o)}
    return out


def _without_rule_texts(x):
    """The message without the rule text of the cards it shows: a card's text may name other
    cards ("beats the X outright"), which tells nothing about where they are."""
    if isinstance(x, dict):
        return {k: ("" if k in ("text", "doc") else _without_rule_texts(v)) for k, v in x.items()}
    if isinstance(x, list):
        return [_without_rule_texts(v) for v in x]
    return x


def check_message(st, seat, m, log_so_far):
    """Nothing hidden from `seat` in a message it was sent: no id of a hidden item anywhere, no
    name of one outside the log and the cards' rule texts (a name may also be a visible card's),
    and the log exactly the lines the engine gives that seat."""
    t = m["table"]
    assert t["viewer"] == seat and m["seat"] == seat
    assert "log" not in t  # the log comes beside the table, only the lines the page lacks
    lines = log_so_far[: m["log_from"]] + m["log"]
    assert lines == st.log_for(seat), "the log sent is not the seat's log"
    d = t["decision"]
    if d and st.pending.get("label"):  # the rules' own words for the question ("call gwaihir?")
        words = (st.rules.hud["prompts"].get(st.pending["label"]) or st.pending["label"].replace("_", " "))
        prompt = d["prompt"]
        for part in (words if isinstance(words, list) else [words]):  # (not the values it reads)
            if isinstance(part, str):
                prompt = prompt.replace(part, " ", 1)
        d = dict(d, prompt=prompt)
    body = dict(m, log=[], table=dict(t, decision=d))
    for part in (body, body["table"]):  # the rule that ended the game is announced to all
        part.pop("victory", None)  # (its name may be a piece's: the Witch-king's victory)
        part.pop("result", None)  # (the same victory in words)
    text = json.dumps(body, ensure_ascii=False)
    # what the rules offer the seat to choose, it may know (e.g. searching a face-down discard)
    offered = {p for a in st.legal_actions() for p in a.id.split(":")} if m["can_act"] else set()
    hidden = hidden_from(st, seat) - offered
    leaked = hidden & set(re.findall(r"\w+", text))
    if leaked:
        found = re.search(rf"(?<![\w]){re.escape(min(leaked))}(?![\w])", text)
        assert not found, (seat, "id", found.group(0), text[max(0, found.start() - 300):found.end() + 60])
    public = public_words(st, seat) | {st.rules.display(p) for p in offered}
    names = {st.rules.display(i) for i in hidden} - public
    names = {n for n in names if len(n) >= 3 and n in text}
    if names:
        words = json.dumps(_without_rule_texts(body), ensure_ascii=False)
        for longer in sorted((p for p in public if any(n in p for n in names)), key=len, reverse=True):
            words = words.replace(longer, "\u00a7")  # "Skill: Knowledge / Leadership" is not "Skill: Knowledge"
        pattern = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w])")
        found = pattern.search(words)
        assert not found, (seat, "name", found.group(1), words[max(0, found.start() - 300):found.end() + 60])
    if m["can_act"]:
        assert {o["id"] for o in t["decision"]["options"]} == {a.id for a in st.legal_actions()}
    else:
        assert t["decision"] is None
    return lines


@pytest.mark.parametrize("game, mods, players", GAMES, ids=lambda x: str(x))
def test_no_seat_is_sent_anything_hidden_from_it(srv, game, mods, players):
    """Random games through the server, every seat a person on its own socket; after every
    action each seat's message is checked against the true state at that moment."""
    rng = random.Random(zlib.crc32(repr((game, mods, players)).encode()))  # stable across processes
    steps, games = {"war-of-the-ring": (70, 1), "risk": (60, 1)}.get(game, (140, 2))
    checked = 0
    info = httpx.get(srv.url + f"api/games/{game}", params={"mods": ",".join(mods)}, timeout=30).json()
    seats = [s["id"] for s in info["seatings"][str(players or info["default_players"])]]
    for g in range(games + 4):  # short games (a quick win) are topped up by more games
        if g >= games and checked > 100:
            break
        res = new(srv, game, mods, players, seats={s: "human" for s in seats}, seed=rng.randrange(10**6))
        links = {lk["seats"][0]["id"]: token(lk["url"]) for lk in res["links"]}
        assert set(links) == set(seats)
        room = room_of(srv, links[seats[0]])
        with contextlib.ExitStack() as stack:
            socks = {s: stack.enter_context(connect(ws_url(srv, links[s]), open_timeout=10)) for s in seats}
            logs = {s: [] for s in seats}
            last = {s: recv(socks[s]) for s in seats}
            for _ in range(steps):
                st = srv.call(lambda: room.state.clone())
                for s in seats:
                    logs[s] = check_message(st, s, last[s], logs[s])
                    checked += 1
                if st.over:
                    break
                actor = next(s for s in seats if last[s]["can_act"])
                opts = last[actor]["table"]["decision"]["options"]
                v = last[actor]["version"]
                socks[actor].send(json.dumps({"type": "act", "action": rng.choice(opts)["id"], "version": v}))
                for s in seats:
                    msgs = recv_version(socks[s], v + 1)
                    assert not [x for x in msgs if x["type"] == "error"], msgs
                    tables = [x for x in msgs if x["type"] == "table"]
                    for x in tables[:-1]:  # an older snapshot in between is checked for its log only
                        logs[s] = logs[s][: x["log_from"]] + x["log"]
                    last[s] = tables[-1]
    assert checked > 100


def test_a_seat_link_reads_that_seat_only(srv):
    res = new(srv, "confrontation", seats={"fellowship": "human", "sauron": "human"})
    links = {lk["seats"][0]["id"]: token(lk["url"]) for lk in res["links"]}
    fel, sau = links["fellowship"], links["sauron"]
    host, watch = token(res["host"]), token(res["watch"])
    assert len({fel, sau, host, watch}) == 4 and all(len(t) >= 24 for t in (fel, sau, host, watch))
    t = httpx.get(srv.url + f"api/table/{fel}", params={"viewer": "sauron", "seat": "sauron"}).json()
    assert t["seat"] == "fellowship" and t["table"]["viewer"] == "fellowship"
    assert httpx.get(srv.url + f"api/table/{watch}").json()["table"]["viewer"] is None
    assert httpx.get(srv.url + f"api/table/{host}").json()["table"]["viewer"] is None
    # near misses of a token reach nothing
    for bad in (fel[:-1], fel + "x", fel.upper() if fel.upper() != fel else fel.lower(), "", "%2e%2e"):
        assert httpx.get(srv.url + f"api/table/{bad}").status_code == 404
    with connect(ws_url(srv, fel[:-1] + ("A" if fel[-1] != "A" else "B"))) as w:
        m = json.loads(w.recv(timeout=5))
        assert m["type"] == "error" and m["fatal"]
    with connect(ws_url(srv, fel)) as w:
        assert recv(w)["seat"] == "fellowship"
        w.send(json.dumps({"type": "sync", "seat": "sauron", "viewer": "sauron"}))
        assert recv(w)["table"]["viewer"] == "fellowship"
        w.send(json.dumps({"type": "view", "seat": "sauron"}))
        assert "unknown message" in recv(w, "error")["message"]
    # the save holds every hidden card: the host's only, in a game of two people
    assert httpx.get(srv.url + f"api/save/{fel}").status_code == 403
    assert httpx.get(srv.url + f"api/save/{watch}").status_code == 403
    r = httpx.get(srv.url + f"api/save/{host}")
    assert r.status_code == 200 and json.loads(r.text)["game"] == "confrontation"
    assert httpx.get(srv.url + f"api/host/{fel}").status_code == 404
    assert httpx.get(srv.url + f"host/{fel}").status_code == 404
    h = httpx.get(srv.url + f"api/host/{host}").json()
    assert {lk["seats"][0]["id"] for lk in h["links"]} == {"fellowship", "sauron"}


def test_the_hot_seat_link_shows_the_seat_that_acts(srv):
    res = new(srv, "duel", seats={"fellowship": "human", "sauron": "human"}, hotseat=True)
    assert len(res["links"]) == 1 and res["links"][0]["kind"] == "hotseat"
    tok = token(res["links"][0]["url"])
    with connect(ws_url(srv, tok)) as w:
        m = recv(w)
        assert m["can_act"] and m["seat"] == m["table"]["to_act"] and not m["can_save"]
        seen = {m["seat"]}
        for _ in range(12):
            w.send(json.dumps({"type": "act", "action": m["table"]["decision"]["options"][0]["id"],
                               "version": m["version"]}))
            m = recv_version(w, m["version"] + 1)[-1]
            assert m["seat"] == m["table"]["to_act"]
            seen.add(m["seat"])
    assert seen == {"fellowship", "sauron"}


def test_against_the_computer_the_person_may_save_and_resume(srv):
    res = new(srv, "duel", seats={"fellowship": "human", "sauron": "random"}, seed=5)
    tok = token(res["play"])
    with connect(ws_url(srv, tok)) as w:
        m = recv(w)
        for _ in range(6):
            if m["table"]["over"]:
                break
            w.send(json.dumps({"type": "act", "action": m["table"]["decision"]["options"][-1]["id"],
                               "version": m["version"]}))
            while True:  # the computer answers at once (no delay in tests)
                m = recv(w)
                if m["can_act"] or m["table"]["over"]:
                    break
    assert m["can_save"]
    save = httpx.get(srv.url + f"api/save/{tok}").text
    again = new(srv, None, save=save, seats={"fellowship": "human", "sauron": "human"})
    t2 = httpx.get(srv.url + f"api/table/{token(again['links'][0]['url'])}").json()
    assert t2["log_from"] == 0 and t2["log"] == srv.call(lambda: room_of(srv, tok).state.log_for("fellowship"))
    assert state_json(srv, token(again["host"])) == state_json(srv, tok)
    # the save keeps who played each seat; resumed without saying, they play again
    assert json.loads(save)["agents"] == {"fellowship": "human", "sauron": "random"}
    kept = new(srv, None, save=save)
    assert srv.call(lambda: room_of(srv, token(kept["host"])).controllers) == {"fellowship": "human", "sauron": "random"}
    edited = json.loads(save)
    edited["vars"]["coins"] = {"fellowship": 99, "sauron": 99}
    r = httpx.post(srv.url + "api/new", json={"save": json.dumps(edited)})
    assert r.status_code == 400 and "cannot be loaded" in r.json()["error"]


def test_the_one_person_against_the_computer_may_undo_as_the_terminal_does(srv):
    """Undo takes back the person's last decision with the computer's replies, and refuses in
    the terminal's words when it cannot (nothing to undo, something revealed since); only the
    one person of a game against the computer may undo."""
    from interpreter.agents import make_agent
    from interpreter.engine import undo as undo_rules

    res = new(srv, "duel", seats={"fellowship": "random", "sauron": "human"}, seed=3)
    tok = token(res["play"])
    room = room_of(srv, tok)
    history = lambda: srv.call(lambda: len(room.state.history))  # noqa: E731

    def reply_with(seed):  # the computer's replies, the same each run
        srv.call(lambda: room._agents.__setitem__("fellowship", make_agent("random", seed)))

    def decide(w, m, action):
        w.send(json.dumps({"type": "act", "action": action, "version": m["version"]}))
        while True:  # the computer answers at once (no delay in tests)
            m2 = recv(w)
            if m2["version"] > m["version"] and m2["can_act"] and m2["version"] == srv.call(lambda: room.version):
                return m2

    with connect(ws_url(srv, tok)) as w:
        m = recv(w)
        assert m["can_undo"] and m["can_act"]
        w.send(json.dumps({"type": "undo"}))
        assert recv(w, "error")["message"] == undo_rules.NOTHING
        before, n = state_json(srv, tok), history()
        options = [o["id"] for o in m["table"]["decision"]["options"]]
        reply_with(1)
        m = decide(w, m, "take:c1_05:play")
        assert history() == n + 3  # the person's decision and the computer's two replies
        w.send(json.dumps({"type": "undo"}))
        assert recv(w, "note")["message"] == undo_rules.UNDONE
        assert state_json(srv, tok) == before and history() == n
        t = httpx.get(srv.url + f"api/table/{tok}").json()
        assert [o["id"] for o in t["table"]["decision"]["options"]] == options and t["log_from"] == 0
        w.send(json.dumps({"type": "undo"}))  # once only: nothing older
        assert recv(w, "error")["message"] == undo_rules.NOTHING
        # the computer's reply shows the person a card: that cannot be taken back
        reply_with(1)
        m = decide(w, httpx.get(srv.url + f"api/table/{tok}").json(), "take:c1_14:play")
        after = state_json(srv, tok)
        w.send(json.dumps({"type": "undo"}))
        assert recv(w, "error")["message"] == undo_rules.REVEALED
        assert state_json(srv, tok) == after
    # a link that is not the one person's may not undo; two people get no undo
    with connect(ws_url(srv, token(res["watch"]))) as w:
        assert not recv(w)["can_undo"]
        w.send(json.dumps({"type": "undo"}))
        assert "one person of a game against the computer" in recv(w, "error")["message"]
    links, _ = two_people(srv)
    with connect(ws_url(srv, links["sauron"])) as w:
        assert not recv(w)["can_undo"]
        w.send(json.dumps({"type": "undo"}))
        assert "one person" in recv(w, "error")["message"]


def test_the_computer_plays_its_seats_without_stopping_the_server(srv):
    res = new(srv, "war-of-the-ring", seats={"free_peoples": "greedy:1", "shadow": "greedy:1"}, seed=3)
    host = token(res["host"])
    room = room_of(srv, host)
    deadline = time.monotonic() + 4
    pings = []
    while time.monotonic() < deadline:
        t0 = time.monotonic()
        assert httpx.get(srv.url + "api/games", timeout=5).status_code == 200
        pings.append(time.monotonic() - t0)
        time.sleep(0.05)
    assert srv.call(lambda: room.version) > 20   # it moved on its own
    assert max(pings) < 1.0, pings                # and the server kept answering
    assert srv.call(lambda: room.error) is None


# ---- robustness ---------------------------------------------------------------------------------

def two_people(srv, game="duel"):
    res = new(srv, game, seats={"fellowship": "human", "sauron": "human"})
    links = {lk["seats"][0]["id"]: token(lk["url"]) for lk in res["links"]}
    return links, token(res["watch"])


def test_illegal_and_malformed_messages_get_errors_and_change_nothing(srv):
    links, watch = two_people(srv)
    st0 = None
    with connect(ws_url(srv, links["fellowship"])) as me, connect(ws_url(srv, links["sauron"])) as them:
        m = recv(me)
        recv(them)
        actor, other = (me, them) if m["can_act"] else (them, me)
        v = m["version"]
        st0 = state_json(srv, links["fellowship"])
        bad = ["not json", "[1, 2]", "null", '"act"', "{}", '{"type": "act"}', '{"type": "act", "action": 5}',
               '{"type": "act", "action": ""}', '{"type": "act", "action": "x" }',
               '{"type": "act", "action": "take:nothing:play", "version": %d}' % v,
               '{"type": "act", "action": "choose:x:y", "version": "7"}',
               '{"type": "act", "action": "%s"}' % ("z" * 600), '{"type": "fly"}',
               "[" * 3000 + "]" * 3000, "x" * 9000, json.dumps({"type": "act", "action": "a\u0000b"})]
        for text in bad:
            actor.send(text)
            e = recv(actor, "error")
            assert e["message"] and "Traceback" not in e["message"], text
        actor.send(b"\x00\x01 bytes")
        assert "text" in recv(actor, "error")["message"]
        # not your turn, and watching is not playing
        opt = m["table"]["decision"]["options"][0]["id"] if m["can_act"] else None
        other.send(json.dumps({"type": "act", "action": opt or "x", "version": v}))
        assert "not your turn" in recv(other, "error")["message"]
        with connect(ws_url(srv, watch)) as w:
            recv(w)
            w.send(json.dumps({"type": "act", "action": opt or "x"}))
            assert "cannot act" in recv(w, "error")["message"]
        assert state_json(srv, links["fellowship"]) == st0
        actor.send('{"type": "ping"}')
        assert recv(actor, "pong")["version"] == v
        assert httpx.post(srv.url + f"api/act/{links['fellowship']}", json={"action": "nope"}).status_code == 409
        assert state_json(srv, links["fellowship"]) == st0


def test_a_message_too_large_for_the_socket_closes_only_that_socket(srv):
    links, _ = two_people(srv)
    with connect(ws_url(srv, links["fellowship"]), max_size=None) as w:
        recv(w)
        w.send("x" * 200_000)
        with pytest.raises(Exception):
            for _ in range(5):
                w.recv(timeout=5)
    with connect(ws_url(srv, links["fellowship"])) as w:
        assert recv(w)["seat"] == "fellowship"


def test_chat_reaches_every_page_of_the_game_as_plain_text(srv):
    links, watch = two_people(srv)
    with connect(ws_url(srv, links["fellowship"])) as a, connect(ws_url(srv, links["sauron"])) as b:
        recv(a), recv(b)
        a.send(json.dumps({"type": "chat", "text": "  good   luck <b>all</b>\n\x1b[31m "}))
        name = srv.call(lambda: room_of(srv, links["fellowship"]).state.rules.display("fellowship"))
        line = recv(b, "chat")["lines"][-1]
        assert line == [name, "good luck <b>all</b> \\x1b[31m"]
        assert recv(a, "chat")["lines"][-1] == line
        a.send(json.dumps({"type": "chat", "text": ""}))
        assert "some text" in recv(a, "error")["message"]
    with connect(ws_url(srv, watch)) as w:  # a page opened later gets what was said
        recv(w)
        assert recv(w, "chat")["lines"] == [line]


def test_closed_sockets_and_two_tabs_of_one_seat(srv):
    links, _ = two_people(srv)
    room = room_of(srv, links["fellowship"])
    # sockets closed at once, or right after sending an action
    for _ in range(5):
        with connect(ws_url(srv, links["fellowship"])):
            pass
    first = json.loads(httpx.get(srv.url + f"api/table/{links['fellowship']}").text)
    actor = "fellowship" if first["can_act"] else "sauron"
    with connect(ws_url(srv, links[actor])) as w:
        m = recv(w)
        w.send(json.dumps({"type": "act", "action": m["table"]["decision"]["options"][0]["id"],
                           "version": m["version"]}))
    deadline = time.monotonic() + 5
    while srv.call(lambda: len(room.conns)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.call(lambda: len(room.conns)) == 0
    assert srv.call(lambda: room.version) == 1
    # two tabs of the seat to act: both see each move; the second, stale, click is refused
    actor = srv.call(lambda: room.state.current_player)
    with connect(ws_url(srv, links[actor])) as a, connect(ws_url(srv, links[actor])) as b:
        ma, mb = recv(a), recv(b)
        assert ma["version"] == mb["version"] == 1 and ma["can_act"] and mb["can_act"]
        opts = ma["table"]["decision"]["options"]
        a.send(json.dumps({"type": "act", "action": opts[0]["id"], "version": 1}))
        assert recv_version(a, 2)[-1]["version"] == 2
        assert recv_version(b, 2)[-1]["version"] == 2
        st = state_json(srv, links[actor])
        b.send(json.dumps({"type": "act", "action": opts[-1]["id"], "version": 1}))
        e = recv(b, "error")
        assert "moved on" in e["message"] or "not your turn" in e["message"]
        assert state_json(srv, links[actor]) == st
        assert srv.call(lambda: len(room.conns)) == 2
    assert srv.alive()


def test_the_page_of_a_link_and_the_host_page(srv):
    res = new(srv, "risk", players=3)
    r = httpx.get(res["play"])
    assert r.status_code == 200 and "play.js" in r.text and r.headers["cache-control"] == "no-store"
    r = httpx.get(res["host"])
    assert r.status_code == 200 and "host.js" in r.text


def test_a_rule_failing_while_the_game_is_shown_stops_it_with_a_message(srv):
    from interpreter.errors import EngineError

    links, watch = two_people(srv)
    room = room_of(srv, links["fellowship"])

    def break_rules():  # a game whose rules fail when its options are listed
        class Broken(type(room.state)):
            __slots__ = ()

            def legal_actions(self):
                raise EngineError("a rule failed (made up by the test)")

        room.state.__class__ = Broken
        room.version += 1

    srv.call(break_rules)
    actor = links[srv.call(lambda: room.state.current_player)]
    t = httpx.get(srv.url + f"api/table/{actor}").json()
    assert "a rule failed" in t["error"] and not t["can_act"] and t["table"]["decision"] is None
    assert t["table"]["board"]["regions"]  # the rest of the table still shows
    r = httpx.post(srv.url + f"api/act/{actor}", json={"action": "take:c1_01:play"})
    assert r.status_code == 409 and "stopped" in r.json()["error"] and "Traceback" not in r.text
    with connect(ws_url(srv, watch)) as w:
        assert "a rule failed" in recv(w)["error"]


# ---- lotr-rules serve ----------------------------------------------------------------------------

def _serve(*args):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "interpreter", "serve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_serve_prints_the_links_and_serves_them():
    p = _serve("duel", "--port", "0", "--agents", "human,random", "--agent-delay", "0")
    try:
        lines = [p.stdout.readline() for _ in range(5)]
        assert lines[0].startswith("lotr-rules is serving at http://127.0.0.1:"), lines
        seat = next(ln for ln in lines if ln.strip().lower().startswith("fellowship:"))
        url = seat.split(": ", 1)[1].strip()
        assert "/play/" in url and any("sauron: the computer (random)" in ln.lower() for ln in lines)
        deadline = time.monotonic() + 10
        while True:
            try:
                r = httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert r.status_code == 200
        t = httpx.get(url.replace("/play/", "/api/table/")).json()
        assert t["seat"] == "fellowship" and t["table"]["board"]["regions"]
    finally:
        p.terminate()
        p.wait(10)
    assert "Traceback" not in p.stderr.read()


@pytest.mark.parametrize("args, words", [
    (["nosuch"], "no game"),
    (["duel", "--agents", "human,human,human"], "--agents needs 2"),
    (["--agents", "random"], "name a game"),
    (["duel", "--port", "70000"], "a port is"),
    (["duel", "--host", "256.1.1.1", "--port", "0"], "cannot listen"),
    (["--load", "/nonexistent/save.json"], "does not exist"),
])
def test_serve_refuses_bad_usage_in_one_line(args, words):
    p = subprocess.run([sys.executable, "-m", "interpreter", "serve", *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and words in p.stderr and "Traceback" not in p.stderr, p.stderr
