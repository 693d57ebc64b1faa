"""The command line: validate, play (no terminal), simulate, replay, test, schema, cards."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_validate_all_games_ok(capsys):
    code, out, err = run(["validate", str(ROOT / "games")], capsys)
    assert code == 0, out + err
    assert "duel: ok" in err


def test_validate_checks_a_game_with_each_of_its_mods(tmp_path, capsys):
    code, out, err = run(["validate", str(ROOT / "games" / "confrontation")], capsys)
    assert code == 0, out + err
    assert "confrontation: ok" in err and "confrontation + deluxe: ok" in err
    # a broken mod fails the game's validation, pointing into the mod
    game = tmp_path / "confrontation"
    shutil.copytree(ROOT / "games" / "confrontation", game)
    specials = game / "mods" / "deluxe" / "specials.yaml"
    specials.write_text(specials.read_text().replace("put(c, mordor)", "put(c, mordr)"))
    code, out, err = run(["validate", str(game)], capsys)
    assert code == 1
    assert "specials.yaml:" in out and "unknown name 'mordr'" in out
    assert "confrontation: ok" in err and "confrontation + deluxe: 1 error(s)" in err


def test_validate_reports_a_broken_region_at_its_line(tmp_path, capsys):
    game = tmp_path / "duel"
    shutil.copytree(ROOT / "games" / "duel", game)
    cards = game / "cards" / "chapter1.yaml"
    text = cards.read_text()
    assert "muster(1, gondor, rohan)" in text
    cards.write_text(text.replace("muster(1, gondor, rohan)", "muster(1, gondr, rohan)"))
    line = next(i for i, l in enumerate(cards.read_text().splitlines(), 1) if "gondr" in l)
    col = cards.read_text().splitlines()[line - 1].index("gondr") + 1
    code, out, err = run(["validate", str(game)], capsys)
    assert code == 1
    assert f"chapter1.yaml:{line}:{col}: error[E301]: unknown name 'gondr'" in out
    assert "did you mean 'gondor'?" in out
    assert "Traceback" not in out + err


def test_play_without_a_terminal_lets_the_computer_play_both_sides(tmp_path):
    log = tmp_path / "game.json"
    proc = subprocess.run([sys.executable, "-m", "interpreter", "play", "duel", "--seed", "5",
                           "--save-log", str(log)], input="", capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "winners:" in proc.stdout
    rec = json.loads(log.read_text())
    assert rec["game"] == "duel" and rec["seed"] == 5 and rec["actions"]
    # the last line words the victory as the log does (display: victories:), not by its id
    from interpreter import load_game

    shown = load_game("duel").rules.victory_names[rec["victory"]]
    last = next(line for line in reversed(proc.stdout.splitlines()) if "winners:" in line)
    assert f"({shown})" in last and f"({rec['victory']})" not in last, last


def test_replay_matches_and_detects_tampering(tmp_path, capsys):
    log = tmp_path / "game.json"
    assert main(["play", "duel", "--seed", "8", "--agents", "greedy,random", "--save-log", str(log)]) == 0
    capsys.readouterr()
    code, out, err = run(["replay", str(log)], capsys)
    assert code == 0 and "matches the log" in out
    rec = json.loads(log.read_text())
    rec["winners"] = ["nobody"]
    log.write_text(json.dumps(rec))
    code, out, err = run(["replay", str(log)], capsys)
    assert code == 1 and "winners differs" in err
    rec["actions"][3] = "take:nothing:play"
    log.write_text(json.dumps(rec))
    code, out, err = run(["replay", str(log)], capsys)
    assert code == 1 and "illegal on replay" in err
    log.write_text("{broken")
    code, out, err = run(["replay", str(log)], capsys)
    assert code == 2 and "not a game log" in err  # a file that is not a log: bad usage


def test_simulate_json(capsys):
    code, out, err = run(["simulate", "duel", "--games", "20", "--seed", "3", "--json"], capsys)
    assert code == 0
    res = json.loads(out)
    assert res["games"] == 20
    assert sum(res["wins"].values()) == 20
    assert sum(res["victory_types"].values()) == 20
    assert res["length"]["min"] <= res["length"]["mean"] <= res["length"]["max"]
    # the same seeds give the same results
    code, out2, _ = run(["simulate", "duel", "--games", "20", "--seed", "3", "--json"], capsys)
    again = json.loads(out2)
    assert again["wins"] == res["wins"] and again["length"] == res["length"]


def test_simulate_with_workers_agrees_with_one_worker(capsys):
    _, out1, _ = run(["simulate", "duel", "--games", "12", "--seed", "7", "--json"], capsys)
    _, out2, _ = run(["simulate", "duel", "--games", "12", "--seed", "7", "--json", "--workers", "2"], capsys)
    a, b = json.loads(out1), json.loads(out2)
    assert a["wins"] == b["wins"] and a["victory_types"] == b["victory_types"]


def test_test_command_runs_scenarios(capsys):
    code, out, err = run(["test", "duel"], capsys)
    assert code == 0
    assert " passed, 0 failed" in out


@pytest.mark.parametrize("kind", ["game", "board", "cards"])
def test_schema_prints_json(kind, capsys):
    code, out, _ = run(["schema", kind], capsys)
    assert code == 0
    assert json.loads(out)["$schema"].startswith("http://json-schema.org/draft-07")


def test_schema_dsl_lists_primitives(capsys):
    code, out, _ = run(["schema", "dsl"], capsys)
    assert code == 0 and "shortfall(" in out and "advance(" in out


def test_cards_lists_every_item(capsys):
    code, out, _ = run(["cards", "duel", "--type", "landmark"], capsys)
    assert code == 0
    for tile in ("barad_dur", "bree", "erebor", "grey_havens", "helms_deep", "isengard", "minas_tirith"):
        assert tile in out


def test_cards_show_effect_text_literally(capsys, monkeypatch):
    """Rule text holding brackets (at[fangorn]) is printed as written, not read as markup."""
    monkeypatch.setenv("COLUMNS", "400")
    code, out, _ = run(["cards", "confrontation", "--mod", "deluxe", "--type", "special", "--code"], capsys)
    assert code == 0
    assert "move(gandalf, at[fangorn])" in out and "usable if:" in out


def test_game_options_on_the_command_line(capsys):
    code, out, _ = run(["simulate", "duel", "--games", "4", "--seed", "2", "--json",
                        "--option", "set_aside=box"], capsys)
    assert code == 0 and json.loads(out)["options"] == {"set_aside": "box"}
    code, _, err = run(["simulate", "duel", "--games", "1", "--option", "set_aside=nowhere"], capsys)
    assert code == 2 and "one of" in err
    code, _, err = run(["simulate", "duel", "--games", "1", "--option", "colour=blue"], capsys)
    assert code == 2 and "unknown option 'colour'" in err


def test_primitives_reference_is_up_to_date():
    """grammar/PRIMITIVES.md and the reference in docs/modding.md are generated from the registry;
    regenerate them when a primitive changes."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_primitives.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_play_resumes_a_saved_game(tmp_path, capsys, duel):
    st = duel.new_game(seed=12)
    for _ in range(5):
        st.apply(st.legal_actions()[0])
    save = tmp_path / "save.json"
    save.write_text(st.to_json())
    code, out, _ = run(["play", "duel", "--load", str(save), "--agents", "random,random"], capsys)
    assert code == 0 and "seed 12" in out and "winners:" in out
    save.write_text("{not json")
    code, _, err = run(["play", "duel", "--load", str(save)], capsys)
    assert code == 2 and "not a save" in err


def test_a_saved_game_resumes_with_the_players_it_had(tmp_path, capsys, duel):
    """A save keeps who played each seat (to_json(agents=)); --load resumes with them unless
    --agents or --as says otherwise; --watch puts the computer in a person's seat."""
    st = duel.new_game(seed=12)
    for _ in range(5):
        st.apply(st.legal_actions()[0])
    save = tmp_path / "save.json"
    save.write_text(st.to_json(agents={"fellowship": "greedy", "sauron": "random"}))
    code, out, _ = run(["play", "--load", str(save), "--watch"], capsys)
    assert code == 0 and "fellowship: greedy; sauron: random" in out
    code, out, _ = run(["play", "--load", str(save), "--watch", "--agents", "random"], capsys)
    assert code == 0 and "fellowship: random; sauron: random" in out
    save.write_text(st.to_json(agents={"fellowship": "human", "sauron": "greedy"}))
    code, out, _ = run(["play", "--load", str(save), "--watch"], capsys)
    default = duel.rules.default_agents or "random"
    assert code == 0 and f"fellowship: {default}; sauron: greedy" in out
    save.write_text(st.to_json(agents={"fellowship": "grandmaster", "sauron": "greedy"}))
    code, _, err = run(["play", "--load", str(save), "--watch"], capsys)
    assert code == 2 and "unknown agent 'grandmaster'" in err
    text = json.loads(st.to_json())
    for bad in (["greedy"], {"sauron": "greedy:\u00b2"}, {"sauron": "random,greedy"}):  # (² is a digit to Python)
        text["agents"] = bad
        save.write_text(json.dumps(text))
        code, _, err = run(["play", "--load", str(save), "--watch"], capsys)
        assert code == 2 and "'agents' must name" in err and "Traceback" not in err, (bad, err)
    code, _, err = run(["play", "duel", "--watch", "--agents", "greedy:\u00b2"], capsys)
    assert code == 2 and "unknown agent" in err


def test_validate_formats_and_exit_codes(capsys):
    """text / json / github output; exit 0 with warnings only, 1 with errors, 2 for no game."""
    bad = str(ROOT / "tests" / "bad_rules" / "reveal_a_region")
    warn = str(ROOT / "tests" / "bad_rules" / "warn_unused_function")
    code, out, _ = run(["validate", bad, "--format", "github"], capsys)
    assert code == 1
    assert out.strip() == ("::error file=tests/bad_rules/reveal_a_region/game.yaml,line=51,col=12,title=E402::"
                           "argument 'x' of 'reveal' must be item or list, got region") or \
        out.strip().startswith("::error file=") and ",line=51,col=12,title=E402::" in out
    code, out, _ = run(["validate", warn, "--format", "github"], capsys)
    assert code == 0 and out.startswith("::warning file=") and "title=W201::function 'spare' is never used" in out
    code, out, _ = run(["validate", bad, warn, "--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False and doc["errors"] == 1 and doc["warnings"] == 1
    first = doc["games"][0]["diagnostics"][0]
    assert (first["code"], first["line"], first["col"], first["severity"]) == ("E402", 51, 12, "error")
    code, _, err = run(["validate", str(ROOT / "no_such_game")], capsys)
    assert code == 2 and "no game" in err
    code, out, err = run(["validate", warn], capsys)
    assert code == 0 and "warning[W201]" in out and "1 warning(s)" in err


def test_github_annotation_escapes_newlines_and_commas():
    from interpreter.cli.validate import _github
    from interpreter.errors import Diagnostic

    d = Diagnostic("a,b:c.yaml", 3, 4, "E301", "bad\nthing 100%", "hint")
    assert _github(d) == "::error file=a%2Cb%3Ac.yaml,line=3,col=4,title=E301::bad%0Athing 100%25 (hint: hint)"


def test_mod_option_may_follow_the_files(capsys):
    files = sorted(str(p) for p in (ROOT / "games" / "confrontation" / "mods" / "deluxe" / "scenarios").glob("*.yaml"))[:1]
    code, out, err = run(["test", "confrontation", *files, "--mod", "deluxe"], capsys)
    assert code == 0, out + err
    assert " passed, 0 failed" in out + err


def test_merged_shows_the_rules_after_mods_with_their_files(capsys):
    import yaml

    code, out, _ = run(["merged", "confrontation", "--mod", "deluxe"], capsys)
    assert code == 0
    merged = yaml.safe_load(out)
    assert "turn_done = false" in merged["procedures"]["turn"]           # replaced by the mod
    assert "pippin" not in merged["items"] and "smeagol" in merged["items"]
    lines = out.splitlines()
    turn = lines.index(next(line for line in lines if line.startswith("  turn: ")))
    assert lines[turn - 1].startswith("  # games/confrontation/mods/deluxe/mod.yaml:")
    enter = lines.index(next(line for line in lines if line.startswith("  enter(c, to): ")))
    assert lines[enter - 1].startswith("  # games/confrontation/game.yaml:")
    code, _, err = run(["merged", str(ROOT / "tests" / "bad_rules" / "reveal_a_region")], capsys)
    assert code == 1 and "E402" in err


def test_scenario_files_find_their_game(capsys):
    """`test FILE...`: the game is the folder above the file holding game.yaml; a mod's
    scenarios name their mod."""
    files = [str(ROOT / "games" / "risk" / "scenarios" / "dice.yaml"),
             str(ROOT / "games" / "confrontation" / "mods" / "deluxe" / "scenarios" / "setup.yaml")]
    code, out, err = run(["test", files[0]], capsys)
    assert code == 0 and " passed, 0 failed" in out
    code, out, err = run(["test", files[1]], capsys)
    assert code == 0 and " passed, 0 failed" in out


def test_every_rule_file_names_its_schema_for_editors():
    """Each rule file starts with a yaml-language-server line pointing at the JSON Schema of its
    kind, so editors complete and check as one types (the schemas' references are relative
    files, which editors resolve)."""
    import yaml

    files = [p for p in (ROOT / "games").rglob("*.yaml") if "scenarios" not in p.parts]
    assert len(files) >= 20
    for p in files:
        first, _, rest = p.read_text().partition("\n")
        kind = yaml.safe_load(rest)["kind"]
        assert first.startswith("# yaml-language-server: $schema="), p
        target = (p.parent / first.split("=", 1)[1]).resolve()
        assert target == ROOT / "interpreter" / "schemas" / f"{kind}.schema.json", p
    for schema in (ROOT / "interpreter" / "schemas").glob("*.json"):
        assert "lotr-rules:" not in schema.read_text(), schema  # editors cannot resolve such refs


def test_a_failing_expectation_shows_expected_and_actual(tmp_path, capsys):
    sc = tmp_path / "wrong.yaml"
    sc.write_text("- name: wrong on purpose\n  cites: none\n  seed: 1\n  options: {placement: random}\n"
                  "  expect:\n    - n_at(sauron, mordor) == 4 and size(hand[sauron]) == 8\n")
    code, out, _ = run(["test", "confrontation", str(sc)], capsys)
    assert code == 1
    assert f"{sc}:1: scenario 'wrong on purpose'" in out
    assert "the left side is 9, the right side 8 (== does not hold)" in out


def test_scenarios_can_expect_log_lines(tmp_path, capsys):
    sc = tmp_path / "log.yaml"
    sc.write_text("- name: placed\n  cites: none\n  seed: 1\n  options: {placement: random}\n"
                  "  log: [both sides have placed their characters]\n"
                  "- name: never said\n  cites: none\n  seed: 1\n  options: {placement: random}\n"
                  "  log: [nothing like this]\n")
    code, out, _ = run(["test", "confrontation", str(sc)], capsys)
    assert code == 1 and "1 passed, 1 failed" in out and "'nothing like this'" in out


def test_a_rule_failing_at_run_time_is_reported_in_rule_terms(tmp_path, capsys):
    """A card whose effect takes the first item of an empty zone: the test command reports the
    card file's line, the card, and what went wrong in the language's words, then goes on."""
    game = tmp_path / "duel"
    shutil.copytree(ROOT / "games" / "duel", game, ignore=shutil.ignore_patterns("scenarios", "mods"))
    cards = game / "cards" / "chapter1.yaml"
    text = cards.read_text()
    line = text[:text.index("effect: gain(2)")].count("\n") + 1
    cards.write_text(text.replace("effect: gain(2)", "effect: gain(top(box, 1)[0])", 1))
    (game / "scenarios").mkdir()
    sc = game / "scenarios" / "broken.yaml"
    sc.write_text("- name: plays the broken card\n  cites: none\n  seed: 1\n"
                  "  setup: {vars: {current: fellowship}, to_act: fellowship, items: {c1_09: layout1.E1}}\n"
                  "  actions: [take:c1_09:play]\n  expect: [coins(fellowship) == 5]\n"
                  "- name: a scenario after it still runs\n  cites: none\n  expect: [chapter == 1]\n")
    code, out, err = run(["test", str(game)], capsys)
    assert code == 1
    assert f"chapter1.yaml:{line} (effect of c1_09): index 0 of an empty list" in out
    assert "while resolving Treasure: 2 coins [c1_09]" in out and "scenario 'plays the broken card'" in out
    assert "1 passed, 1 failed" in out
    for python in ("Traceback", "TypeError", "NoneType", "IndexError"):
        assert python not in out + err


def test_play_as_a_seat_seats_the_person_there_and_the_default_agent_elsewhere():
    """`play GAME --as SEAT` (several: SEAT,SEAT): people there, the game's default agent in the
    other seats; without --as the person takes the first seat (on a terminal)."""
    from types import SimpleNamespace

    from interpreter.cli.play import seat_agents

    seats = ["gondor_player", "rohan_player", "witch_king_player", "saruman_player"]
    args = SimpleNamespace(as_seats="saruman_player", agents=None)
    assert seat_agents(args, seats, "greedy:1", True) == "greedy:1,greedy:1,greedy:1,human"
    args = SimpleNamespace(as_seats="rohan_player, witch_king_player", agents=None)
    assert seat_agents(args, seats, "random", True) == "random,human,human,random"
    args = SimpleNamespace(as_seats=None, agents=None)
    assert seat_agents(args, seats[:2], "greedy:1", True) == "human,greedy:1"
    assert seat_agents(args, seats[:2], "greedy:1", False) == "greedy:1,greedy:1"


def test_games_lists_each_seatings_seats_and_is_not_cut_when_piped(capsys, monkeypatch):
    """`lotr-rules games` names the seats --as takes, for each player count; written to a pipe
    (no terminal, no COLUMNS) its table is wide enough that no name is cut."""
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = run(["games", "--json"], capsys)
    games = {g["game"]: g for g in json.loads(out)}
    assert code == 0 and games["war-of-the-ring"]["seats"]["4"] == [
        "gondor_player", "rohan_player", "witch_king_player", "saruman_player"]
    assert games["duel"]["seats"] == {"2": ["fellowship", "sauron"]}
    code, out, _ = run(["games"], capsys)
    assert code == 0 and "war-of-the-ring " in out and "confrontation " in out
    assert "4: gondor_player, rohan_player," in out and "…" not in out


def test_one_player_is_refused_with_how_to_play_alone(capsys):
    code, _, err = run(["play", "war-of-the-ring", "--players", "1", "--agents", "random"], capsys)
    assert code == 2 and "War of the Ring, second edition is played by 2, 3, 4 players, not 1" in err
    assert "to play alone, take one seat (--as SEAT" in err
