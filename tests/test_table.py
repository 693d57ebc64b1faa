"""engine.table: what a table shows a player, as plain data (the one description the terminal
table and the browser board both draw); it shows nothing hidden from its viewer."""
import json
import random

import pytest

from interpreter import load_game
from interpreter.engine.table import table

GAMES = {"duel": {}, "confrontation": {}, "risk": {"players": 3}, "war-of-the-ring": {}}


def hidden_from(st, viewer) -> set:
    """Ids of the items the viewer may not identify now."""
    v = st.view(viewer)
    out = set()
    for zid, items in st.zones.items():
        seen = v["zones"][zid]
        known = set(seen.get("known", ())) if isinstance(seen, dict) else set(x for x in seen if x)
        out |= {i for i in items if i is not None and i not in known}
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_table_is_plain_data_and_hides_what_its_viewer_may_not_see(name):
    game = load_game(name)
    rng = random.Random(3)
    for seed in range(3):
        st = game.new_game(seed=seed, **GAMES[name])
        for step in range(rng.randrange(10, 80)):
            if st.over:
                break
            if step % 7 == 0:
                for viewer in list(st.seats) + [None]:
                    t = table(st, viewer)
                    text = json.dumps(t)  # plain data
                    for iid in hidden_from(st, viewer):
                        assert f'"{iid}"' not in text, (name, viewer, iid)
                    if viewer == st.current_player:
                        assert {o["id"] for o in t["decision"]["options"]} == {a.id for a in st.legal_actions()}
                    else:
                        assert t["decision"] is None
            st.apply(rng.choice(st.legal_actions()))


def test_the_duel_table_in_words():
    st = load_game("duel").new_game(seed=1)
    t = table(st, "sauron")
    assert t["title"].startswith("The Lord of the Rings") and t["to_act"] == "sauron"
    assert [p["id"] for p in t["players"]] == ["fellowship", "sauron"]
    assert ["coins", "2"] in next(p for p in t["players"] if p["id"] == "sauron")["fields"]
    regions = {r["id"]: r for r in t["board"]["regions"]}
    assert regions["mordor"]["pieces"] == [["sauron", "unit", 2]] and len(regions) == 7
    assert regions["mordor"]["pos"] and len(t["board"]["connections"]) == 10
    layout = next(z for z in t["zones"] if z["id"] == "layout1")
    shown = [i for i in layout["items"] if i and i["id"]]
    assert shown and all(i["text"] and i["name"] for i in shown)
    assert any(i and i["name"] == "?" for i in layout["items"])        # face-down cards stay backs
    assert all(o["label"] for o in t["decision"]["options"])
    # an option about one card names it, with the card's line: what it costs the viewer now
    price = st.rules.functions["card_price"]
    takes = [o for o in t["decision"]["options"] if o["move"] == "take_play"]
    assert takes and all(o["about"] == o["args"]["card"] for o in takes)
    assert all(o["line"].startswith(f"you pay {price(st, None, 'sauron', o['about'])} ") for o in takes)


def test_the_log_can_be_asked_for_from_an_entry_on():
    """A front end that holds the first lines asks only for the rest (log_from), and gets the
    same lines the whole log would have given; the static board data is the same each time."""
    game = load_game("duel")
    st = game.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if st.over:
            break
        st = st.apply(rng.choice(st.legal_actions()))
    for viewer in list(st.seats) + [None]:
        whole = table(st, viewer)
        assert whole["log_from"] == 0 and len(whole["log"]) == len(st.log) > 10
        for k in (0, 3, len(st.log) - 1, len(st.log)):
            part = table(st, viewer, log_from=k)
            assert part["log_from"] == k and part["log"] == whole["log"][k:]
            assert part["board"] == whole["board"]


def test_a_side_played_by_several_seats_shows_its_own_zones(tmp_path):
    """A side that is a player of the rules but no seat (two seats play it) keeps zones of its
    own (cards on its table); its players' zones and its own are all on the table."""
    from pathlib import Path

    text = (Path(__file__).parent / "games" / "teams" / "game.yaml").read_text()
    text = text.replace("players: [north, south, east, west]", "players: [north, south, east, west, sun, moon]")
    text = text.replace("vars:\n", "zones:\n  banner: {per: players}\nvars:\n", 1)
    text = text.replace("display:\n", "display:\n  player_zones: [banner]\n", 1)
    (tmp_path / "game.yaml").write_text(text)
    st = load_game(str(tmp_path)).new_game(seed=1, players=4)
    titles = [z["title"] for z in table(st, "north")["zones"]]
    assert titles == [f"banner of {p}" for p in ["north", "east", "south", "west", "sun", "moon"]]
    two = load_game(str(tmp_path)).new_game(seed=1)  # each seat its own side: no extra zones
    assert [z["title"] for z in table(two, "north")["zones"]] == ["banner of north", "banner of south"]


def test_a_player_row_whose_value_is_none_is_left_out():
    """display: players: rows that do not apply now (value none) are not shown: War of the Ring's
    'leading player' row is on the two seats holding the Leading Player token in 4 players, and on
    no seat in 2 players (where there is no token)."""
    game = load_game("war-of-the-ring")
    rows = lambda st, viewer: {p["id"]: dict(p["fields"]) for p in table(st, viewer)["players"]}  # noqa: E731
    four = rows(game.new_game(seed=1, players=4), "rohan_player")
    assert [p for p, f in four.items() if "leading player" in f] == ["gondor_player", "witch_king_player"]
    assert four["gondor_player"]["leading player"] == "yes"
    two = rows(game.new_game(seed=1), "free_peoples")
    assert not any("leading player" in f for f in two.values())
    assert all("dice" in f for f in two.values())
