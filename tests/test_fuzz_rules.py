"""Mutated copies of the Duel rule files: the checker reports problems as diagnostics and
never crashes, not even in a build step that runs after earlier problems were found."""
import os
import random
import shutil
from pathlib import Path

import pytest

from interpreter import check_game
from interpreter.build import builder as build

DUEL = Path(__file__).resolve().parents[1] / "games" / "duel"
FILES = ["game.yaml", "cards/landmarks.yaml", "cards/alliances.yaml", "board.yaml", "cards/chapter3.yaml"]
ALPHABET = "abcdefgh_()[]{}:,.'\"|>-+*/%=<!#\n 0123456789&@"


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(text))
        op = rng.random()
        if op < 0.4:
            text = text[:pos] + text[pos + 1:]
        elif op < 0.8:
            text = text[:pos] + rng.choice(ALPHABET) + text[pos:]
        else:
            j = rng.randrange(len(text))
            text = text[:pos] + text[j:j + rng.randint(1, 30)] + text[pos:]
    return text


@pytest.mark.parametrize("seed", range(4))
def test_mutated_rule_files_never_crash_the_checker(tmp_path, monkeypatch, seed):
    crashes = []

    def step(self, fn, *args):  # like Builder._step, but remembers every crash
        try:
            fn(*args)
        except Exception as exc:
            crashes.append(f"{fn.__name__}: {type(exc).__name__}: {exc}")

    monkeypatch.setattr(build.Builder, "_step", step)
    rng = random.Random(seed)
    for i in range(15):
        game = tmp_path / f"g{i}"
        shutil.copytree(DUEL, game, ignore=shutil.ignore_patterns("scenarios"))
        f = game / rng.choice(FILES)
        f.write_text(mutate(f.read_text(), rng))
        diags = check_game(str(game))
        assert not [d for d in diags if d.code == "E999"], diags
        assert not crashes, (f, crashes)


@pytest.mark.parametrize("file, old, new, code", [
    ("duel/game.yaml", "    default: discard\n", "    defualt: discard\n", "E101"),  # an option without its default
    ("duel/game.yaml", "  took_landmark: {tile: item, by: player}\n", "  took_landmark: a tile and a player\n", "E101"),
    ("duel/game.yaml", "  player_zones: [area, allies, landmarks]", "  player_zones: [area, allies, n: landmarks]", "E101"),
    ("duel/game.yaml", "  deck: {per: [1, 2, 3]", "  deck: {per: [1, {n: 2}, 3]", "E306"),
    ("duel/game.yaml", "  extra_turns: {per: players,", "  extra_turns: {per: [fellowship, {n: 1}, sauron],", "E306"),  # was E999
    # a player, or an enum value, that is not a name: the players' and enums' step stopped there
    ("duel/game.yaml", "players: [fellowship, sauron]", "players: [fellowship, sauron, [x]]", "E101"),
    ("duel/game.yaml", "  races: [elves, dwarves, hobbits, humans, ents, wizards]",
     "  races: [elves, dwarves, {n: 1}, hobbits, humans, ents, wizards]", "E101"),
    # a piece kind that is not a mapping, a 'per' that is not a name: the pieces', zones' or tracks' step stopped there
    ("duel/game.yaml", "  unit: {per_player: 15}", "  unit: [15]", "E101"),
    ("duel/game.yaml", "  area: {per: players,", "  area: {per: {n: players},", "E101"),
    ("duel/game.yaml", "tracks:\n  quest:\n    per: players", "tracks:\n  quest:\n    per: {n: players}", "E101"),
    # an item type's property, an item's type, zone or region that is not a name: the item types' or items' step
    # stopped there (every item type or item after it unknown; the region's own error never made)
    ("duel/game.yaml", "      chapter: int", "      chapter: [int]", "E101"),
    ("duel/cards/alliances.yaml", "    at: tokens.elves", "    at: {n: tokens.elves}", "E101"),
    ("risk/cards/mountains.yaml", "borders: [forlindon,", "borders: [{n: forlindon},", "E402"),
    # a move's arguments or id, a trigger's id or bindings, of the wrong shape: the moves' or triggers' step
    # stopped there (the bodies after it never checked)
    ("duel/game.yaml", "    args: {card: available_cards}", "    args: true", "E101"),
    ("duel/game.yaml", '    id: "take:{card}:play"', "    id: [take]", "E101"),
    ("duel/game.yaml", "  - id: quest_victory", "  - id: {n: quest_victory}", "E101"),
    ("duel/game.yaml", "    for: {me: players()}", "    for: [players()]", "E101"),
    # a meter's marks, the display's zones or a one_of's log texts of the wrong shape: the display's steps
    # stopped there (the item lines, player zones or victories after it never checked)
    ("duel/game.yaml", "      marks: {6: victory}", "      marks: [6, victory]", "E101"),
    ("duel/game.yaml", "  zones: [current_layout, landmark_row, revealed]", "  zones: 7", "E101"),
    ("duel/game.yaml", '    maneuver: {remove: "", move: ""}', "    maneuver: [remove, move]", "E101"),
    # a whole part of the display, an item's abilities, a track's spaces that is no mapping (its block moved
    # under an unknown key): the step stopped there (the other parts, items or tracks never checked)
    ("duel/game.yaml", "  prompts:\n", "  prompts: 7\n  x_prompts:\n", "E101"),
    ("duel/game.yaml", "    spaces:\n", "    spaces: [3]\n    x_spaces:\n", "E101"),
    ("duel/cards/alliances.yaml", "    abilities:\n", "    abilities: 7\n    x_abilities:\n", "E101"),
    ("duel/game.yaml", "\nagent:\n", "\nagent: [greedy]\nx_agent:\n", "E101"),
    ("duel/game.yaml", "  - event: played\n    if: card.color == green",
     "  - id: [a]\n    event: played\n    if: card.color == green", "E101"),  # a listener's id
    # seats: that is no mapping: the step stopped there, no enum declared (142 errors)
    ("risk/game.yaml", "seats: {2: [yellow, red], 3: [yellow, red, black], 4: [yellow, green, red, black]}",
     "seats: [yellow, green, red, black]", "E101"),
    ("duel/game.yaml", "\ntriggers:\n", "\ntriggers: true\nx_triggers:\n", "E101"),
])
def test_a_malformed_declaration_is_reported_once_not_crashed_over(tmp_path, monkeypatch, file, old, new, code):
    """Found by running the mutation above at scale: an option without `default` (or an event
    whose arguments are not a mapping) crashed its build step, which skipped every other
    declaration of that step, so one typo came back as a hundred 'unknown name' errors."""
    crashes = []

    def step(self, fn, *args):
        try:
            fn(*args)
        except Exception as exc:
            crashes.append(f"{fn.__name__}: {type(exc).__name__}: {exc}")

    monkeypatch.setattr(build.Builder, "_step", step)
    name, file = file.split("/", 1)
    game = tmp_path / "g"
    shutil.copytree(DUEL.parent / name, game, ignore=shutil.ignore_patterns("scenarios"))
    f = game / file
    text = f.read_text()
    assert old in text
    line = text[:text.index(old) + len(os.path.commonprefix([old, new]))].count("\n") + 1  # the schema error is there
    f.write_text(text.replace(old, new, 1))
    diags = [d for d in check_game(str(game)) if d.severity == "error"]
    assert not crashes, crashes
    assert any(d.code == code and d.line == line for d in diags) and len(diags) <= 5, "\n".join(map(str, diags))
