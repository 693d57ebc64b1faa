"""War of the Ring for 3 and 4 players (issue 15): random playouts end with a whole side
winning, every decision goes to a seat, the Leading Player tokens alternate each turn, each
seat keeps its own hand within its limit (002 "Multiplayer Rules"; FACTS 9). The rules
themselves are checked by games/war-of-the-ring/scenarios/multiplayer.yaml."""
import random
from pathlib import Path

import pytest

from interpreter import load_game

GAME = str(Path(__file__).resolve().parent.parent / "games" / "war-of-the-ring")
CAP = 60_000
SIDES = {
    3: {"free_peoples": ["free_peoples"], "shadow": ["witch_king_player", "saruman_player"]},
    4: {"free_peoples": ["gondor_player", "rohan_player"], "shadow": ["witch_king_player", "saruman_player"]},
}
LIMITS = {3: {"free_peoples": 6, "witch_king_player": 4, "saruman_player": 4},
          4: {"gondor_player": 4, "rohan_player": 4, "witch_king_player": 4, "saruman_player": 4}}
# decisions taken when no hand is over its limit (phase 1 is over, no draw is being resolved)
CALM = {"declare", "hunt_dice", "turn_action"}


@pytest.fixture(scope="module")
def wotr():
    return load_game(GAME)


def _check(st, n):
    sides = SIDES[n]
    assert st.current_player in st.seats, st.current_player
    turn = st.vars["turn_no"]
    for side, members in sides.items():
        lead = st.vars[f"leading.{side}"]
        assert lead == members[(turn - 1) % len(members)], (turn, side, lead)
    # the side names hold no hand when they are no seat
    for side in sides:
        if side not in st.seats:
            assert len(st.zones[f"hand.{side}"]) == 0, side
    if st.pending and st.pending.get("label") in CALM:
        for seat, limit in LIMITS[n].items():
            assert len(st.zones[f"hand.{seat}"]) <= limit, (seat, len(st.zones[f"hand.{seat}"]))


@pytest.mark.parametrize("players", [3, 4])
def test_random_multiplayer_games_end_with_a_whole_side_winning(wotr, players):
    for seed in (1, 2):
        rng = random.Random(seed)
        st = wotr.new_game(seed=seed, players=players)
        assert list(st.seats) == [m for ms in SIDES[players].values() for m in ms]
        n = 0
        while not st.is_terminal():
            _check(st, players)
            st.apply(rng.choice(st.legal_actions()))
            n += 1
            assert n < CAP, f"seed {seed}: no end after {CAP} actions"
        assert sorted(st.winners) in [sorted(ms) for ms in SIDES[players].values()], st.winners


def test_two_players_stay_the_default(wotr):
    st = wotr.new_game(seed=1)
    assert list(st.seats) == ["free_peoples", "shadow"]
    assert st.vars["leading.free_peoples"] == "free_peoples" and st.vars["leading.shadow"] == "shadow"
    assert len(st.zones["hand.free_peoples"]) == 2 and len(st.zones["hand.shadow"]) == 2


@pytest.mark.parametrize("players", [3, 4])
def test_each_seat_sees_only_its_own_hand(wotr, players):
    """002 "Card Swapping": teammates may not show each other their cards; each seat's hand is
    its own (a teammate sees how many cards, not which)."""
    rng = random.Random(5)
    st = wotr.new_game(seed=5, players=players)
    for step in range(300):
        if st.is_terminal():
            break
        if step % 25 == 0:
            for viewer in st.seats:
                view = st.view(viewer)
                for other in st.seats:
                    hand = list(st.zones[f"hand.{other}"])
                    if other == viewer:
                        assert view["zones"][f"hand.{other}"] == hand, (viewer, "its own hand")
                    else:
                        assert view["zones"][f"hand.{other}"] == {"count": len(hand)}, (viewer, other)
        st.apply(rng.choice(st.legal_actions()))
