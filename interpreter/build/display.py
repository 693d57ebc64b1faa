"""The display: section of a game: what the table shows (players' fields, meters, region
columns, zones, item lines; the names things print as; the questions decisions ask) and how the
log reads the engine's own lines (a public choice, a kind of victory). Its expressions are
checked like any rule's and written into the game's module with them (code.py)."""
from __future__ import annotations

from dataclasses import replace

from ..dsl import ir
from ..dsl.ir import ANY
from ..errors import did_you_mean
from .declare import section


class Displayer:
    """The display step of the Builder (build/__init__.py)."""

    def _display(self, g, gs):
        r = self.r
        disp = section(g, "display")
        me = {"me": ("local", "me", "player")}
        for label, text in section(disp, "players").items():
            r.hud["players"][label] = self.later(self.c.expr_text(
                text, self.src(gs, ("display", "players", label), "display"), dict(me)), f"display of {label}")
        known = (set(r.players) | {v for vals in r.enums.values() for v in vals} | set(r.kinds)
                 | set(r.zone_families) | set(r.locations) | set(self.c.functions))
        for i, (k, v) in enumerate(section(disp, "names").items()):
            if k not in known:
                self.err(gs, ("display", "names", k), "E306",
                         f"'{k}' is not a player, an enum value, a piece kind, a place, a zone family "
                         "or a game function",
                         did_you_mean(k, known) or "names: gives these their printed names")
            r.names[k] = str(v)
        for k, v in section(disp, "plurals").items():  # the word for more than one (Rules.counted)
            if k not in known | set(r.item_types):
                self.err(gs, ("display", "plurals", k), "E306", f"'{k}' is not a piece kind, an item type "
                         "or another name the table prints", did_you_mean(k, known | set(r.item_types))
                         or "plurals: gives the word for more than one of these", key=True)
            r.plurals[k] = str(v)
        for name, m in section(disp, "meters").items():
            if not isinstance(m, dict) or "value" not in m:
                continue  # the schema already reported it
            at = ("display", "meters", name)
            scope = dict(me)
            value = self.later(self.c.expr_text(m["value"], self.src(gs, at + ("value",), f"meter {name}"),
                                                dict(scope)), f"meter {name}")
            top = (self.later(self.c.expr_text(m["max"], self.src(gs, at + ("max",), f"meter {name}"), dict(scope)),
                              f"meter {name} max") if "max" in m else None)
            marks = m.get("marks") if isinstance(m.get("marks"), dict) else {}  # (else: reported by the schema)
            marks = {int(k): str(v) for k, v in marks.items() if str(k).lstrip("-").isdigit()}
            r.hud["meters"][name] = {"value": value, "max": top, "per": m.get("per"), "marks": marks,
                                     "doc": m.get("doc", "")}
        for k, text in section(disp, "prompts").items():
            r.hud["prompts"][str(k)] = self._prompt(gs, str(k), str(text))
        if "region_line" in disp:
            r.hud["region_line"] = self.later(self.c.expr_text(
                disp["region_line"], self.src(gs, ("display", "region_line"), "display of a region"),
                {"me": ("local", "me", "player"), "r": ("local", "r", "region")}), "display of a region")
        for t, text in section(disp, "items").items():
            if t not in r.item_types:
                self.err(gs, ("display", "items", t), "E306", f"unknown item type '{t}'",
                         did_you_mean(t, r.item_types), key=True)
                continue
            r.hud["items"][t] = self.later(self.c.expr_text(
                text, self.src(gs, ("display", "items", t), f"display of {t}"),
                {"me": ("local", "me", "player"), "this": ("local", "this", "item")}), f"display of {t}")
        for label, text in section(disp, "regions").items():
            r.hud["regions"][label] = self.later(self.c.expr_text(
                text, self.src(gs, ("display", "regions", label), "display"),
                {"me": ("local", "me", "player"), "r": ("local", "r", "region")}), f"display of {label}")
        zones, player_zones = disp.get("zones"), disp.get("player_zones")  # (not lists: reported by the schema)
        for i, text in enumerate(zones if isinstance(zones, list) else []):
            e = self.c.expr_text(text, self.src(gs, ("display", "zones", i), "display"), dict(me))
            r.hud["zones"].append((str(text).strip(), self.later(e, "display of a zone")))
        for i, fam in enumerate(player_zones if isinstance(player_zones, list) else []):
            if not isinstance(fam, str):
                continue  # (reported by the schema)
            if fam not in r.zone_families:
                self.err(gs, ("display", "player_zones", i), "E306", f"unknown zone family '{fam}'",
                         did_you_mean(fam, r.zone_families))
            else:
                r.hud["player_zones"].append(fam)

    def _prompt(self, gs, key, text):
        """A prompt: its text, or with {expression}s in it the list of its parts, each text or
        an expression over the locals that every decision asked under `key` has in scope
        ({{ and }} are braces)."""
        parts, at, lit = [], 0, ""
        path = ("display", "prompts", key)
        while at < len(text):
            ch = text[at]
            if ch in "{}" and text[at:at + 2] == ch * 2:
                lit, at = lit + ch, at + 2
            elif ch == "}":
                self.err(gs, path, "E306", f"prompt '{key}' has a }} without its {{", "write }} for a brace")
                return text
            elif ch == "{":
                end = text.find("}", at)
                if end < 0:
                    self.err(gs, path, "E306", f"prompt '{key}' has a {{ without its }}", "write {{ for a brace")
                    return text
                parts += [lit, self._prompt_value(gs, key, text, at + 1, end)]
                lit, at = "", end + 1
            else:
                lit, at = lit + ch, at + 1
        return [x for x in parts + [lit] if x != ""] if parts else lit

    def _prompt_value(self, gs, key, text, start, end):
        places = self.c.decisions.get(key)
        src = self.src(gs, ("display", "prompts", key), f"prompt {key}")
        if not places:
            self.err(gs, src.path, "E306", f"no decision is labelled '{key}' (nor asks the move '{key}' alone)",
                     did_you_mean(key, self.c.decisions) or "a prompt with {...} needs the locals of its decision",
                     key=True)
            return ""
        scope = {}
        for name, typ in places[0].items():  # the locals of every place the decision is asked
            if all(name in p for p in places):
                scope[name] = ("local", name, typ if all(p[name] == typ for p in places) else ANY)
        # (the text before it made blank, so that a problem is reported at its column)
        expr = "".join(c if c == "\n" else " " for c in text[:start]) + text[start:end]
        diags = self.spec.diags
        before = len(diags)
        e = self.c.expr_text(expr, src, scope)
        some = {n for p in places for n in p} - set(scope)
        for i in range(before, len(diags)):  # a local that only some of its places have: say so
            name = diags[i].message.partition("unknown name '")[2].rstrip("'")
            if diags[i].code == "E301" and name in some:
                diags[i] = replace(diags[i], hint=f"'{name}' is a local where some '{key}' decisions are asked, "
                                                  f"not all ({len(places)} places)")
        return self.later(e, f"prompt {key}")

    def _log_texts(self, g, gs):
        """display: choices: and victories: how the log reads a public choice (a one_of's branch)
        and a kind of victory. Each names a one_of label and branch, or a victory, of these rules
        (every effect is checked by now)."""
        disp = section(g, "display")
        r = self.r
        branches, victories, any_victory = {}, set(), False
        for b in self.c.blocks:
            for s in b.stmts:
                if isinstance(s, ir.Branches) and s.kind == "one_of":
                    branches.setdefault(s.label, set()).update(n for n, _, _ in s.branches)
                elif isinstance(s, ir.Do) and s.name == "end_game" and len(s.args) > 1:
                    v = s.args[1]
                    if isinstance(v, ir.Const) and isinstance(v.value, str):
                        victories.add(v.value)
                    else:  # a victory worked out while playing: any name may be one
                        any_victory = True
        for label, texts in section(disp, "choices").items():
            at = ("display", "choices", label)
            if label not in branches:
                self.err(gs, at, "E306", f"no one_of is labelled '{label}'",
                         did_you_mean(label, branches) or "choices: are the branches of a one_of, by its label",
                         key=True)
                continue
            for branch, text in (texts if isinstance(texts, dict) else {}).items():  # (else: reported by the schema)
                if branch not in branches[label]:
                    self.err(gs, at + (branch,), "E306", f"one_of {label} has no branch '{branch}'",
                             did_you_mean(branch, branches[label]) or f"its branches: {', '.join(sorted(branches[label]))}",
                             key=True)
                else:
                    r.choice_log[(label, branch)] = str(text)
            left = sorted(branches[label] - set(texts)) if isinstance(texts, dict) else []
            if left:  # (the log would read the raw "Red: carry_on: switch" for those)
                self.err(gs, at, "W303", f"display: choices: {label} words no log line for its branch"
                         f"{'es' if len(left) > 1 else ''} {', '.join(left)}",
                         f"give each a line ({left[0]}: \"{{}} ...\"), or \"\" to log nothing", key=True)
        for v, text in section(disp, "victories").items():
            if not any_victory and v not in victories:
                self.err(gs, ("display", "victories", v), "E306", f"no end_game names the victory '{v}'",
                         did_you_mean(v, victories) or "victories: are end_game's second arguments", key=True)
            else:
                r.victory_names[v] = str(text)

