"""No screen of the terminal table shows player A a card, identity or tile hidden from A: random
games are driven through the table as each player in turn, and every screen (and every look-up)
is searched for the ids and the names of the items A may not identify. A name is only searched
for when no item A can see, no public log line and no other text of the game uses it too (two
cards may share a name: 'Skill: Strength')."""
import asyncio
import random
import re

import pytest

pytest.importorskip("textual")

from interpreter.cli.tui import panes  # noqa: E402
from interpreter.cli.tui.app import screen_text  # noqa: E402
from interpreter.engine.explain import explain, hidden_items  # noqa: E402

from test_tui import GAMES, make_app, settle  # noqa: E402


def visible_words(st, viewer, t) -> str:
    """Every text the viewer may legitimately read: visible items' names and texts, the viewer's
    log, the regions, the players, the decision."""
    rules = st.rules
    parts = list(st.log_for(viewer))
    for it in panes.all_items(t):
        if it.get("id"):
            parts += [str(it.get("name", "")), str(it.get("text", "")), str(it.get("line", ""))]
            parts += [str(v) for v in (it.get("props") or {}).values()]
    for r in t["board"]["regions"]:
        parts.append(r["name"])
        parts += [str(v) for _, v in r["fields"]]
    for p in t["players"]:
        parts.append(p["name"])
        parts += [str(v) for _, v in p["fields"]]
    if t.get("decision"):
        parts += [o["label"] + " " + o["text"] for o in t["decision"]["options"]]
        parts.append(t["decision"]["prompt"])
    parts += [rules.title] + list(rules.names.values())
    return "\n".join(parts)


def check_screen(app, where):
    s = app.session
    st, viewer = s.st, s.viewer
    t = app.t
    text = "\n".join(screen_text(app).splitlines()[:-1])  # not the footer's key names (f3)
    allowed = visible_words(st, viewer, t)
    rules = st.rules
    for iid in hidden_items(st, viewer):
        if re.search(r"(?<![\w])" + re.escape(iid) + r"(?![\w])", text) and iid not in allowed:
            pytest.fail(f"{where}: {viewer} sees the hidden item id {iid!r}\n{text}")
        name = rules.display(iid)
        if len(name) < 3 or name in allowed:
            continue
        if re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])", text):
            pytest.fail(f"{where}: {viewer} sees the name {name!r} of hidden {iid}\n{text}")
        assert panes.details(t, iid, app.names) is None, (where, iid)  # no look-up shows it


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_screen_shows_a_player_what_is_hidden_from_them(name):
    async def run(seat_index, seed):
        app = make_app(name, seed=seed, human=seat_index)
        rng = random.Random(seed)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            for step in range(25):
                s = app.session
                if s.over:
                    break
                check_screen(app, f"{name} seed {seed} step {step}")
                if step % 10 == 3 and s.waiting_for_person():
                    # why, about an action on a hidden item, says nothing about it either
                    hidden = sorted(hidden_items(s.st, s.viewer))
                    if hidden:
                        out = explain(s.st, rng.choice(hidden), s.viewer, game=s.game)
                        for iid in hidden:
                            nm = s.st.rules.display(iid)
                            assert nm not in out["text"] or nm in visible_words(s.st, s.viewer, app.t), (iid, out)
                acts = s.st.legal_actions()
                if not s.waiting_for_person() or not acts:
                    break
                app.take(rng.choice(acts).id)
                await settle(app, pilot)
    seats = len(make_app(name).session.st.seats)
    for i in range(seats):
        asyncio.run(run(i, 11 + i))
