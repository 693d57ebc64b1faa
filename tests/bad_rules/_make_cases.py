"""Regenerate the bad-rules cases: each is a copy of _base/ with one deliberate defect.

    python3 tests/bad_rules/_make_cases.py

Expected positions are computed from where the defect text sits in the edited file
(never from the checker's output); expect.yaml states what the checker SHOULD report.
Cases marked xfail document a checker defect (see their xfail reason)."""
import shutil
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "_base"
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE


def R(file, old, new):
    return ("replace", file, old, new)


def W(file, text):
    return ("write", file, text)


def D(file):
    return ("delete", file)


def E(code, file, needle, occ=1, off=0, col=True, message=None, hint=None, line_only=False):
    """An expected diagnostic at the occ-th occurrence of needle (+off chars) in file."""
    return dict(code=code, file=file, needle=needle, occ=occ, off=off, col=col and not line_only,
                message=message, hint=hint)


CASES = {}


def case(name, about, edits, *expects, xfail=None, mods=()):
    CASES[name] = (about, edits, list(expects), xfail, list(mods))


# ------------------------------------------------------------------ YAML syntax (E001)
case("yaml_bad_indentation", "a card key indented one space less than its siblings",
     [R("cards.yaml", "    name: Riders\n    color: blue\n", "    name: Riders\n   color: blue\n")],
     E("E001", "cards.yaml", "   color: blue", off=3, col=False, message="YAML syntax error"))
case("yaml_unclosed_bracket", "the players list in game.yaml is never closed",
     [R("game.yaml", "players: [north, south]", "players: [north, south")],
     E("E001", "game.yaml", "[north", col=False, message="YAML syntax error"))
case("yaml_tab_indent", "a tab used for indentation in game.yaml",
     [R("game.yaml", "  deck: {visibility: hidden, face: down}\n", "\tdeck: {visibility: hidden, face: down}\n")],
     E("E001", "game.yaml", "\tdeck", message="YAML syntax error"))

# ------------------------------------------------------------------ files (E002, E003)
case("missing_game_yaml", "the folder has rule files but no game.yaml",
     [D("game.yaml")],
     dict(code="E002", file="game.yaml", line=1, message="no game.yaml"))
case("include_matches_nothing", "an include pattern that matches no file",
     [R("game.yaml", "include: [board.yaml, cards.yaml, tokens.yaml]",
        "include: [board.yaml, cards.yaml, tokens.yaml, extra/*.yaml]")],
     E("E002", "game.yaml", "extra/*.yaml", message="matches no file"))
case("unknown_file_kind", "an included file declares kind: deck",
     [R("tokens.yaml", "kind: cards", "kind: deck")],
     E("E003", "tokens.yaml", "deck", message="unknown file kind"))

# ------------------------------------------------------------------ schema (E101)
case("schema_unknown_key", "a move has 'lable:' instead of 'label:'",
     [R("game.yaml", '    label: "take {card}"', '    lable: "take {card}"')],
     E("E101", "game.yaml", "lable", message="unknown key 'lable'", hint="did you mean 'label'?"))
case("schema_unknown_key_board", "board.yaml has 'connection:' instead of 'connections:'",
     [R("board.yaml", "connections:", "connection:")],
     E("E101", "board.yaml", "connection:", message="unknown key 'connection'",
       hint="did you mean 'connections'?"))
case("schema_wrong_type", "per_player given as a word",
     [R("game.yaml", "unit: {per_player: 3}", "unit: {per_player: three}")],
     E("E101", "game.yaml", "three", message="is not of type 'integer'"))
case("schema_missing_required", "a card without an id",
     [R("cards.yaml", "  - id: banner\n    name: Banner\n", "  - name: Banner\n")],
     E("E101", "cards.yaml", "name: Banner", message="'id' is a required property"))
case("schema_bad_enum", "a zone with visibility: secret",
     [R("game.yaml", "deck: {visibility: hidden", "deck: {visibility: secret")],
     E("E101", "game.yaml", "secret", message="'secret' is not one of"))
case("schema_bad_item_id", "an item id with a dash",
     [R("cards.yaml", "id: riders", "id: dark-riders")],
     E("E101", "cards.yaml", "dark-riders", message="'dark-riders' is not a valid name"))
case("schema_bad_region_name", "a region name with a dash (a mapping key)",
     [R("board.yaml", "  vale: {name: Vale}\n", "  vale: {name: Vale}\n  dark-wood: {name: Dark Wood}\n")],
     E("E101", "board.yaml", "dark-wood", message="'dark-wood' is not a valid name"))

case("schema_bad_seating", "a seating keyed by a word, not a number of players (a pattern that is no name's)",
     [R("game.yaml", "players: [north, south]\n", "players: [north, south]\nseats: {two: [north, south]}\n")],
     E("E101", "game.yaml", "two:", message="'two' is not allowed here (at seats/two)",
       hint="a number of players, 1 to 99"))

# ------------------------------------------------------------------ DSL syntax (E201)
case("dsl_syntax_procedure", "a missing comma on line 3 of the setup procedure",
     [R("game.yaml", "place(unit, north, 1, hill)", "place(unit, north, 1 hill)")],
     E("E201", "game.yaml", "hill)", message="syntax error in procedure setup"))
case("dsl_syntax_move_if", "'=>' instead of '>=' in a move's if:",
     [R("game.yaml", "if: score[me] >= card.cost", "if: score[me] => card.cost")],
     E("E201", "game.yaml", "=> card", message="syntax error"))
case("dsl_syntax_card_block", "a wrong closing bracket on line 3 of a card effect's | block",
     [R("cards.yaml", "      gain(1)\n      muster(1, ford)\n",
        "      gain(1)\n      gain(1)\n      muster(1, ford]\n")],
     E("E201", "cards.yaml", "ford]", off=4, message="unexpected ']'"))
case("dsl_syntax_function", "two operators in a row in a function body",
     [R("game.yaml", "strength(p): units(p) + mod(p, 'extra')", "strength(p): units(p) + * mod(p, 'extra')")],
     E("E201", "game.yaml", "* mod", message="syntax error in function strength"))
case("dsl_syntax_function_block", "a function in a | block with an unclosed bracket on its first line",
     [R("game.yaml", "  units(p): sum([pieces(unit, p, r) for r in regions()])\n",
        "  units(p): |\n    sum([pieces(unit, p, r) for r in regions())\n")],
     E("E201", "game.yaml", "regions())", off=9, message="syntax error in function units"))
case("bad_procedure_signature", "a procedure key that is not name(params)",
     [R("game.yaml", "  gain(n): score[me] += n", "  gain(n: score[me] += n")],
     E("E201", "game.yaml", "gain(n", message="bad procedure signature"))

# ------------------------------------------------------------------ unknown names (E301)
case("unknown_region_in_card", "region misspelled in a card effect",
     [R("cards.yaml", "muster(2, hill)", "muster(2, hil)")],
     E("E301", "cards.yaml", "hil)", message="unknown name 'hil'", hint="did you mean 'hill'?"))
case("unknown_zone_family", "zone family misspelled (aera[me])",
     [R("game.yaml", "move(card, area[me])", "move(card, aera[me])")],
     E("E301", "game.yaml", "aera", message="unknown name 'aera'", hint="did you mean 'area'?"))
case("unknown_variable_assign", "assignment to an undeclared variable",
     [R("game.yaml", "end_turn: current = opp", "end_turn: curent = opp")],
     E("E301", "game.yaml", "curent", message="cannot assign to 'curent'", hint="did you mean 'current'?"))
case("unknown_indexed_variable_assign", "indexed assignment to an undeclared variable family",
     [R("game.yaml", "gain(n): score[me] += n", "gain(n): scores[me] += n")],
     E("E301", "game.yaml", "scores", message="cannot assign to 'scores'"))
case("unknown_local", "a misspelled move argument in the move body",
     [R("game.yaml", "      play_card(card)\n", "      play_card(crad)\n")],
     E("E301", "game.yaml", "crad", message="unknown name 'crad'", hint="did you mean 'card'?"))
case("unknown_name_in_listener", "unknown name in a listener condition",
     [R("game.yaml", "if: card.color == red", "if: card.color == rad")],
     E("E301", "game.yaml", "rad", message="unknown name 'rad'", hint="did you mean 'red'?"))
case("unknown_move_placeholder", "a move id placeholder that names no argument",
     [R("game.yaml", 'id: "take:{card}"', 'id: "take:{crd}"')],
     E("E301", "game.yaml", '"take:{crd}"', message="names no argument"))
case("key_not_declared", "a zone family indexed with an undeclared name (area[nobody])",
     [R("game.yaml", "move(card, area[me])", "move(card, area[nobody])")],
     E("E301", "game.yaml", "nobody", message="unknown name 'nobody'"))

# ------------------------------------------------------------------ unknown function / statement (E302)
case("unknown_function", "a misspelled primitive function",
     [R("game.yaml", "for r in regions()]", "for r in regoins()]")],
     E("E302", "game.yaml", "regoins", message="unknown function 'regoins'", hint="did you mean 'regions'?"))
case("unknown_procedure", "a card effect calls a procedure that does not exist",
     [R("cards.yaml", "effect: gain(1)", "effect: gian(1)")],
     E("E302", "cards.yaml", "gian", message="unknown statement or procedure 'gian'", hint="did you mean 'gain'?"))

# ------------------------------------------------------------------ unknown property (E303)
case("unknown_property", "card.colour instead of card.color",
     [R("game.yaml", "if: card.color == red", "if: card.colour == red")],
     E("E303", "game.yaml", "card.colour", col=False, message="unknown property 'colour'",
       hint="did you mean 'color'?"))
case("unknown_property_in_data", "a card sets a property its type does not declare",
     [R("cards.yaml", "    color: blue\n", "    colour: blue\n")],
     E("E303", "cards.yaml", "colour", message="has no property 'colour'", hint="did you mean 'color'?"))

# ------------------------------------------------------------------ unknown move / event (E304)
case("unknown_move_in_ask", "ask names a move that does not exist",
     [R("game.yaml", "ask take, pass by current", "ask take, pas by current")],
     E("E304", "game.yaml", "pas by", message="unknown move 'pas'", hint="did you mean 'pass'?"))
case("unknown_event_in_emit", "emit names an undeclared event",
     [R("game.yaml", "emit played(card=card, by=me)", "emit plaid(card=card, by=me)")],
     E("E304", "game.yaml", "emit plaid", col=False, message="unknown event 'plaid'", hint="did you mean 'played'?"))
case("unknown_event_in_ability", "an item ability listens for an undeclared event",
     [R("tokens.yaml", "- event: played", "- event: plaid")],
     E("E304", "tokens.yaml", "plaid", message="unknown event 'plaid'", hint="did you mean 'played'?"))

# ------------------------------------------------------------------ duplicates (E305)
case("duplicate_item", "two cards with the same id",
     [R("cards.yaml", "id: banner", "id: scout")],
     E("E305", "cards.yaml", "id: scout", occ=2, col=False, message="duplicate item id 'scout'"))
case("duplicate_item_across_files", "a token reuses a card's id",
     [R("tokens.yaml", "id: beacon", "id: scout")],
     E("E305", "tokens.yaml", "id: scout", col=False, message="duplicate item id 'scout'"))
case("duplicate_region", "the same region declared twice in board.yaml",
     [R("board.yaml", "  vale: {name: Vale}\n", "  vale: {name: Vale}\n  hill: {name: High Hill}\n")],
     E("E305", "board.yaml", "hill: {name: High Hill}", message="duplicate key 'hill'"))
case("duplicate_region_across_files", "a second board file declares an existing region",
     [W("board2.yaml", "# A second board part.\nkind: board\n\nregions:\n  mere: {name: Mere}\n  ford: {name: Ford}\n"),
      R("game.yaml", "include: [board.yaml, cards.yaml, tokens.yaml]",
        "include: [board.yaml, board2.yaml, cards.yaml, tokens.yaml]")],
     E("E305", "board2.yaml", "ford", message="duplicate region id 'ford'"))

# ------------------------------------------------------------------ bad references in data (E306)
case("connection_unknown_region", "a connection names a region that does not exist",
     [R("board.yaml", "- [ford, vale]", "- [ford, vail]")],
     E("E306", "board.yaml", "vail", message="unknown region 'vail'", hint="did you mean 'vale'?"))
case("item_at_unknown_zone", "a card starts in an undeclared zone",
     [R("cards.yaml", "    cost: 1\n", "    cost: 1\n    at: discard\n")],
     E("E306", "cards.yaml", "discard", message="unknown zone 'discard'"))
case("enum_value_not_in_enum", "a card colour not in the colors enum",
     [R("cards.yaml", "    color: blue\n", "    color: green\n")],
     E("E306", "cards.yaml", "green", message="'green' is not a colors value"))
case("covered_by_unknown_slot", "a tableau slot covered by a slot that does not exist",
     [R("board.yaml", "covered_by: [B1, B2]", "covered_by: [B1, B3]")],
     E("E306", "board.yaml", "B3", message="unknown slot 'B3'"))
case("unknown_item_type", "a cards file of an undeclared item type",
     [R("tokens.yaml", "type: token", "type: tokn")],
     E("E306", "tokens.yaml", "tokn", message="unknown item type 'tokn'", hint="did you mean 'token'?"))
case("unknown_tableau", "a zone naming a tableau the board does not have",
     [R("game.yaml", "row: {tableau: market}", "row: {tableau: markt}")],
     E("E306", "game.yaml", "markt", message="unknown tableau 'markt'", hint="did you mean 'market'?"))
case("supply_of_unknown_owner", "a piece kind gives a supply to an owner outside its owners",
     [R("game.yaml", "unit: {per_player: 3}", "unit: {owners: players, supply: {north: 3, nort: 2}}")],
     E("E306", "game.yaml", "2}}", message="'nort' is not an owner of unit", hint="did you mean 'north'?"))
case("display_name_of_unknown_value", "display: names: gives a printed name to something that is no player or enum value",
     [R("game.yaml", "agent:\n", "display:\n  names: {nortth: The North}\nagent:\n")],
     E("E306", "game.yaml", "The North}", message="'nortth' is not a player, an enum value, a piece kind, a place, a zone family or a game function",
       hint="did you mean 'north'?"))
case("key_not_in_zone_family", "a per-player zone family indexed with a colour (area[red])",
     [R("game.yaml", "move(card, area[me])", "move(card, area[red])")],
     E("E306", "game.yaml", "red]", message="'red' is not a key of 'area'"))
case("mod_without_grant", "mod() names a modifier no item grants",
     [R("game.yaml", "mod(p, 'extra')", "mod(p, 'extar')")],
     E("E306", "game.yaml", "'extar'", message="no item grants a modifier named 'extar'",
       hint="did you mean 'extra'?"))

# ------------------------------------------------------------------ argument counts (E401)
case("primitive_arg_count", "shuffle() given two arguments",
     [R("game.yaml", "    shuffle(deck)\n", "    shuffle(deck, 2)\n")],
     E("E401", "game.yaml", "shuffle(deck, 2)", message="'shuffle' takes 1 argument(s), got 2"))
case("function_arg_count", "a game function called with too many arguments",
     [R("game.yaml", "strength(p): units(p) + mod", "strength(p): units(p, 1) + mod")],
     E("E401", "game.yaml", "units(p, 1)", message="'units' takes 1 argument(s), got 2"))
case("procedure_arg_count", "a card effect calls a procedure with too few arguments",
     [R("cards.yaml", "muster(2, hill)", "muster(2)")],
     E("E401", "cards.yaml", "muster(2)", message="'muster' takes 2 argument(s), got 1"))
case("emit_unknown_argument", "emit passes an argument the event does not declare",
     [R("game.yaml", "emit played(card=card, by=me)", "emit played(card=card, who=me)")],
     E("E401", "game.yaml", "emit played", col=False, message="has no argument 'who'"))

# ------------------------------------------------------------------ argument types (E402)
case("wrong_arg_type_region", "a number where a region is expected",
     [R("game.yaml", "for r in regions()]", "for r in adjacent(2)]")],
     E("E402", "game.yaml", "2)]", message="argument 'r' of 'adjacent' must be region, got int"))
case("wrong_arg_type_zone", "a player where a zone is expected",
     [R("game.yaml", "    shuffle(deck)\n", "    shuffle(north)\n")],
     E("E402", "game.yaml", "north)", message="argument 'z' of 'shuffle' must be zone, got player"))

# ------------------------------------------------------------------ recursion, statement/value (E403, E404)
case("recursive_function", "a function that calls itself",
     [R("game.yaml", "strength(p): units(p) + mod(p, 'extra')", "strength(p): strength(p) + mod(p, 'extra')")],
     E("E403", "game.yaml", "strength(p) +", message="function 'strength' calls itself"))
case("statement_as_value", "a procedure used inside an expression",
     [R("game.yaml", "if: score[me] >= card.cost", "if: score[me] >= gain(1)")],
     E("E404", "game.yaml", "gain(1)", message="'gain' is a statement and gives no value"))
case("function_as_statement", "a function called on a line of its own",
     [R("cards.yaml", "effect: gain(1)", "effect: units(me)")],
     E("E404", "cards.yaml", "units(me)", message="'units' is a function: its value is unused"))

# ------------------------------------------------------------------ checker coverage probes
case("unused_function_unknown_name", "an unknown name inside a function that nothing calls",
     [R("game.yaml", "  strength(p): units(p) + mod(p, 'extra')\n",
        "  strength(p): units(p) + mod(p, 'extra')\n  reach(p): count(adjacent(hil))\n")],
     E("E301", "game.yaml", "hil))", message="unknown name 'hil'"))

case("item_region_prop_list", "a region-typed item property given a list of regions",
     [R("game.yaml", "      power: int\n", "      power: int\n      home: region?\n"),
      R("tokens.yaml", "    at: allies.north\n", "    at: allies.north\n    home: [hill, ford]\n")],
     E("E402", "tokens.yaml", "[hill, ford]", message="home"))
case("duplicate_player", "the same player listed twice",
     [R("game.yaml", "players: [north, south]", "players: [north, north]")],
     E("E305", "game.yaml", "north]", message="north"))
# ------------------------------------------------------------------ two defects, two files
case("two_defects_two_files", "an unknown region in cards.yaml and an unknown move in game.yaml",
     [R("cards.yaml", "muster(2, hill)", "muster(2, hil)"),
      R("game.yaml", "ask take, pass by current", "ask take, pas by current")],
     E("E301", "cards.yaml", "hil)", message="unknown name 'hil'"),
     E("E304", "game.yaml", "pas by", message="unknown move 'pas'"))
case("two_defects_schema_and_dsl", "a per-player variable without init (schema) plus an unknown region in a card",
     [R("game.yaml", "score: {per: players, init: 0}", "score: {per: players}"),
      R("cards.yaml", "muster(2, hill)", "muster(2, hil)")],
     E("E101", "game.yaml", "score: {per: players}", off=7, message="vars/score"),
     E("E301", "cards.yaml", "hil)", message="unknown name 'hil'"))
MOD = "kind: mod\nname: {name}\nversion: '1.0'\ngame: {game}\n"
case("mod_for_another_game", "a mod made for a different game",
     [W("mods/other/mod.yaml", MOD.format(name="other", game="duel"))],
     E("E004", "mods/other/mod.yaml", "game: duel", off=6, message="is for game 'duel', not 'mini'"),
     mods=["mods/other"])
case("mod_replaces_missing_entry", "a mod replacing a procedure the game does not have",
     [W("mods/fix/mod.yaml", MOD.format(name="fix", game="mini")
        + "replace:\n  procedures:\n    gian(n): score[me] += 2 * n\n")],
     E("E005", "mods/fix/mod.yaml", "gian(n)", message="cannot replace procedures entry 'gian'",
       hint="did you mean 'gain'?"),
     mods=["mods/fix"])
case("mod_requires_missing_mod", "a mod requiring another that is not loaded before it",
     [W("mods/late/mod.yaml", MOD.format(name="late", game="mini") + "requires: [{name: base_fix}]\n")],
     E("E004", "mods/late/mod.yaml", "{name: base_fix}", message="requires mod 'base_fix'"),
     mods=["mods/late"])
case("mod_dsl_error_points_into_the_mod", "an unknown name inside a procedure a mod adds",
     [W("mods/more/mod.yaml", MOD.format(name="more", game="mini")
        + "add:\n  procedures:\n    bonus: score[me] += scroe[me]\n")],
     E("E301", "mods/more/mod.yaml", "scroe", message="unknown name 'scroe'"),
     mods=["mods/more"])


def locate(text, needle, occ, off):
    i = -1
    for _ in range(occ):
        i = text.index(needle, i + 1)
    i += off
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (about, edits, expects, xfail, mods) in CASES.items():
        d = OUT / name
        if d.exists():
            shutil.rmtree(d)
        shutil.copytree(BASE, d)
        for ed in edits:
            if ed[0] == "replace":
                _, f, old, new = ed
                t = (d / f).read_text()
                assert t.count(old) == 1, (name, f, old, t.count(old))
                (d / f).write_text(t.replace(old, new))
            elif ed[0] == "write":
                (d / ed[1]).parent.mkdir(parents=True, exist_ok=True)
                (d / ed[1]).write_text(ed[2])
            else:
                (d / ed[1]).unlink()
        errs = []
        for e in expects:
            if "needle" in e:
                text = (d / e["file"]).read_text()
                line, col = locate(text, e["needle"], e["occ"], e["off"])
                out = {"code": e["code"], "file": e["file"], "line": line}
                if e["col"]:
                    out["col"] = col
            else:
                out = {k: e[k] for k in ("code", "file", "line")}
            for k in ("message", "hint"):
                if e.get(k):
                    out[k] = e[k]
            errs.append(out)
        doc = {"about": about}
        if len(errs) == 1:
            doc.update(errs[0])
        else:
            doc["errors"] = errs
        if xfail:
            doc["xfail"] = xfail
        if mods:
            doc["mods"] = mods  # loaded with these mods (folders under the case)
        (d / "expect.yaml").write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120))
    print(len(CASES), "cases")


# ------------------------------------------------------------------ regressions from the engine review
case("function_param_injection", "a function signature smuggling Python into generated code",
     [R("game.yaml", "  units(p): sum(", "  'units(p=\"\"\")': sum(")],
     E("E201", "game.yaml", "'units(p=", message="bad function signature"))
case("include_outside_game", "an include reaching outside the game folder",
     [R("game.yaml", "include: [board.yaml, cards.yaml, tokens.yaml]",
        "include: [board.yaml, cards.yaml, tokens.yaml, ../../../games/duel/board.yaml]")],
     E("E002", "game.yaml", "../../../games", message="not a file inside the game folder", col=False))
case("yaml_alias_bomb", "nested aliases that expand to billions of values",
     [W("tokens.yaml", "kind: cards\ntype: token\nitems: []\nx0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(f"x{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}]\n"
                  for i in range(1, 9)))],
     dict(code="E001", file="tokens.yaml", line=1, message="expands to more than"))
case("move_label_brace", "a move label with a stray closing brace",
     [R("game.yaml", 'label: "take {card}"', 'label: "take {card} }"')],
     E("E201", "game.yaml", '"take {card} }"', message="bad label template"))
case("owner_zone_without_owner", "an owner-only zone that belongs to nobody",
     [R("game.yaml", "  deck: {visibility: hidden, face: down}", "  deck: {visibility: owner, face: down}")],
     E("E306", "game.yaml", "owner, face", message="visible to its owner but has none"))
case("duplicate_action_ids", "two moves that produce the same action ids",
     [R("game.yaml", "  pass:\n    do: gain(1)", "  pass:\n    id: \"take:{card}\"\n    args: {card: available(row)}\n    do: gain(1)")],
     E("E305", "game.yaml", '"take:{card}"\n    args: {card: available(row)}\n    do: gain(1)', message="same action id"))
case("defaults_bad_zone", "a starting zone given once under defaults: is reported there, once",
     [R("cards.yaml", "defaults: {at: deck, cost: 0}", "defaults: {at: dekc, cost: 0}")],
     E("E306", "cards.yaml", "dekc", message="unknown zone 'dekc'"))
case("dsl_position_multiline_plain", "an unknown name on the 2nd line of a plain scalar spread over two lines",
     [R("game.yaml", "    if: score[me] >= card.cost", "    if: score[me] >= card.cost\n      and score[me] > scroe[me]")],
     E("E301", "game.yaml", "scroe", message="unknown name 'scroe'"))
case("dsl_position_single_quoted", "an unknown name after doubled quotes in a single-quoted scalar",
     [R("game.yaml", "  units(p): sum([pieces(unit, p, r) for r in regions()])",
        "  units(p): 'sum([pieces(unit, p, r) for r in regions()]) + count(''ab'') + boom'")],
     E("E301", "game.yaml", "boom", message="unknown name 'boom'"))
case("dsl_position_indent_indicator", "an unknown name in a block scalar with an indentation indicator",
     [R("game.yaml", "  gain(n): score[me] += n", "  gain(n): |2\n      score[me] += n\n        + bogus")],
     E("E301", "game.yaml", "bogus", message="unknown name 'bogus'"))
case("dsl_position_folded", "an unknown procedure on the 2nd line of a folded block",
     [R("game.yaml", "  end_turn: current = opp", "  end_turn: >\n    current = opp\n\n    bad_name()")],
     E("E302", "game.yaml", "bad_name", message="unknown statement or procedure 'bad_name'"))
case("chance_in_move_condition", "a move whose legality depends on a die roll",
     [R("game.yaml", "    if: score[me] >= card.cost", "    if: roll(6) > 3")],
     E("E402", "game.yaml", "take:\n", message="draws on chance", col=False))

case("item_owner_not_a_player_prop", "an item type's owner names a property that is not a player",
     [R("game.yaml", "  token:\n    props:\n      power: int", "  token:\n    owner: power\n    props:\n      power: int")],
     E("E306", "game.yaml", "power\n    props", message="must be one of its player properties"))
case("private_text_unknown_argument", "a move's public log text names an argument it does not have",
     [R("game.yaml", "    label: \"take {card}\"", "    label: \"take {card}\"\n    private: \"takes {crad}\"")],
     E("E301", "game.yaml", "\"takes {crad}\"", message="names no argument"))
case("zones_per_unknown_key_set", "a zone family keyed by a set that does not exist",
     [R("game.yaml", "  area: {per: players}", "  area: {per: regoins}")],
     E("E306", "game.yaml", "regoins", message="unknown key set 'regoins'", hint="did you mean 'regions'?"))
case("item_condition_unknown_name", "an item's if: condition uses an unknown name",
     [R("cards.yaml", "    name: Riders\n", "    name: Riders\n    if: scroe[me] > 0\n")],
     E("E301", "cards.yaml", "scroe", message="unknown name 'scroe'"))
case("connection_kind_unknown", "a kind of connection the board never declares",
     [R("game.yaml", "  opp: other(me)", "  opp: other(me)\n  ahead(r): adjacent(r, 'road')")],
     E("E306", "game.yaml", "'road'", message="no connection of the board has kind 'road'"))
case("reveal_a_region", "reveal given a region instead of an item",
     [R("game.yaml", "  end_turn: current = opp", "  end_turn: |\n    reveal(hill)\n    current = opp")],
     E("E402", "game.yaml", "reveal(hill)", off=7, message="argument 'x' of 'reveal' must be item or list, got region"))
case("warn_unused_function", "a function no rule calls (a warning: the game still loads)",
     [R("game.yaml", "  opp: other(me)", "  opp: other(me)\n  spare(p): p")],
     E("W201", "game.yaml", "spare(p)", message="function 'spare' is never used"))
case("warn_unused_procedure", "a procedure nothing calls",
     [R("game.yaml", "  gain(n): score[me] += n", "  gain(n): score[me] += n\n  idle: log('idle')")],
     E("W202", "game.yaml", "idle:", message="procedure 'idle' is never called"))
case("warn_choice_without_log_line", "display: choices: words one branch of a one_of, not the other",
     [R("game.yaml", "  pass:\n    do: gain(1)", "  pass:\n    do: |\n      one_of how {\n        fast { gain(1) }\n"
        "        slow { gain(2) }\n      }"),
      R("game.yaml", "agent:\n", "display:\n  choices:\n    how: {fast: '{} hurries'}\nagent:\n")],
     E("W303", "game.yaml", "how: {fast", message="display: choices: how words no log line for its branch slow"))
case("warn_region_without_connection", "a region the board never connects",
     [R("board.yaml", "regions:\n", "regions:\n  island: {}\n")],
     E("W101", "board.yaml", "island", message="region 'island' has no connection"))
case("warn_item_nowhere", "an item with no starting zone that no rule names",
     [R("cards.yaml", "defaults: {at: deck, cost: 0}", "defaults: {cost: 0}")],
     E("W301", "cards.yaml", "scout", message="item 'scout' starts in no zone"))
case("seats_unknown_player", "seats naming a player the game does not have",
     [R("game.yaml", "players: [north, south]", "players: [north, south]\nseats: {2: [north, west]}")],
     E("E306", "game.yaml", "[north, west]", message="unknown player 'west'"))
case("seats_wrong_count", "three seats listing two players",
     [R("game.yaml", "players: [north, south]", "players: [north, south]\nseats: {3: [north, south]}")],
     E("E402", "game.yaml", "[north, south]}", message="must list 3 different players"))
case("yaml_duplicate_key", "the same variable declared twice in one mapping",
     [R("game.yaml", "  current: north\n", "  current: north\n  current: south\n")],
     E("E305", "game.yaml", "current: south", message="duplicate key 'current'"))
case("dsl_triple_equals", "an operator the language does not have",
     [R("game.yaml", "    if: score[me] >= card.cost", "    if: score[me] === card.cost")],
     E("E201", "game.yaml", "= card.cost", message="syntax error"))
case("dsl_unclosed_block", "a block never closed in the flow",
     [R("game.yaml", "    end_turn(me=current)\n  }", "    end_turn(me=current)\n")],
     E("E201", "game.yaml", "end_turn(me=current)\n\n", off=len("end_turn(me=current)"),
       message="unexpected 'end of text'"))
case("arithmetic_on_player", "adding a number to a player",
     [R("game.yaml", "  end_turn: current = opp", "  end_turn: current = opp + 1")],
     E("E402", "game.yaml", "opp + 1", message="'+' needs numbers"))
case("family_without_key", "a per-player variable assigned without its key",
     [R("game.yaml", "  gain(n): score[me] += n", "  gain(n): score += n")],
     E("E402", "game.yaml", "score += n", message="'score' is a family and needs a key", hint="score[me]"))
case("choose_by_number", "a choice given to a number instead of a player",
     [R("game.yaml", "  muster(n, r): place(unit, me, n, r)",
        "  muster(n, r): |\n    choose x in regions() by 3 label spot\n    place(unit, me, n, r)")],
     E("E402", "game.yaml", "3 label spot", message="'by' needs a player"))
case("unknown_piece_kind", "placing a kind of piece the game does not have",
     [R("game.yaml", "  muster(n, r): place(unit, me, n, r)", "  muster(n, r): place(soldier, me, n, r)")],
     E("E301", "game.yaml", "soldier", message="unknown name 'soldier'"))
case("item_prop_unknown_type", "a property typed with an enum that does not exist",
     [R("game.yaml", "      color: colors\n      cost: int", "      color: colours\n      cost: int")],
     E("E306", "game.yaml", "colours", message="unknown property type 'colours'"))
case("move_id_leaves_out_argument", "a move id that does not name its argument",
     [R("game.yaml", '    id: "take:{card}"', '    id: "take"')],
     E("E402", "game.yaml", '"take"', message="leaves out an argument"))
case("trigger_without_when", "a trigger missing its condition",
     [R("game.yaml", "listeners:", "triggers:\n  - id: never\n    do: gain(1)\nlisteners:")],
     E("E101", "game.yaml", "- id: never", off=2, message="'when' is a required property"))
case("slot_face_bad_value", "a tableau slot facing a way that does not exist",
     [R("board.yaml", "      B1: {face: up, covered_by: []}", "      B1: {face: sideways, covered_by: []}")],
     E("E101", "board.yaml", "sideways", message="'sideways' is not one of"))
case("pieces_negative", "a negative number of pieces per player",
     [R("game.yaml", "  unit: {per_player: 3}", "  unit: {per_player: -3}")],
     E("E101", "game.yaml", "-3", message="less than the minimum"))
case("player_named_like_region", "a player with the name of a region",
     [R("game.yaml", "players: [north, south]", "players: [north, hill]")],
     E("E305", "board.yaml", "hill:", message="name 'hill' is already used", line_only=True))
case("let_from_statement", "a local given the result of a procedure",
     [R("game.yaml", "  end_turn: current = opp", "  end_turn: |\n    let x = gain(1)\n    current = opp")],
     E("E404", "game.yaml", "gain(1)\n    current", message="statement"))
case("zone_bad_visibility", "a zone visible in a way that does not exist",
     [R("game.yaml", "  deck: {visibility: hidden, face: down}", "  deck: {visibility: secret, face: down}")],
     E("E101", "game.yaml", "secret", message="'secret' is not one of"))
case("unknown_connection_kind_in_reach", "reach along a kind of connection the board lacks",
     [R("game.yaml", "  opp: other(me)", "  opp: other(me)\n  far(r): reach(r, 'river', regions())")],
     E("E306", "game.yaml", "'river'", message="no connection of the board has kind 'river'"))
case("procedure_arg_text_for_number", "a procedure given text where its body counts a number",
     [R("game.yaml", "  pass:\n    do: gain(1)", "  pass:\n    do: gain('three')")],
     E("E402", "game.yaml", "'three'", message="argument 'n' of 'gain' must be int, got str"))
case("procedure_arg_passed_on", "text passed to a procedure that passes it on to one counting it",
     [R("game.yaml", "  end_turn: current = opp", "  end_turn: current = opp\n  reward(k): gain(k)"),
      R("game.yaml", "  pass:\n    do: gain(1)", "  pass:\n    do: reward('two')")],
     E("E402", "game.yaml", "'two'", message="argument 'k' of 'reward' must be int, got str"))
case("warn_abilities_never_apply", "items with grants and abilities in a game where no zone is active",
     [R("game.yaml", "  allies: {per: players, active: true}", "  allies: {per: players}")],
     E("W302", "tokens.yaml", "grants:", message="no zone is active"),
     E("W302", "tokens.yaml", "abilities:", message="no zone is active"))


main()
