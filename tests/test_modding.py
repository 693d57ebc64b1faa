"""Rules a modder changes in a line or two, on the real games (issue: room for modders): each
number a variant may change has a name, and each change a card may care about is an event."""
from pathlib import Path

from interpreter import load_game
from interpreter.scenario import apply_setup

MODS = Path(__file__).parent / "games" / "mods_for_real_games"


def test_one_line_gives_risk_four_attack_dice_from_a_stronghold():
    # 004 "Attack Dice": at most 3; the mod: 4 from a stronghold
    setup = {"vars": {"current": "yellow"}, "to_act": "yellow"}
    for mods, want in (((), {1, 2, 3}), ((str(MODS / "risk_stronghold_dice"),), {1, 2, 3, 4})):
        game = load_game("risk", mods=mods)
        st = game.new_game(seed=2, players=2)
        while "choose:attack:invade" not in {a.id for a in st.legal_actions()}:
            st.apply(sorted(a.id for a in st.legal_actions())[0])
        me = st.current_player
        r = game.rules
        fort = next(t for t in r.regions if r.props[t].get("stronghold") and st.pieces.get(("battalion", me, t)))
        foe = next(p for p in st.seats if p != me)
        target = r.adj[fort][0]
        for k in [k for k in st.pieces if k[0] == "battalion" and k[2] == target]:
            apply_setup(st, {"pieces": [{"kind": "battalion", "owner": k[1], "at": target, "count": 0}]})
        apply_setup(st, {"pieces": [{"kind": "battalion", "owner": me, "at": fort, "count": 8},
                                    {"kind": "battalion", "owner": foe, "at": target, "count": 3}]})
        st.apply("choose:attack:invade")
        st.apply(f"invade:{fort}:{target}")
        assert {int(a.id.rsplit(':', 1)[1]) for a in st.legal_actions()} == want, setup


def test_a_patched_duel_card_pays_a_coin_on_each_discard():
    # 003 "Discard the card": as many coins as the chapter; the variant card adds 1 per discard
    for mods, want in (((), 3 + 1), ((str(MODS / "duel_discard_bonus"),), 3 + 1 + 1)):
        game = load_game("duel", mods=mods)
        st = game.new_game(seed=1)
        apply_setup(st, {"vars": {"current": "fellowship"}, "to_act": "fellowship",
                         "items": {"c1_09": "area.fellowship", "c1_14": "layout1.E1"}})
        st.apply("take:c1_14:discard")
        assert st.pieces[("coin", None, "fellowship")] == want
        assert game.rules.props["c1_09"]["cost_coins"] == load_game("duel").rules.props["c1_09"]["cost_coins"]
