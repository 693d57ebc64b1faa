"""docs/authoring.md and the game it teaches (tests/games/saltroad) cannot drift apart.

- every fenced block of the doc preceded by `<!-- from: PATH -->` is a run of whole lines of PATH,
  and every ```yaml block of the doc has such a comment (no unchecked YAML in the tutorial);
- the game validates with no diagnostic at all, errors or warnings;
- its rule scenarios pass;
- random agents finish their games, and the greedy agent (the game's agent: evaluate) clearly
  beats random from each seat.
"""
import re
from pathlib import Path

import pytest

from interpreter import check_game, load_game
from interpreter.agents import make_agent
from interpreter.scenario import run_file

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "authoring.md"
GAME = ROOT / "tests" / "games" / "saltroad"

_FENCE = re.compile(r"^```(\w*)\s*$")
_FROM = re.compile(r"^<!--\s*from:\s*(\S+)\s*-->\s*$")


def _blocks():
    """(line number, language, source path or None, block lines) for every fenced block."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "```":
            j += 1
        assert j < len(lines), f"docs/authoring.md:{start + 1}: fenced block never closed"
        prev = lines[start - 1] if start > 0 else ""
        src = _FROM.match(prev)
        out.append((start + 1, m.group(1), src.group(1) if src else None, lines[start + 1:j]))
        i = j + 1
    return out


BLOCKS = _blocks()
EXCERPTS = [b for b in BLOCKS if b[2] is not None]


def test_the_doc_has_excerpts_of_every_rule_file_kind():
    named = {b[2] for b in EXCERPTS}
    for f in ("game.yaml", "board.yaml", "cards/contracts.yaml", "cards/favours.yaml", "cards/charters.yaml"):
        assert f"tests/games/saltroad/{f}" in named, f"no excerpt of {f}"
    assert any("/scenarios/" in n for n in named), "no excerpt of a scenario file"


def test_every_yaml_block_names_its_source():
    bare = [line for line, lang, src, _ in BLOCKS if lang == "yaml" and src is None]
    assert not bare, f"docs/authoring.md: ```yaml blocks without <!-- from: PATH --> at lines {bare}"


@pytest.mark.parametrize("line,lang,src,body", EXCERPTS, ids=[f"line{b[0]}" for b in EXCERPTS])
def test_excerpt_is_verbatim(line, lang, src, body):
    path = ROOT / src
    assert path.is_file(), f"docs/authoring.md:{line}: {src} does not exist"
    assert body, f"docs/authoring.md:{line}: empty excerpt"
    text = path.read_text(encoding="utf-8").splitlines()
    n = len(body)
    found = any(text[k:k + n] == body for k in range(len(text) - n + 1))
    if not found:
        # point at the first line of the excerpt that is not in the file, to fix it quickly
        missing = next((b for b in body if b not in text), body[0])
        pytest.fail(f"docs/authoring.md:{line}: the excerpt is not a run of whole lines of {src}; "
                    f"first line not found as it is: {missing!r}", pytrace=False)


def test_the_game_has_no_diagnostics():
    diags = check_game(str(GAME))
    assert diags == [], "\n".join(str(d) for d in diags)


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


SCENARIOS = sorted((GAME / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios_pass(game, path):
    fails = run_file(game, path)
    assert not fails, "\n".join(fails)


def test_every_rule_has_a_scenario():
    cited = " ".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    for rule in range(1, 11):
        assert re.search(rf'"Salt Road in ten rules" ([0-9, ]*\b)?{rule}\b', cited), f"no scenario cites rule {rule}"


def _play(game, seed, agents):
    st = game.new_game(seed=seed)
    seat = {p: make_agent(a, seed * 7919 + i) for i, (p, a) in enumerate(zip(st.seats, agents))}
    n = 0
    while not st.over:
        st.apply(seat[st.current_player].act(st))
        n += 1
        assert n < 500, f"seed {seed}: no end after 500 actions"
    return st, n


def test_random_games_end(game):
    lengths = []
    for seed in range(50):
        st, n = _play(game, seed, ["random", "random"])
        assert st.victory in ("renown", "coins", "draw")
        assert set(st.scores) == {"amber", "teal"}
        lengths.append(n)
    assert max(lengths) < 120


def test_greedy_beats_random_from_each_seat(game):
    games = 40
    first = sum(_play(game, s, ["greedy:1", "random"])[0].winners == ["amber"] for s in range(games))
    second = sum(_play(game, s, ["random", "greedy:1"])[0].winners == ["teal"] for s in range(games))
    assert first >= 0.8 * games and second >= 0.8 * games, (first, second)
