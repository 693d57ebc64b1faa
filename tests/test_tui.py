"""The full-screen terminal table (interpreter/cli/tui), driven by Textual's headless pilot: whole
games of each of the four games played through the keys, a mid-game snapshot per game, undo,
saving, look-ups and `why` from the command line of the table."""
import asyncio
import difflib
import os
import time
from pathlib import Path

import pytest

pytest.importorskip("textual")

from interpreter import load_game  # noqa: E402
from interpreter.agents import make_agent  # noqa: E402
from interpreter.cli.tui.app import TableApp, screen_text  # noqa: E402
from interpreter.cli.tui.session import Session  # noqa: E402

SNAPSHOTS = Path(__file__).parent / "snapshots"
GAMES = {"duel": {}, "confrontation": {}, "risk": {"players": 2}, "war-of-the-ring": {}}
# what each game's table must show at some point of a game (panes: tracks, cards, log)
EXPECT = {
    "duel": ["quest", "chapter 1 cards", "Landmark tiles on offer", "coins", "take a card or a Landmark tile"],
    "confrontation": ["Sauron in the Shire", "combat cards in hand", "characters", "strength"],
    "risk": ["the Fellowship's path", "territory cards", "score", "claim which territory?"],
    "war-of-the-ring": ["victory points", "dice"],
}


def make_app(name, seed=1, human=0, opponents="random", mods=(), size=None, **kw):
    game = load_game(name, mods=mods)
    st = game.new_game(seed=seed, players=GAMES.get(name, {}).get("players"))
    seats = list(st.seats)
    seat = {p: ("human" if i == human else opponents) for i, p in enumerate(seats)}
    agents = {p: make_agent(opponents, seed * 31 + i) for i, p in enumerate(seats) if i != human}
    return TableApp(Session(game, st, seat, agents), **kw)


async def settle(app, pilot):
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def type_line(app, pilot, text):
    if len(text) > 12:  # a long line (a file name): set at once, the keys of a short one are typed
        app._q("#command").value = text
    else:
        for ch in text:
            await pilot.press("space" if ch == " " else ch)
    await pilot.press("enter")
    await settle(app, pilot)


async def play_by_keys(app, pilot, max_keys=4000, budget=8.0, auto_after=3):
    """Play the person's seat with the keys: Enter takes the highlighted (first) option, or opens
    the highlighted group; a long run of the same decision is finished with `auto`. Returns the
    screens seen (as text) every few decisions."""
    screens = []
    t0 = time.monotonic()
    keys = 0
    while not app.session.over and keys < max_keys:
        if app.session.run_length >= auto_after and app.session.waiting_for_person() and app.session.auto_kind is None:
            await type_line(app, pilot, "auto")
        else:
            await pilot.press("enter")
            await settle(app, pilot)
        keys += 1
        if keys % 10 == 1:
            screens.append(screen_text(app))
        if time.monotonic() - t0 > budget and app.session.waiting_for_person():
            # the rest of a long game (War of the Ring: thousands of decisions) by the computer
            app.session.auto_agent = make_agent("random", 7)
            await type_line(app, pilot, "auto all")
    screens.append(screen_text(app))
    return screens


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_through_the_keys(name):
    async def run():
        app = make_app(name, seed=2)
        async with app.run_test(size=(120, 45)) as pilot:
            await settle(app, pilot)
            first = screen_text(app)
            from interpreter.cli.tui import panes

            shown = {i["name"] for i in panes.all_items(app.t) if i.get("id") and len(i["name"]) > 3}
            screens = await play_by_keys(app, pilot)
            assert shown and any(n in "\n".join([first] + screens) for n in shown), name  # cards by name
            assert app.session.over, f"{name}: the game did not end"
            text = "\n".join([first] + screens)
            for want in EXPECT[name]:
                assert want in text, (name, want)
            assert "Game over" in screens[-1] or "game over" in screens[-1]
            log = app.session.st.log_for(app.session.viewer)
            # log lines in words, the acting player by name ('sauron: ...' reads 'Sauron: ...')
            assert log and any(line.split(": ", 1)[-1] in text for line in log[:20] if len(line) < 40), name
    asyncio.run(run())  # about 5 to 15 s each on an idle machine (keys for 8 s at most, then `auto all`)


def test_the_table_fits_80x24_and_shows_every_pane():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            lines = text.splitlines()
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
            for pane in ("board", "cards", "players", "log"):
                assert f"─{pane}─" in text, pane
            assert "take a card or a Landmark tile" in text  # the decision, in words
            assert "take:" not in text                        # no action ids
            # every option says what its card costs the person, on its own line: one can plan
            # from the list alone (the cards pane has no room for prices at this size)
            start = next(i for i, line in enumerate(lines) if "take a card or a Landmark tile" in line)
            rows = [line for line in lines[start + 1:] if line[:4].strip().isdigit()]
            assert len(rows) >= 4 and all("you pay" in row for row in rows), rows
            st = app.session.st
            first_card = next(o for o in st.legal_actions() if o.id.startswith("take:")).payload[1]["card"]
            price = st.rules.functions["card_price"](st, None, st.pending["player"], first_card)
            assert f"you pay {price}" in rows[0]
    asyncio.run(run())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_mid_game_snapshot(name):
    """The screen after a few decisions, compared loosely with tests/snapshots/GAME.txt (written
    when missing or with UPDATE_SNAPSHOTS=1; the SVG beside it is for people to look at)."""
    async def run():
        app = make_app(name, seed=5)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            for _ in range(12):
                if app.session.over:
                    break
                await pilot.press("enter")
                await settle(app, pilot)
            return screen_text(app), app.export_screenshot(title=name)
    text, svg = asyncio.run(run())
    SNAPSHOTS.mkdir(exist_ok=True)
    path = SNAPSHOTS / f"{name}.txt"
    if not path.exists() or os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(text)
        (SNAPSHOTS / f"{name}.svg").write_text(svg)
    want = path.read_text()
    ratio = difflib.SequenceMatcher(None, want.split(), text.split(), autojunk=False).ratio()
    assert ratio > 0.8, f"{name}: the screen changed a lot (similarity {ratio:.2f}); UPDATE_SNAPSHOTS=1 rewrites it"


def test_groups_filter_and_numbers():
    """A long decision comes in groups; typing filters; a number chooses."""
    async def run():
        app = make_app("risk", seed=3)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            d = app.t["decision"]
            assert d and d["prompt"] == "claim which territory?"
            await type_line(app, pilot, "auto")  # the claims and placements, by the computer
            assert app.session.st.vars["started"] or app.session.waiting_for_person()
            before = len(app.session.st.history)
            # type to filter: only matching options remain
            for ch in "zz":
                await pilot.press(ch)
            await pilot.pause()
            assert app.rows == [] or all("zz" in (r[1].get("label", "") + r[1].get("text", "")).lower()
                                         for r in app.rows)
            await pilot.press("escape")
            await pilot.pause()
            assert app.query_one("#command").value == ""
            n = len(app.rows)
            assert n >= 1
            await type_line(app, pilot, "1")
            assert len(app.session.st.history) > before
    asyncio.run(run())


def test_groups_first_then_options():
    async def run():
        app = make_app("confrontation", seed=4, opponents="random")
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            # place the characters (setup) with auto, then a move: 'go' options grouped by character
            await type_line(app, pilot, "auto")
            while not app.session.over and not any(r[0] == "group" for r in app.rows):
                await pilot.press("enter")
                await settle(app, pilot)
                if len(app.session.st.history) > 400:
                    break
            if app.session.over:
                pytest.skip("the game ended before a grouped decision")
            groups = [r for r in app.rows if r[0] == "group"]
            assert groups and all("…" in g[1]["label"] or g[1]["count"] > 1 for g in groups)
            await pilot.press("enter")  # open the first group
            await pilot.pause()
            assert app.group is not None and all(r[0] == "option" for r in app.rows)
            assert "Esc" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert app.group is None
    asyncio.run(run())


def test_auto_finishes_a_run_of_placements():
    async def run():
        app = make_app("confrontation", seed=2)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            assert app.t["decision"]["prompt"] == "place a character"
            await pilot.press("enter")  # a group (a character) or an option
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot)
            assert "auto" in screen_text(app)  # the run is noticed and auto offered
            await type_line(app, pilot, "auto")
            assert "both sides have placed their characters" in " ".join(app.session.st.log_for("fellowship"))
            assert app.t["decision"] is None or app.t["decision"]["prompt"] != "place a character"
    asyncio.run(run())


def test_undo_by_key_and_its_limits():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            s = app.session
            before = s.st.to_json()
            n = len(s.st.history)
            while len(s.st.history) == n:  # Enter opens the first group (a card), then takes its first option
                await pilot.press("enter")
                await settle(app, pilot)
            assert s.st.to_json() != before
            ok, why = s.can_undo()
            if ok:
                await pilot.press("ctrl+z")
                await settle(app, pilot)
                assert s.st.to_json() == before  # exactly where it was, the agent's reply undone too
                assert "undone" in screen_text(app)
            else:
                assert "revealed" in why or "chance" in why
            # nothing more to undo
            await pilot.press("ctrl+z")
            await settle(app, pilot)
            assert not s.can_undo()[0]
    asyncio.run(run())


def test_save_and_look_and_why_from_the_table(tmp_path):
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            save = tmp_path / "g.json"
            await type_line(app, pilot, f"s {save}")
            assert save.exists() and "saved to" in screen_text(app)
            game = load_game("duel")
            st = game.state_from_json(save.read_text())
            assert st.history == app.session.st.history
            await type_line(app, pilot, "look erebor")
            assert "Erebor" in screen_text(app) and "Rhovanion" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            await type_line(app, pilot, "why landmark:erebor")
            text = screen_text(app)
            # the answer in a player's words first, then the rule and its rulebook citation
            assert "You cannot take landmark Erebor now." in text
            assert "It needs your coins (3) to be at least your landmark price for Erebor (6)." in text
            assert text.index("It needs your coins") < text.index("Take a Landmark tile")
            await pilot.press("escape")
            await type_line(app, pilot, "help")
            assert "undo" in screen_text(app)
            await pilot.press("escape")
    asyncio.run(run())


def test_a_click_on_a_card_shows_it_with_what_you_may_do():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            d = app.t["decision"]
            card = d["options"][0]["args"]["card"]
            app.action_look(card)
            await pilot.pause()
            text = screen_text(app)
            assert "you may:" in text and app.session.st.rules.display(card) in text
            n = len(app.session.st.history)
            await pilot.press("enter")  # the first action offered for it
            await settle(app, pilot)
            assert len(app.session.st.history) > n and card in app.session.st.history[n]
    asyncio.run(run())


def test_a_region_decision_is_made_on_the_board():
    """Duel: a muster card asks where its Units go; a click on the region chooses it."""
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            s = app.session
            for _ in range(200):
                d = app.t["decision"] if app.t else None
                if s.over:
                    pytest.skip("no region decision came up")
                if d and d["kind"] == "choose" and any(o["value"] in {r["id"] for r in app.t["board"]["regions"]}
                                                       for o in d["options"]):
                    break
                muster = [o for o in (d or {}).get("options", []) if "Muster" in o["label"] and o["id"].endswith(":play")]
                if muster:
                    app.take(muster[0]["id"])
                else:
                    await pilot.press("enter")
                await settle(app, pilot)
            region = next(o["value"] for o in d["options"])
            n = len(s.st.history)
            app.action_region(region)
            await settle(app, pilot)
            assert len(s.st.history) > n and s.st.history[n].endswith(region)
    asyncio.run(run())


def test_hot_seat_hands_the_keyboard_over_before_showing_a_hand():
    """Two people at one screen (Confrontation): after one decides, the table asks to pass the
    keyboard before it shows the other's characters."""
    async def run():
        game = load_game("confrontation")
        st = game.new_game(seed=3)
        app = TableApp(Session(game, st, {"fellowship": "human", "sauron": "human"}, {}))
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            s = app.session
            first = s.st.current_player
            if s.viewer != first:  # the table asks at once
                await pilot.press("escape")
                await settle(app, pilot)
            assert s.viewer == first
            seen = s.viewer
            for _ in range(40):  # until the other person must decide
                aid = s.st.legal_actions()[0].id
                app.take(aid)
                await settle(app, pilot)
                if s.st.current_player != seen:
                    break
            other = s.st.current_player
            assert other != seen and s.viewer == seen and s.handover == other
            assert "pass the keyboard" in screen_text(app)
            await pilot.press("escape")
            await settle(app, pilot)
            assert s.viewer == other and s.handover is None
    asyncio.run(run())


def test_war_of_the_ring_with_four_seats_two_people_and_two_agents():
    """Issue 15, done when: `play war-of-the-ring --players 4` with humans and agents in any seats.
    People sit as the Gondor player and the Saruman player (one of each side), agents elsewhere;
    the keys answer the people's decisions (the keyboard handed over between them) for a while,
    and every decision the people were asked went to one of their two seats."""
    async def run():
        game = load_game("war-of-the-ring")
        st = game.new_game(seed=4, players=4)
        seats = list(st.seats)
        people = [seats[0], seats[3]]
        assert people == ["gondor_player", "saruman_player"]
        seat = {p: ("human" if p in people else "random") for p in seats}
        agents = {p: make_agent("random", 40 + i) for i, p in enumerate(seats) if p not in people}
        app = TableApp(Session(game, st, seat, agents))
        asked = {p: 0 for p in seats}
        async with app.run_test(size=(120, 45)) as pilot:
            await settle(app, pilot)
            s = app.session
            for _ in range(50):
                if s.over:
                    break
                if s.handover is not None:  # hot seat: pass the keyboard
                    await pilot.press("escape")
                    await settle(app, pilot)
                    continue
                assert s.waiting_for_person(), "the table waits for someone who is not a person"
                asked[s.st.current_player] += 1
                await pilot.press("enter")
                await settle(app, pilot)
        assert asked["gondor_player"] > 0 and asked["saruman_player"] > 0, asked
        assert asked["rohan_player"] == asked["witch_king_player"] == 0, asked
    asyncio.run(run())


def _colours(widget, text):
    """The colours (hex) the widget draws `text` in, line by line as on the screen."""
    out = []
    for y in range(widget.size.height):
        for seg in widget.render_line(y):
            if text in seg.text and seg.style is not None and seg.style.color is not None:
                out.append(seg.style.color.get_truecolor().hex.lower())
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_colour_the_table_uses_is_one_textual_draws(name):
    """Textual's markup drops a colour it cannot parse without a word (Rich's numbered names,
    dodger_blue1 or grey70, are not Textual's): every colour in the panes' markup must parse."""
    import re

    from textual.color import Color

    from interpreter.cli.tui import boardmap, panes
    from interpreter.engine.table import table

    for c in [*panes.PALETTE, *panes.SHOWN.values(), panes.METER]:
        Color.parse(c)
    game = load_game(name)
    st = game.new_game(seed=1, players=GAMES[name].get("players"))
    t = table(st, st.seats[0])
    panes._CTX = t
    for c in panes.player_styles(t).values():
        Color.parse(c)
    names = dict(st.rules.names)
    marked = {r["id"] for r in t["board"]["regions"][:3]}
    markup = "\n".join([panes.board(t, marked, names, 100), boardmap.board_map(t, marked, names, 100) or "",
                        panes.cards(t, st.seats[0], set()), panes.players(t, {}), panes.header(t, {}, st.seats[0]),
                        "\n".join(panes.log_line(t, line) for line in t["log"])])
    words = {"b", "i", "u", "bold", "italic", "underline", "dim", "reverse", "not", "on", "/"}
    for tag in re.findall(r"(?<!\\)\[([^\[\]]*)\]", markup):
        for word in tag.split():
            if word not in words and not word.startswith(("@click", "/")):
                Color.parse(word)  # raises on a name Textual does not know


def test_the_map_draws_each_owners_pieces_in_their_colour():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            from interpreter.cli.tui import panes

            styles = panes.player_styles(app.t)
            board = app._q("#board-text")
            owners = {o for r in app.t["board"]["regions"] for o, _k, _n in r["pieces"]}
            assert len(owners) >= 2
            for owner in owners:
                count = next(n for r in app.t["board"]["regions"] for o, _k, n in r["pieces"] if o == owner)
                want = styles[owner].lower()
                assert want in _colours(board, f"{count}u"), (owner, want)   # on the map
                name = panes._pname(app.t, owner)
                assert want in _colours(board, name), (owner, want)          # in the list under it
                assert want in _colours(app._q("#players-text"), name), owner  # in the players pane
            assert len({styles[o] for o in owners}) == len(owners)
    asyncio.run(run())


async def decide(app, pilot):
    """Enter until the person has taken one more decision (a group opens first)."""
    n = app.session.human_decisions
    for _ in range(3):
        await pilot.press("enter")
        await settle(app, pilot)
        if app.session.human_decisions > n:
            return
    raise AssertionError("no decision taken")


def test_quitting_an_unsaved_game_asks_once(tmp_path):
    """q (or Ctrl+Q) after a decision not saved asks first; again quits; saved, it quits at once."""
    async def run(keys_to_quit, save_first):
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            await decide(app, pilot)
            assert not app.session.over
            if save_first:
                await type_line(app, pilot, "s " + str(tmp_path / "g.json"))
                assert "saved to" in app.status
            await keys_to_quit(app, pilot)
            if save_first:
                assert app.return_code is not None  # quit at once: nothing to lose
                return
            assert app.return_code is None, "quit without asking"
            assert "quit without saving?" in screen_text(app)
            await keys_to_quit(app, pilot)
            assert app.return_code is not None

    async def q_enter(app, pilot):
        await type_line(app, pilot, "q")

    async def ctrl_q(app, pilot):
        await pilot.press("ctrl+q")
        await pilot.pause()

    asyncio.run(run(q_enter, False))
    asyncio.run(run(ctrl_q, False))
    asyncio.run(run(q_enter, True))


def test_quitting_at_once_before_any_decision_and_asking_again_after_another():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            await decide(app, pilot)
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.return_code is None and "quit without saving?" in screen_text(app)
            await decide(app, pilot)  # another decision: quitting asks again
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.return_code is None and "quit without saving?" in screen_text(app)
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+q")  # no decision of the person's yet: nothing to lose
            await pilot.pause()
            assert app.return_code is not None
    asyncio.run(run())


def test_a_lone_letter_filters_when_an_option_holds_it():
    """`u` typed while options hold a u filters them, and Enter takes the highlighted one (not
    undo); `undo` in full undoes; `u` with no option holding it is undo."""
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            await decide(app, pilot)
            s = app.session
            d = app._decision()
            holding = [o for o in d["options"] if "u" in (o["label"] + " " + o["text"] + " " + o["id"]).lower()]
            assert holding and len(holding) < len(d["options"])
            decided = s.human_decisions
            await pilot.press("u")
            await pilot.pause()
            assert [r[1]["id"] for r in app.rows] == [o["id"] for o in holding]  # filtered
            assert "the command is undo" in screen_text(app)
            first = app.rows[0][1]["id"]
            await decide(app, pilot)
            assert s.human_decisions == decided + 1 and s.st.history[-1] == first or first in s.st.history
            await type_line(app, pilot, "undo")
            assert s.human_decisions == decided and app.status.startswith("undone")
            # no option holds a q: q is the command (it asks, the game being unsaved)
            d = app._decision()
            assert not any("q" in (o["label"] + " " + o["text"] + " " + o["id"]).lower() for o in d["options"])
            await type_line(app, pilot, "q")
            assert app.return_code is None and "quit without saving?" in screen_text(app)
    asyncio.run(run())


def test_f3_enlarges_each_pane_in_turn_and_esc_or_f3_restores():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            board, cards = app._q("#board"), app._q("#cards")
            await pilot.press("f3")
            await pilot.pause()
            assert app.screen.maximized is board
            assert board.region.width == 110 and board.region.height > 30  # the whole screen
            assert "─cards─" not in screen_text(app)
            await pilot.press("f3")
            await pilot.pause()
            assert app.screen.maximized is cards
            await pilot.press("escape")  # Esc: the whole table again, the keys to the command line
            await pilot.pause()
            assert app.screen.maximized is None and app.focused is app._q("#command")
            assert "─cards─" in screen_text(app)
            await pilot.press("f3")  # after Esc, F3 starts again at the board
            await pilot.pause()
            assert app.screen.maximized is board
            for _ in range(4):  # cards, players, log, then back
                await pilot.press("f3")
                await pilot.pause()
            assert app.screen.maximized is None and app.focused is app._q("#command")
            await pilot.press("f3")
            await pilot.pause()
            await pilot.press("w")  # typing while a pane is enlarged: the table comes back
            await pilot.pause()
            assert app.screen.maximized is None and app._q("#command").value == "w"
    asyncio.run(run())


def test_the_first_key_typed_after_the_focus_left_the_command_line_is_kept():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            await pilot.press("tab")  # to a pane
            await pilot.pause()
            assert app.focused is not app._q("#command")
            for ch in "why":
                await pilot.press(ch)
            await pilot.pause()
            assert app._q("#command").value == "why"
            await pilot.press("escape")
            await pilot.pause()
            assert app._q("#command").value == ""
            # a click on a region's name on the board: its look-up window, closed with Esc
            lines = screen_text(app).splitlines()
            y, x = next((y, line.find("Rohan")) for y, line in enumerate(lines) if "Rohan" in line)
            await pilot.click(offset=(x + 1, y))
            await settle(app, pilot)
            assert app.screen is not app.screen_stack[0]  # the window is open
            await pilot.press("escape")
            await pilot.pause()
            assert app.focused is not app._q("#command")
            for ch in "why":
                await pilot.press(ch)
            await pilot.pause()
            assert app._q("#command").value == "why"
    asyncio.run(run())


def test_the_game_over_line_words_the_victory_as_the_log_does():
    """The end of the game reads like the log's "game over" line: the victory as the rules'
    display: victories: words it, never its id ("Fellowship won (majority)")."""
    async def run():
        app = make_app("duel", seed=3)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(app, pilot)
            app.session.auto_agent = make_agent("random", 5)
            await type_line(app, pilot, "auto all")
            for _ in range(50):
                if app.session.over:
                    break
                await settle(app, pilot)
            st = app.session.st
            assert st.over and isinstance(st.victory, str)
            shown = st.rules.victory_names[st.victory]
            assert shown != st.victory
            over = next(line for line in st.log_for(app.session.viewer) if line.startswith("game over:"))
            text = screen_text(app)
            assert f"({st.victory})" not in text
            text = " ".join(text.split())
            assert over in text                   # the header says it as the log does
            assert "G" + over[1:] + " — s FILE saves" in text  # and so does the prompt
    asyncio.run(run())


def test_the_command_palettes_quit_asks_too():
    async def run():
        app = make_app("duel", seed=1)
        async with app.run_test(size=(110, 36)) as pilot:
            await settle(app, pilot)
            await decide(app, pilot)
            for key in ["ctrl+p", "q", "u", "i", "t"]:
                await pilot.press(key)
                await pilot.pause(0.1)
            await pilot.pause(0.5)  # the palette searches
            await pilot.press("enter")
            await pilot.pause(0.3)
            assert app.return_code is None, "the palette's quit did not ask"
            assert "quit without saving?" in screen_text(app)
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.return_code is not None
    asyncio.run(run())


def _map_labels(app):
    """The board pane's map as drawn, split into labels (a region's name, then its counts):
    None when the pane shows the list alone (no map above it)."""
    import re

    regions = app.t["board"]["regions"]
    widget = app._q("#board-text")
    lines = ["".join(seg.text for seg in widget.render_line(y)).rstrip() for y in range(widget.size.height)]
    w = min(max(len(r["name"]) for r in regions), 22)
    first = regions[0]["name"][:22].ljust(w)
    top = next(i for i, line in enumerate(lines) if line[1:].startswith(first))  # the list's first line
    drawn = [line for line in lines[:top] if line.strip()]
    if not drawn:
        return None
    labels = []
    for line in drawn:
        if re.match(r"\s*\S ", line):
            continue  # the legend of kind initials under the map
        for chunk in re.split(r"\s{2,}", line.strip()):
            m = re.fullmatch(r"(.*?)((?: \d+\S*)*)", chunk)
            labels.append((m.group(1), sum(int(d) for d in re.findall(r"\d+", m.group(2)))))
    return labels


@pytest.mark.parametrize("name", ["confrontation", "duel"])
@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_the_map_draws_each_regions_count_right_after_its_name(name, size):
    """On the board pane's map each region's count follows its own name on the same row (`The
    Shire 3`), never under it where it reads as a neighbour's; or the map gives way to the list."""
    async def run():
        app = make_app(name, seed=4)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            seen = 0
            for step in range(12):
                labels = _map_labels(app)
                if labels is not None:
                    seen += 1
                    regions = app.t["board"]["regions"]
                    want = {r["name"].split(" (")[0][:15]: sum(n for _o, _k, n in r["pieces"]) + len(r["items"])
                            for r in regions}
                    got = dict(labels)
                    assert len(got) == len(labels) and set(got) == set(want), (step, labels, want)
                    assert got == want, (step, labels, want)
                if app.session.over:
                    break
                await decide(app, pilot)
            if size[0] >= 120:
                assert seen, "the map is drawn at this size"
            if size == (80, 24):  # and after the terminal shrank to it from a wide one
                await pilot.resize_terminal(120, 40)
                await settle(app, pilot)
                await pilot.resize_terminal(*size)
                await pilot.pause(0.3)
                await settle(app, pilot)
                labels = _map_labels(app)
                if labels is not None:
                    want = {r["name"].split(" (")[0][:15]: sum(n for _o, _k, n in r["pieces"]) + len(r["items"])
                            for r in app.t["board"]["regions"]}
                    assert dict(labels) == want, (labels, want)
    asyncio.run(run())
