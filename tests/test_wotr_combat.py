"""War of the Ring: Combat cards (issue 14) through the public API: the secret pick leaks
nothing to the other side, every Combat title is on its cards and in a scenario, the default
agent chooses Combat cards by their worth, and random games use them.

Sources: 002_7d229a520e9994a7.txt "Combat Cards", "Armies and Battles > Combat > Combat Rounds"
(both sides choose in secret and reveal together); reference/war-of-the-ring/FACTS.md 6.2, 6.4
(the 38 titles and their initiatives). The rules: games/war-of-the-ring/rules/combat.yaml.
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load_game

GAME = "war-of-the-ring"
FP, SH = "free_peoples", "shadow"
SCENARIOS = Path(__file__).resolve().parents[1] / "games" / GAME / "scenarios"

# FACTS 6.4: the 38 Combat titles and their initiatives (Mumakil: 3 and 5)
TITLES = {
    "It Is a Gift": 3, "Blade of Westernesse": 6, "Mighty Attack": 4, "Servant of the Secret Fire": 3,
    "Andúril": 4, "Heroic Death": 6, "Daring Defiance": 0, "Fateful Strike": 6, "Sudden Strike": 2,
    "Brave Stand": 3, "Ents' Rage": 3, "Huorn-dark": 3, "Nameless Wood": 5, "Daylight": 3,
    "No Quarter": 5, "Advantageous Position": 3, "Scouts": 1, "Shield-wall": 6, "Confusion": 4,
    "Charge": 2, "Valour": 3,
    "One for the Dark Lord": 3, "Cruel as Death": 3, "They Are Terrible": 4, "Dread and Despair": 3,
    "Foul Stench": 3, "Black Breath": 6, "Words of Power": 1, "Durin's Bane": 2,
    "Devilry of Orthanc": 3, "Deadly Strife": 3, "Onslaught": 7, "Relentless Assault": 3,
    "Great Host": 7, "Mûmakil": 3, "Swarm of Bats": 0, "We Come to Kill": 7, "Desperate Battle": 3,
}


@pytest.fixture(scope="module")
def wotr():
    return load_game(GAME)


def _battle(game, fp_cards, sh_cards, extra_items=None, src="south_ithilien", dst="north_ithilien",
            route=("choose:attack_from:south_ithilien", "choose:attack_to:north_ithilien")):
    """Turn 1 (no Hunt die), both hands emptied then given these cards; the Shadow attacks `dst`
    (3 Gondor Regulars, Boromir) from `src` (5 Regulars; `route`: the choices of source and target
    the attack asks) and the round's first question (the Shadow's declaration) is pending."""
    st = game.new_game(seed=1)
    items = {c: f"hand.{FP}" for c in fp_cards}
    items.update({c: f"hand.{SH}" for c in sh_cards})
    items.update(extra_items or {"boromir": f"at.{dst}"})
    st.edit({"move_all": {f"hand.{FP}": f"discards.{FP}", f"hand.{SH}": f"discards.{SH}"},
             "vars": {"step.sauron": 0}, "items": items,
             "pieces": [{"kind": "regular", "owner": "sauron", "at": src, "count": 5},
                        {"kind": "regular", "owner": "gondor", "at": dst, "count": 3}]})
    for a in ("choose:declare:no", "choose:guide:gandalf_grey", "choose:hunt_dice:0"):
        st.apply(a)
    st.edit({"vars": {"dice.free_peoples": [], "dice.shadow": ["army"]}})
    for a in ("choose:turn_action:pass", "choose:action:attack", *route, "choose:rearguard:no"):
        st.apply(a)
    assert st.current_player == SH and st.pending.get("label") == "play_combat_card"
    return st


def _ids(st):
    return [a.id for a in st.legal_actions()]


# ------------------------------------------------------------------ the secret pick
def test_the_first_secret_pick_shows_the_other_side_nothing(wotr):
    """002 "Combat Rounds": both sides choose in secret and reveal together. The Free Peoples
    choose first; whichever card they chose (three cards, two decks), what the Shadow sees while
    it chooses is the same: its view, its legal actions, its log and the public log.

    The worlds an agent of the Shadow imagines (GameState.resample with a canonical random
    source, as ISMCTS draws them) are the same for two cards of the same deck. The engine deals a
    hidden card anew only among the cards of its own deck (their backs differ, as on the table,
    where the card lies face down), so an imagined world keeps the deck of the chosen card, not
    the card: checked below for two Strategy cards."""
    fp = ["the_last_battle", "wisdom_of_elrond", "i_will_go_alone"]  # Strategy, Strategy, Character
    st = _battle(wotr, fp, ["pits_of_mordor", "stormcrow"])
    st.apply("choose:play_combat_card:yes")
    st.apply("choose:play_combat_card:yes")
    assert st.current_player == FP and sorted(_ids(st)) == sorted(f"choose:combat_card:{c}" for c in fp)
    try:
        from interpreter.agents.ismcts import CanonicalRandom
    except ImportError:  # pragma: no cover (an engine without ISMCTS)
        CanonicalRandom = None
    seen, worlds = [], {}
    for c in fp:
        s = st.clone()
        s.apply(f"choose:combat_card:{c}")
        assert s.current_player == SH and s.pending.get("label") == "combat_card"
        assert list(s.zones[f"committed.{FP}"]) == [c]  # it is chosen, face down
        seen.append((s.view(SH), _ids(s), s.log_for(SH), s.log_for(None)))
        if CanonicalRandom is not None:
            worlds[c] = [{z: list(v) for z, v in s.resample(SH, CanonicalRandom(k)).zones.items()} for k in range(3)]
    for other in seen[1:]:
        assert other[0] == seen[0][0], "the Shadow's view depends on the Free Peoples' secret card"
        assert other[1] == seen[0][1], "the Shadow's legal actions depend on the Free Peoples' secret card"
        assert other[2] == seen[0][2] and other[3] == seen[0][3], "a log names the secret card"
    if worlds:
        assert worlds["the_last_battle"] == worlds["wisdom_of_elrond"], \
            "the Shadow's imagined worlds depend on the secret card"
    # the card is shown only once the Shadow has chosen too
    s = st.clone()
    s.apply("choose:combat_card:the_last_battle")
    assert not any("Daylight" in line for line in s.log_for(SH) + s.log_for(None))
    s.apply("choose:combat_card:pits_of_mordor")
    assert any("shows the Combat card Daylight" in line for line in s.log_for(SH))


def test_being_asked_tells_nothing_of_the_cards_a_side_may_play(wotr):
    """A side holding cards is asked whether it plays one whether or not any of them may be played
    in this battle (two Strategy cards: Devilry of Orthanc needs Isengard units against a
    stronghold, Desperate Battle nothing): the Free Peoples see the Shadow deciding in both cases,
    and after its no they see the same game."""
    seen = []
    for sh in ("pits_of_mordor", "threats_and_promises"):
        st = _battle(wotr, ["the_last_battle"], [sh])
        before = st.view(FP)
        st.apply("choose:play_combat_card:no")
        assert st.current_player == FP and st.pending.get("label") == "play_combat_card"
        seen.append((before, st.view(FP), _ids(st), st.log_for(FP)))
    assert seen[0] == seen[1]
    # a yes without a card it may play is a no: nothing is declared, the card stays
    st = _battle(wotr, ["the_last_battle"], ["cruel_weather"])
    st.apply("choose:play_combat_card:yes")
    assert st.current_player == FP and st.vars["r_declared.shadow"] is False
    assert "cruel_weather" in st.zones[f"hand.{SH}"]
    assert not any("will play" in line for line in st.log_for(None))


def test_the_shadows_greedy_pick_does_not_answer_the_secret_card(wotr):
    """The default agent plays on a copy of the true game (interpreter/agents: greedy), where the
    Free Peoples' secret card lies in plain sight; the rules' evaluation values a Combat card
    from the public situation only (rules/combat.yaml combat_value), so the Shadow takes the card
    worth most, Durin's Bane near Moria, whichever card the Free Peoples chose (Daring Defiance
    would cancel it)."""
    from interpreter.agents import make_agent

    fp = ["the_last_battle", "wisdom_of_elrond", "i_will_go_alone"]
    st = _battle(wotr, fp, ("balrog_of_moria", "the_day_without_dawn", "stormcrow"),
                 src="north_anduin_vale", dst="gladden_fields", route=())
    for a in ("choose:play_combat_card:yes", "choose:play_combat_card:yes"):
        st.apply(a)
    for seed in range(3):
        for c in fp:
            s = st.clone()
            s.apply(f"choose:combat_card:{c}")
            assert make_agent("greedy:1", seed).act(s).id == "choose:combat_card:balrog_of_moria", (seed, c)


# ------------------------------------------------------------------ the titles
def test_every_combat_title_is_on_its_cards_and_in_a_scenario(wotr):
    """The 38 titles of FACTS 6.4 with their initiatives, each card's Combat half an effect
    (effects: combat; Mumakil's second timing combat2), its words ending with the Combat card,
    and each title in a scenario of combat_cards_fp.yaml or combat_cards_shadow.yaml."""
    rules = wotr.rules
    cards = [c for c, t in rules.item_type_of.items() if t == "event_card"]
    assert len(cards) == 96
    by_title = Counter(rules.props[c]["combat"] for c in cards)
    assert set(by_title) == set(TITLES) and len(by_title) == 38
    texts = "\n".join((SCENARIOS / f).read_text() for f in ("combat_cards_fp.yaml", "combat_cards_shadow.yaml"))
    for c in cards:
        p = rules.props[c]
        title = p["combat"]
        assert p["initiative"] == TITLES[title], (c, title, p["initiative"])
        assert (c, "combat") in rules.item_effects, f"{c}: no Combat effect"
        assert f"Combat card, {title}" in rules.item_words.get(c, ""), f"{c}: its words omit {title}"
    assert rules.props["shadows_gather"].get("initiative2") == 5
    assert ("shadows_gather", "combat2") in rules.item_effects
    for title in TITLES:
        assert title in texts, f"no scenario of {title}"


# ------------------------------------------------------------------ the default agent
def test_the_default_agent_plays_the_card_worth_most(wotr):
    """greedy (the game's default agent) through the rules' evaluation: the Shadow, whose cards
    are worth nothing in this battle (Desperate Battle helps the Free Peoples as much; no great
    host), says no; the Free Peoples say yes and choose Confusion (five Shadow dice, each 1 a hit
    on the Shadow) over Daylight (two dice fewer) and Daring Defiance (nothing to cancel)."""
    from interpreter.agents import make_agent

    st = _battle(wotr, ["the_last_battle", "wisdom_of_elrond", "i_will_go_alone"], ["pits_of_mordor", "stormcrow"])
    for seed in range(4):
        s = st.clone()
        took = []
        while s.pending and s.pending.get("label") in ("play_combat_card", "combat_card"):
            a = make_agent("greedy:1", seed).act(s)
            took.append((s.current_player, a.id))
            s.apply(a)
        assert took == [(SH, "choose:play_combat_card:no"), (FP, "choose:play_combat_card:yes"),
                        (FP, "choose:combat_card:wisdom_of_elrond")], took


def test_the_default_agent_keeps_a_card_worth_nothing(wotr):
    """Daring Defiance with no Shadow card to cancel is worth nothing: the Free Peoples keep it."""
    from interpreter.agents import make_agent

    st = _battle(wotr, ["i_will_go_alone"], ["stormcrow"])
    st.apply("choose:play_combat_card:no")
    for seed in range(4):
        assert make_agent("greedy:1", seed).act(st).id == "choose:play_combat_card:no"


# ------------------------------------------------------------------ in play
def test_random_games_use_combat_cards(wotr):
    """A few random games: both sides show Combat cards, and each card used lies discarded."""
    used = Counter()
    for seed in range(2):
        st = wotr.new_game(seed=seed)
        rng = random.Random(seed)
        n = 0
        while not st.is_terminal() and n < 60_000:
            st.apply(rng.choice(st.legal_actions()))
            n += 1
        for side in (FP, SH):
            used[side] += len(st.zones[f"combat_played.{side}"])
            assert not st.zones[f"committed.{side}"] and not st.zones[f"fighting.{side}"]
    assert used[FP] > 0 and used[SH] > 0, used
