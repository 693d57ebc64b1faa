"""The browser board in a real browser (Playwright driving Debian's Chromium): whole games of Duel
(hot seat, set up on the start page) and of The Confrontation (one browser per seat) played by
clicks on buttons, regions and cards, the board and the log checked against the server's state on
the way; a screenshot of each game's board (artifacts/, kept by CI); a phone-sized screen.

Chromium is required: without it these tests FAIL and say how to install it (CI installs it)."""
from __future__ import annotations

import os
import random
from pathlib import Path

import httpx
import pytest

from interpreter.engine.table import table

from test_web import hidden_from, public_words, srv  # noqa: E402,F401  (the leak test's helpers and server)

CHROMIUM = os.environ.get("LOTR_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: the browser tests need it "
                    "(apt-get install chromium, or set LOTR_CHROMIUM to a Chromium binary); CI installs it")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the browser tests need Playwright for Python: pip install -e '.[dev]'")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as exc:
            pytest.fail(f"Chromium at {CHROMIUM} did not start: {str(exc).splitlines()[0]}")
        yield b
        b.close()


class Errors(list):
    """Errors the pages of one test report; and the pages' contexts, closed after the test."""

    def __init__(self):
        super().__init__()
        self.contexts = []


@pytest.fixture()
def errors():
    """Script errors and failed loads of the test's pages: none is allowed."""
    got = Errors()
    yield got
    for ctx in got.contexts:
        ctx.close()
    assert not list(got), list(got)


def open_page(browser, url, errors, wait="body[data-version]", **kw):
    ctx = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | kw))
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors.contexts.append(ctx)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.goto(url)
    if wait:
        page.wait_for_selector(wait, state="attached", timeout=15000)
    return page


def token(url):
    return url.rstrip("/").rsplit("/", 1)[1]


def server_version(srv, room):
    return srv.call(lambda: room.version)


def wait_version(page, v, timeout=15000):
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=v, timeout=timeout)


def settle(page):
    """Wait until the computer has moved: the person's turn again, or the end."""
    page.wait_for_function("() => document.body.dataset.canAct === '1' || document.body.dataset.over === '1'",
                           timeout=20000)


def check_page(srv, room, page, seat):
    """The page shows the server's table for its seat: every region, each region's pieces, the log."""
    t = srv.call(lambda: table(room.state, seat))
    log = srv.call(lambda: room.state.log_for(seat))
    shown = page.evaluate("""() => [...document.querySelectorAll('#board [data-region]')].map(g => [
        g.dataset.region,
        [...g.querySelectorAll('.chip')].map(c => [c.dataset.owner, c.dataset.kind, Number(c.dataset.count)])
          .sort((a, b) => (a[0] + a[1]).localeCompare(b[0] + b[1]))])""")
    want = [[r["id"], sorted([[o or "", k, n] for o, k, n in r["pieces"]], key=lambda x: x[0] + x[1])]
            for r in t["board"]["regions"]]
    assert shown == want
    lines = page.locator("#log li").all_inner_texts()
    assert lines == log
    items = page.evaluate("() => document.querySelectorAll('#board [data-item], #board [data-hidden]').length")
    assert items == sum(1 for r in t["board"]["regions"] for i in r["items"] if i)
    return t


def take_turn(page, rng, prefer_board):
    """One decision by clicks: on the board or a card when the options are about one (and the dice
    say so), else a button (opening a folded group first). Returns how it was taken."""
    if page.is_visible("#curtain"):
        page.click("#curtainbtn")
    v = page.evaluate("document.body.dataset.version")
    changed = "v => document.body.dataset.version !== v"
    targets = "#board .region.target .spot, #board .bitem.target rect, #zones .card.target"
    if page.locator(targets).count() and rng.random() < prefer_board:
        for _ in range(6):
            loc = page.locator(targets)
            n = loc.count()
            if not n:
                break
            k = rng.randrange(n)
            if os.environ.get("LOTR_WEB_DEBUG"):
                print("  click", loc.nth(k).evaluate("e => (e.closest('[data-region]')||{dataset:{}}).dataset.region + ' ' + (e.closest('[data-item]')||{dataset:{}}).dataset.item + ' ' + e.tagName"), page.evaluate("document.body.dataset.version"), page.evaluate("document.body.dataset.busy"))
            loc.nth(k).click(force=True)
            if os.environ.get("LOTR_WEB_DEBUG"):
                print("  after", page.evaluate("document.body.dataset.version"), page.evaluate("document.body.dataset.busy"), page.is_visible("#menu"), page.inner_text("#picked"))
            if page.evaluate("document.body.dataset.version") != v or page.evaluate("document.body.dataset.busy") == "1":
                page.wait_for_function(changed, arg=v, timeout=15000)
                return "board"
            if page.is_visible("#menu"):
                menu = page.locator("#menu button.opt")
                menu.nth(rng.randrange(menu.count())).click()
                page.wait_for_function(changed, arg=v, timeout=15000)
                return "board"
        page.keyboard.press("Escape")
        if page.evaluate("document.body.dataset.version") != v:
            return "board"
    folded = page.locator("#options details:not([open]) > summary")
    loose = page.locator("#options button.opt:visible").count()
    if folded.count() and (not loose or rng.random() < 0.7):
        folded.nth(rng.randrange(folded.count())).click()
    buttons = page.locator("#options button.opt:visible")
    n = buttons.count()
    if not n:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "failed-no-button.png"), full_page=True)
    assert n, ("a decision without a button to take it", page.inner_html("#status")[:2000])
    buttons.nth(rng.randrange(n)).click()
    page.wait_for_function(changed, arg=v, timeout=15000)
    return "button"


def finish(page, t, errors):
    page.wait_for_selector("#over:not([hidden])", timeout=10000)
    title = page.inner_text("#overtitle")
    names = [p["name"] for p in t["players"] if p["id"] in t["winners"]]
    assert all(n in title for n in names) and (names or "Nobody" in title)
    page.click("#overclose")
    assert page.inner_text("#prompt").startswith("Game over")


def test_a_whole_game_of_duel_at_one_screen_set_up_on_the_start_page(browser, srv, errors):
    page = open_page(browser, srv.url, errors, wait="article[data-game='duel']")
    for game in ("duel", "confrontation", "risk", "war-of-the-ring"):
        assert page.locator(f"article[data-game='{game}']").count() == 1
    page.click("article[data-game='duel'] button")
    page.select_option("select[data-seat='fellowship']", "human")
    page.select_option("select[data-seat='sauron']", "human")
    page.check("input[name='hotseat']")
    page.click("#setup details > summary")
    page.fill("input[name='seed']", "11")
    page.click("#create")
    page.wait_for_selector("#ready:not([hidden])")
    assert "/host/" in page.locator("#ready a[href*='/host/']").get_attribute("href")
    page.click("#ready a.primary")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("body[data-version]", state="attached")
    room, role = srv.lobby.find(token(page.url))
    assert role.kind == "hotseat"
    assert page.locator("#board [data-region]").count() == 7
    assert page.locator("#board line.conn").count() == 10
    # card text on hover
    card = page.locator("#zones .card[data-item]").first
    card.hover()
    page.wait_for_selector("#tip:not([hidden])")
    item = srv.call(lambda: table(room.state, None))
    assert any(i and i.get("text") and i["text"] in page.inner_text("#tip")
               for z in item["zones"] for i in z["items"])
    # each group of options about one card says what the card costs the person to act
    seat = page.evaluate("document.body.dataset.seat")
    lines = {}  # each group's options -> the lines of the items they are about
    for o in srv.call(lambda: table(room.state, seat))["decision"]["options"]:
        lines.setdefault(o["group"], set()).add(o["line"] if o["about"] else None)
    groups = page.locator("#options details[data-group]")
    assert groups.count() >= 3
    for k in range(groups.count()):
        own = lines[groups.nth(k).get_attribute("data-group")]
        assert len(own) == 1 and None not in own  # (every group of Duel's first decision is one card)
        assert f"· {own.pop()}" in groups.nth(k).locator("summary").inner_text()
    rng = random.Random(7)
    how = {"board": 0, "button": 0}
    for step in range(400):
        if page.evaluate("document.body.dataset.over") == "1":
            break
        seat = page.evaluate("document.body.dataset.seat")
        if step % 10 == 0:
            check_page(srv, room, page, seat)
        how[take_turn(page, rng, prefer_board=0.6)] += 1
        wait_version(page, server_version(srv, room))
    st = srv.call(lambda: room.state.clone())
    assert st.over, f"the game did not end in {step} decisions"
    t = check_page(srv, room, page, page.evaluate("document.body.dataset.seat"))
    finish(page, t, errors)
    assert how["board"] >= 5 and how["button"] >= 5, how
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board-duel-end.png"), full_page=True)


def test_a_whole_game_of_the_confrontation_one_browser_per_seat(browser, srv, errors):
    r = httpx.post(srv.url + "api/new", json={"game": "confrontation", "seed": 5,
                                               "seats": {"fellowship": "human", "sauron": "human"}})
    res = r.json()
    links = {lk["seats"][0]["id"]: lk["url"] for lk in res["links"]}
    pages = {s: open_page(browser, u, errors) for s, u in links.items()}
    room, _ = srv.lobby.find(token(links["sauron"]))
    for s, p in pages.items():
        assert p.locator("#board [data-region]").count() == 16
        assert p.locator("#board line.conn[marker-end]").count() > 0       # one-way connections
        assert p.evaluate("document.body.dataset.seat") == s
    rng = random.Random(3)
    how = {"board": 0, "button": 0}
    for step in range(400):
        v = server_version(srv, room)
        for p in pages.values():
            wait_version(p, v)
        if srv.call(lambda: room.state.over):
            break
        actor = next(s for s, p in pages.items() if p.evaluate("document.body.dataset.canAct") == "1")
        if step % 6 == 0:
            for s, p in pages.items():
                check_page(srv, room, p, s)
                # nothing the seat may not see is anywhere in its page
                st = srv.call(lambda: room.state.clone())
                html = p.content()
                offered = {x for a in st.legal_actions() for x in a.id.split(":")} if s == actor else set()
                for iid in hidden_from(st, s) - offered:
                    assert f'"{iid}"' not in html, (s, iid)
                    name = st.rules.display(iid)
                    if name not in public_words(st, s) and len(name) > 3:
                        assert f">{name}<" not in html, (s, name)
        if os.environ.get("LOTR_WEB_DEBUG"):
            print(step, actor, v, srv.call(lambda: room.state.current_player), pages[actor].inner_text("#prompt"))
        how[take_turn(pages[actor], rng, prefer_board=0.6)] += 1
    assert srv.call(lambda: room.state.over), "the game did not end"
    for s, p in pages.items():
        wait_version(p, server_version(srv, room))
        finish(p, check_page(srv, room, p, s), errors)
    assert how["board"] >= 5 and how["button"] >= 5, how


@pytest.mark.parametrize("game, players", [("duel", None), ("confrontation", None), ("risk", 4),
                                           ("war-of-the-ring", None)])
def test_a_screenshot_of_each_board(browser, srv, errors, game, players):
    """Each game's board after a few computer moves, kept as a CI artefact."""
    res = httpx.post(srv.url + "api/new", json={"game": game, "players": players, "seed": 2, "seats": None}).json()
    page = open_page(browser, res["play"], errors, viewport={"width": 1400, "height": 1000})
    room, _ = srv.lobby.find(token(res["play"]))
    rng = random.Random(1)
    for _ in range(6):  # a few moves of the person (the computer answers at once)
        settle(page)
        if page.evaluate("document.body.dataset.canAct") != "1":
            break
        take_turn(page, rng, prefer_board=0.5)
    settle(page)
    regions = page.locator("#board [data-region]").count()
    assert regions == len(srv.call(lambda: room.state.rules.regions)) > 0
    check_page(srv, room, page, page.evaluate("document.body.dataset.seat"))
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".board-wrap").screenshot(path=str(ARTIFACTS / f"board-{game}.png"))
    page.screenshot(path=str(ARTIFACTS / f"page-{game}.png"), full_page=True)


def test_the_regions_fields_are_in_the_tooltip_not_on_the_crowded_map(browser, srv, errors):
    """Risk's board at its default size: each region shows its name and pieces, not its fields line
    ("land: ... · site: ..."), which would cover the neighbours' names; the fields are in the
    region's tooltip and under its name while hovered."""
    res = httpx.post(srv.url + "api/new", json={"game": "risk", "players": 4, "seed": 2, "seats": None}).json()
    page = open_page(browser, res["play"], errors, viewport={"width": 1280, "height": 900})
    settle(page)
    room, _ = srv.lobby.find(token(res["play"]))
    seat = page.evaluate("document.body.dataset.seat")
    t = srv.call(lambda: table(room.state, seat))
    with_fields = [r for r in t["board"]["regions"] if r.get("fields")]
    assert len(with_fields) > 10
    # no fields line is drawn on the map at rest
    shown = page.evaluate("""() => [...document.querySelectorAll('#board .region-label .fields')]
        .filter(n => { const b = n.getBoundingClientRect(); return b.width > 0 && b.height > 0; }).length""")
    assert shown == 0
    # the names' boxes overlap each other less than the names-with-fields boxes would
    boxes = page.evaluate("""() => [...document.querySelectorAll('#board .region-label')].map(g => {
        const b = g.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })""")
    overlap = sum(max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))
                  for i, a in enumerate(boxes) for b in boxes[i + 1:])
    area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)
    assert overlap < 0.25 * area, (overlap, area)
    # hovering a region: its tooltip has its fields, and its own label shows them
    reg = with_fields[0]
    page.hover(f'#board [data-region="{reg["id"]}"] .spot', force=True)
    page.wait_for_selector("#tip:not([hidden])")
    tip = page.inner_text("#tip")
    for label, text in reg["fields"]:
        assert f"{label}: {text}" in tip
    fields = page.locator(f'#board [data-label="{reg["id"]}"] .fields')
    assert fields.is_visible()
    assert page.locator("#board .region-label .fields:visible").count() == 1


def test_a_phone_sized_screen(browser, srv, errors):
    res = httpx.post(srv.url + "api/new", json={"game": "confrontation", "seed": 9, "seats": None}).json()
    page = open_page(browser, res["play"], errors, viewport={"width": 390, "height": 844}, is_mobile=True,
                     has_touch=True, device_scale_factor=2)
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#board").bounding_box()
    assert box["width"] > 340 and box["height"] > 200
    assert page.locator("#options button.opt:visible, #options summary:visible").count() > 0
    # the side panels come under the board, not beside it
    side = page.locator(".side").bounding_box()
    assert side["y"] >= box["y"] + box["height"] - 1
    rng = random.Random(4)
    for _ in range(4):
        settle(page)
        if page.evaluate("document.body.dataset.canAct") != "1":
            break
        take_turn(page, rng, prefer_board=0.5)   # taps
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "phone-confrontation.png"), full_page=True)


def test_a_save_resumed_on_the_start_page_offers_the_players_it_had(browser, srv, errors, tmp_path):
    """The save says who played each seat: the start page's seat choices begin there (a player
    this server does not offer falls back to the usual choice), and resuming keeps them."""
    from interpreter import load_game

    st = load_game("duel").new_game(seed=3)
    st.apply(st.legal_actions()[0])
    save = tmp_path / "duel-save.json"
    save.write_text(st.to_json(agents={"fellowship": "mcts", "sauron": "random"}))
    page = open_page(browser, srv.url, errors, wait="article[data-game='duel']")
    page.set_input_files("#savefile", str(save))
    page.wait_for_selector("#resume")
    assert page.input_value("select[data-seat='fellowship']") == "mcts"
    assert page.input_value("select[data-seat='sauron']") == "random"
    page.select_option("select[data-seat='fellowship']", "human")
    page.click("#resume")
    page.wait_for_url("**/play/*")  # (one person: straight to the table)
    room, _ = srv.lobby.find(token(page.url))
    assert room.controllers == {"fellowship": "human", "sauron": "random"}


def test_every_option_button_says_its_line_under_its_words(browser, srv, errors):
    """An option's line (what its card costs the person: "you pay 1 ...") is on its button in
    small letters, in a short list of buttons (10 or fewer, not grouped) as in a grouped one."""
    from interpreter import load_game

    st = load_game("duel").new_game(seed=3)
    for _ in range(60):  # on to a decision of 10 options or fewer, with lines
        d = table(st, st.current_player)["decision"]
        if d and len(d["options"]) <= 10 and sum(bool(o.get("line")) for o in d["options"]) >= 2:
            break
        st.apply(st.legal_actions()[0])
    else:
        pytest.fail("no short decision with lines")
    seat = st.current_player
    res = httpx.post(srv.url + "api/new", json={"save": st.to_json(agents={p: "human" for p in st.seats})}).json()
    url = next(lk["url"] for lk in res["links"] if lk["seats"][0]["id"] == seat)
    page = open_page(browser, url, errors)
    page.wait_for_selector("#options button.opt")
    assert page.locator("#options details").count() == 0  # not grouped
    for o in d["options"]:
        b = page.locator(f"#options button.opt[data-action='{o['id']}']")
        assert b.locator(".otext").inner_text() == o["text"]
        if o.get("line"):
            line = b.locator(".oline")
            assert line.inner_text() == o["line"] and line.is_visible()
            # under the option's words, in smaller letters
            assert line.bounding_box()["y"] >= b.locator(".otext").bounding_box()["y"] + 5
    # in the grouped view (Duel's first decision: more than 10 options) the buttons say them too
    first = httpx.post(srv.url + "api/new", json={"game": "duel", "seed": 3,
                                                  "seats": {p: "human" for p in st.seats}}).json()
    opener = load_game("duel").new_game(seed=3).current_player
    page = open_page(browser, next(lk["url"] for lk in first["links"] if lk["seats"][0]["id"] == opener), errors)
    settle(page)
    assert page.locator("#options details").count() >= 3
    b = page.locator("#options details button.opt").first
    if not b.is_visible():
        page.locator("#options details > summary").first.click()
    assert "you pay" in b.locator(".oline").inner_text() and b.locator(".oline").is_visible()


def test_the_game_over_line_words_the_victory_as_the_log_does(browser, srv, errors):
    """A finished game's page says the end as the log's "game over" line does: the victory in
    the rules' words (display: victories:), never its id."""
    import json

    from interpreter import load_game
    from interpreter.agents import make_agent

    st = load_game("duel").new_game(seed=3)
    agent = make_agent("random", 5)
    while not st.over:
        st.apply(agent.act(st))
    shown = st.rules.victory_names[st.victory]
    over = next(line for line in st.log_for("fellowship") if line.startswith("game over:"))
    res = httpx.post(srv.url + "api/new", json={"save": st.to_json(agents={p: "human" for p in st.seats})}).json()
    assert "error" not in res, res
    page = open_page(browser, res["links"][0]["url"], errors)
    page.wait_for_selector("#over:not([hidden])")
    title, body = page.inner_text("#overtitle"), page.inner_text("#overbody")
    who = over[len("game over: "):].split(" (")[0]
    assert title == who[0].upper() + who[1:]
    assert shown in body and st.victory not in body.replace(shown, "")
    page.click("#overclose")
    prompt = page.inner_text("#prompt")
    assert prompt == "G" + over[1:], (prompt, over)
    assert f"({st.victory})" not in prompt and json.dumps(st.victory) not in prompt


def test_undo_against_the_computer_by_the_button_and_ctrl_z(browser, srv, errors):
    """The one person of a game against the computer takes back a decision (and the computer's
    replies) with the Undo button: the page shows the decision again with the same options, the
    game's history is as long as before; with nothing to undo, Ctrl+Z says so."""
    from interpreter.agents import make_agent

    res = httpx.post(srv.url + "api/new", json={"game": "duel", "seed": 3,
                                                 "seats": {"fellowship": "random", "sauron": "human"}}).json()
    room, _ = srv.lobby.find(token(res["play"]))
    srv.call(lambda: room._agents.__setitem__("fellowship", make_agent("random", 1)))  # the same replies each run
    page = open_page(browser, res["play"], errors)
    settle(page)
    assert page.is_visible("#undobtn") and page.is_visible("#savebtn")
    options = lambda: sorted(page.evaluate("() => [...document.querySelectorAll('#options button.opt')].map(b => b.dataset.action)"))  # noqa: E731
    shown, n = options(), srv.call(lambda: len(room.state.history))
    assert "take:c1_05:play" in shown
    button = page.locator("#options button.opt[data-action='take:c1_05:play']")
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    v = server_version(srv, room)
    button.click()
    page.wait_for_function("v => Number(document.body.dataset.version) >= v + 3 && document.body.dataset.canAct === '1'",
                           arg=v)
    assert srv.call(lambda: len(room.state.history)) == n + 3
    assert options() != shown
    v = server_version(srv, room)
    page.click("#undobtn")
    page.wait_for_function("v => Number(document.body.dataset.version) > v && document.body.dataset.canAct === '1'", arg=v)
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast").startswith("undone")
    assert srv.call(lambda: len(room.state.history)) == n
    assert options() == shown
    check_page(srv, room, page, "sauron")
    page.locator("#board").click(position={"x": 5, "y": 5})  # the keys go to the page, not a field
    page.keyboard.press("Control+z")
    page.wait_for_function("() => document.getElementById('toast').textContent.startsWith('nothing to undo')")
    assert srv.call(lambda: len(room.state.history)) == n
