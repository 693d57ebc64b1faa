"""Check the effect-language text of a game's rule files (procedures, moves, tracks, triggers,
listeners, items' effects, flow, display, agent) into the IR, then optimise it, write it as one
Python module (dsl/codegen.py) and link that module into the Rules: every function, block and
enumerator the running game calls. The module is cached on disk, keyed by the rule files, the
grammar and the engine's own code, so an unchanged game is not written again."""
from __future__ import annotations

import string

from ..dsl.codegen import Module
from ..dsl.ir import ANY
from ..dsl.optimise import Optimiser, located, trivial
from ..errors import did_you_mean
from ..model.rules import MoveDef, Trigger
from . import checked
from .cache import module_filename, module_key, read_module, write_module
from .declare import _SIG, section
from .module import Later, assemble, link


class Coder:
    """The code steps of the Builder (build/__init__.py)."""

    def later(self, e, what: str) -> Later:
        item = Later(e, what)
        self._later.append(item)
        return item

    def _functions_check(self):
        """Check every function once, so a function nobody calls is still checked."""
        for name, fn in self.c.functions.items():
            if fn.node is not None:
                self.c.function(None, name, fn.src)

    def _procedures_compile(self):
        g = self.spec.game.value
        r = self.r
        for key, body in section(g, "procedures").items():
            name, params = self._sig(key, None, (), "procedure") if _SIG.match(str(key)) else (None, [])
            if name is None or name not in self.d.procedures:
                continue
            _, ref, src = self.d.procedures[name]
            scope = {"me": ("local", "me", "player")}
            for i, p in enumerate(params):
                scope[p] = self.c.param(name, i, ("local", p, ANY))
            ref[0] = self.c.block_text(body, src, scope).id

    def _moves_compile(self, g, gs):
        r = self.r
        ids = {}
        for name, d in section(g, "moves").items():
            if not isinstance(d, dict) or "do" not in d or not isinstance(d.get("args") or {}, dict):
                continue  # the schema already reported it
            path = ("moves", name)
            scope = {"me": ("local", "me", "player")}
            params = []
            reads = set()  # legal actions are listed without changing anything: no chance here
            self.c.reads.append(reads)
            for a, dom in (d.get("args") or {}).items():
                e = self.c.expr_text(dom, self.src(gs, path + ("args", a), f"move {name} argument {a}"), scope)
                params.append((a, self.later(self.c.to_list(e), f"move {name} argument {a}")))
                scope[a] = ("local", a, ANY)
            cond = None
            if "if" in d:
                cond = self.later(self.c.expr_text(d["if"], self.src(gs, path + ("if",), f"move {name} condition"),
                                                   scope), f"move {name} condition")
            self.c.reads.pop()
            if "!" in reads:
                self.err(gs, path, "E402", f"move '{name}' draws on chance in its arguments or condition",
                         "listing legal actions must not roll dice; roll in the move's do:", key=True)
            block = self.c.block_text(d["do"], self.src(gs, path + ("do",), f"move {name}"), scope).id
            id_fmt = (d.get("id") if isinstance(d.get("id"), str) else None) \
                or ":".join([name] + ["{%s}" % p for p, _ in params])  # (not a text: reported by the schema)
            label = d["label"] if isinstance(d.get("label"), str) else id_fmt
            ok = True
            private = d.get("private", False)
            templates = [("id", id_fmt), ("label", label)] + ([("private", private)] if isinstance(private, str) else [])
            for key, text in templates:
                try:
                    fields = [f for _, f, spec, conv in string.Formatter().parse(text) if f is not None]
                    bad = [f for _, f, spec, conv in string.Formatter().parse(text) if f is not None and (spec or conv)]
                except ValueError as exc:
                    self.err(gs, path + (key,), "E201", f"bad {key} template of move '{name}': {exc}",
                             "write {argument} for an argument's value, {{ and }} for braces")
                    ok = False
                    continue
                for ph in fields:
                    if ph not in dict(params) or ph in bad:
                        self.err(gs, path + (key,), "E301", f"'{{{ph}}}' names no argument of move '{name}'",
                                 did_you_mean(ph, dict(params)) or "placeholders are {argument} only")
                        ok = False
            if ok and set(p for p, _ in params) - set(
                    f for _, f, _, _ in string.Formatter().parse(id_fmt) if f is not None):
                self.err(gs, path + ("id",), "E402", f"the id of move '{name}' leaves out an argument",
                         "two actions would share one id: name every argument in the id")
            if id_fmt in ids:
                self.err(gs, path + ("id",) if "id" in d else path, "E305",
                         f"moves '{ids[id_fmt]}' and '{name}' have the same action id template '{id_fmt}'",
                         key="id" not in d)
            ids[id_fmt] = name
            if isinstance(private, str) and not ok:
                private = True  # a broken public text (reported above): others see the move's name
            r.moves[name] = MoveDef(name, params, cond, block, id_fmt if ok else name,
                                    label if ok else name, private if isinstance(private, str) else bool(private),
                                    src=self.src(gs, path + (("if",) if "if" in d else ("do",)), f"move {name}"))

    def _track_spaces(self, g, gs):
        for name, d in section(g, "tracks").items():
            t = self.r.tracks.get(name)
            spaces = d.get("spaces") if isinstance(d, dict) and isinstance(d.get("spaces"), dict) else {}
            for pos, body in spaces.items():  # (not a mapping: reported by the schema)
                if t is None or not str(pos).isdigit():  # the schema already reported it
                    continue
                src = self.src(gs, ("tracks", name, "spaces", pos), f"track {name} space {pos}")
                if not (0 < int(pos) <= t.length):
                    self.err(gs, ("tracks", name, "spaces", pos), "E306", f"space {pos} is off the track (1..{t.length})",
                             key=True)
                t.spaces[int(pos)] = self.c.block_text(body, src, {"me": ("local", "me", "player")}).id

    def _triggers(self, g, gs):
        r = self.r
        ids = {}
        for i, d in enumerate(g["triggers"] if isinstance(g.get("triggers"), list) else []):
            if not isinstance(d, dict) or not all(k in d for k in ("id", "when", "do")) \
                    or not isinstance(d["id"], str) or not isinstance(d.get("for") or {}, dict):
                continue  # the schema already reported it
            path = ("triggers", i)
            if d["id"] in ids:  # its once-keys, and a mod naming it, would mix the two up
                self.err(gs, path + ("id",), "E305", f"two triggers are named '{d['id']}'",
                         f"the first is trigger number {ids[d['id']] + 1}; give each its own id")
            ids.setdefault(d["id"], i)
            scope = {"me": ("local", "me", "player")}
            params = []
            reads = set()  # what the domains and the condition read: the trigger's channels
            self.c.reads.append(reads)
            for a, dom in (d.get("for") or {}).items():
                e = self.c.expr_text(dom, self.src(gs, path + ("for", a), f"trigger {d['id']}"), scope)
                params.append((a, self.later(self.c.to_list(e), f"trigger {d['id']} binding {a}")))
                scope[a] = ("local", a, ANY)
            static_domains = not reads
            cond = self.later(self.c.expr_text(d["when"], self.src(gs, path + ("when",), f"trigger {d['id']}"), scope),
                              f"trigger {d['id']} condition")
            self.c.reads.pop()
            if "!" in reads:
                self.err(gs, path + ("when",), "E402", f"trigger '{d['id']}' draws on chance in its condition",
                         "conditions must not roll dice or draw at random; do that in the effect")
            block = self.c.block_text(d["do"], self.src(gs, path + ("do",), f"trigger {d['id']}"), scope).id
            r.triggers.append(Trigger(d["id"], params, cond, block, d.get("once", True), 0,
                                      static_domains=static_domains,
                                      src=self.src(gs, path + ("when",), f"trigger {d['id']}")))
            self._trigger_reads.append(reads)  # its mask once every rule is checked (_generate)

    def _ability(self, d, src_entry_source, path, this):
        r = self.r
        ev = d.get("event") if isinstance(d, dict) else None
        if not isinstance(ev, str) or "do" not in d:  # the schema already reported it
            return
        if ev not in self.d.events:
            self.err(src_entry_source, path + ("event",), "E304", f"unknown event '{ev}'",
                     did_you_mean(ev, self.d.events) or "events are declared under events: in game.yaml")
            return
        scope = {"me": ("local", "me", "player")}
        if this:
            scope["this"] = ("local", "this", "item")
        for a, t in self.d.events[ev].items():
            scope[a] = ("local", a, t if t in ("int", "bool", "player", "region", "item", "zone") else ANY)
        cond = None
        if "if" in d:
            cond = self.later(self.c.expr_text(d["if"], self.src(src_entry_source, path + ("if",), f"listener on {ev}"),
                                               scope), f"listener on {ev} condition")
        block = self.c.block_text(d["do"], self.src(src_entry_source, path + ("do",), f"listener on {ev}"), scope).id
        r.listeners.setdefault(ev, []).append((this, cond, block))  # run by vm.dispatch

    def _listeners(self, g, gs):
        ids = set()
        for i, d in enumerate(g["listeners"] if isinstance(g.get("listeners"), list) else []):
            lid = d.get("id") if isinstance(d, dict) and isinstance(d.get("id"), str) else None  # (else: schema)
            if lid is not None and lid in ids:
                self.err(gs, ("listeners", i, "id"), "E305", f"two listeners are named '{lid}'",
                         "give each its own id (a mod names a listener by it)")
            ids.add(lid)
            self._ability(d, gs, ("listeners", i), None)

    def _item_code(self):
        r = self.r
        for iid, e in self.spec.items.items():
            if iid not in r.props:
                continue
            d = e.value
            scope = {"me": ("local", "me", "player"), "this": ("local", "this", "item")}
            # the item's effect and its condition (part ''), and its named parts (effects:)
            parts = [("", d.get("if"), d.get("effect"), e.at("if"), e.at("effect"))]
            for name, part in (d["effects"] if isinstance(d.get("effects"), dict) else {}).items():  # (else: schema)
                at = e.at("effects") + (name,)
                if isinstance(part, dict):
                    parts.append((name, part.get("if"), part.get("do"), at + ("if",), at + ("do",)))
                else:
                    parts.append((name, None, part, None, at))
            for name, cond, body, cond_at, body_at in parts:
                what = f"{name} of {iid}" if name else iid
                if body is not None:
                    r.item_text[iid] = (r.item_text.get(iid, "") + (f"\n{name}: " if name else "\n")
                                        + str(body).strip()).strip()
                    r.item_effects[(iid, name)] = self.c.block_text(
                        body, self.src(e.source, body_at, f"effect of {what}"), dict(scope)).id
                if cond is not None:  # when the part may be used: read by usable(item, player, part)
                    r.item_text[iid] = (r.item_text.get(iid, "") + f"\n{name + ' ' if name else ''}usable if: "
                                        + str(cond).strip()).strip()
                    self.c.reads.append(self.c.usable_reads)  # (what usable(...) reads: Checker.resolve)
                    try:
                        r.item_conds[(iid, name)] = self.later(self.c.expr_text(
                            cond, self.src(e.source, cond_at, f"condition of {what}"), dict(scope)),
                            f"condition of {what}")
                    finally:
                        self.c.reads.pop()
            for j, ab in enumerate(d["abilities"] if isinstance(d.get("abilities"), list) else []):  # (else: schema)
                self._ability(ab, e.source, e.path + ("abilities", j), iid)
                if isinstance(ab, dict):
                    cond = f" if {ab['if']}" if "if" in ab else ""
                    r.item_text[iid] = (r.item_text.get(iid, "") + f"\non {ab.get('event')}{cond}: "
                                        f"{str(ab.get('do', '')).strip()}").strip()

    def _flow_agent(self, g, gs):
        """flow:, turn:, team_decider: and agent: (display: is display.py's)."""
        r = self.r
        if "flow" in g:
            r.flow = self.c.block_text(g["flow"], self.src(gs, ("flow",), "flow"), {"me": ("local", "me", "player")}).id
        turn = g.get("turn")
        if isinstance(turn, str):
            if turn not in r.var_defs:
                self.err(gs, ("turn",), "E301", f"turn: names no variable '{turn}'",
                         did_you_mean(turn, r.var_defs) or "name the variable that holds whose turn it is")
            else:
                r.turn_var = turn
        td = g.get("team_decider")
        if td is not None and not r.teams:
            self.err(gs, ("team_decider",), "E306", "team_decider: but no teams:",
                     "declare teams: for the seatings where several seats form a side")
        elif td is not None:
            r.team_decider = self.later(self.c.expr_text(td, self.src(gs, ("team_decider",), "team decider"),
                                                         {"t": ("local", "t", "str")}), "team decider")
        agent = section(g, "agent")
        r.default_agents = agent.get("default")
        ev = agent.get("evaluate")
        if ev is not None:
            r.evaluate = self.later(self.c.expr_text(ev, self.src(gs, ("agent", "evaluate"), "agent evaluation"),
                                                     {"me": ("local", "me", "player")}), "agent evaluation")

    # ------------------------------------------------------------------ module
    def _where(self, src, line=1, col=1) -> str:
        return self.r.where_src(src, line, col) if src is not None else "?"

    def _generate(self):
        """Optimise the checked rules, write the module, run it and link what it defines (a
        module written before for the same rule files and engine is taken from the cache)."""
        c, r = self.c, self.r
        for t, reads in zip(r.triggers, self._trigger_reads):  # a condition reading nothing is checked after every step
            t.mask = r.mask_of(c.resolve(reads)) or -1
        for fn in c.functions.values():
            fn.reads = c.resolve(fn.reads)
        key = module_key(r.digest)
        hit = read_module(key)
        if hit is not None and len(hit["names"]) == len(self._later):
            for src in self.spec.sources:
                src.forget_positions()
            for item, name in zip(self._later, hit["names"]):
                item.name = name
            for name, m in r.moves.items():
                m.enum_name = hit["enums"][name]
            self._link(hit, key)
            return
        functions = c.functions
        listed = c.given_lists()
        for fn in functions.values():  # which functions are trivial: before any is rewritten
            # (nor is one memoised that is given a list: a list is no key, and making one of
            # it costs more than its value is likely to be found again)
            fn.memo = (not trivial(fn, functions) and fn.name not in listed) if fn.body is not None else False
        opt = Optimiser(functions)
        for fn in functions.values():
            if fn.body is not None:
                fn.body = opt.expr(fn.body)
        for b in c.blocks:
            opt.block(b)
        for item in self._later:
            item.expr = opt.expr(item.expr)
        mod = Module(r, self._where)
        for fn in functions.values():  # (a channel only read, e.g. an option, gets its bit here)
            if fn.body is not None:
                fn.mask = r.mask_of(fn.reads)
                located(fn, functions, r)  # (fn._at: read by the Module)
        for number, fn in enumerate(functions.values(), 1):
            if fn.body is not None:
                mod.game_function(fn, f"{self._where(fn.src)}: {fn.name}({', '.join(fn.params)})", number)
        for item in self._later:
            item.name = mod.function(item.expr, item.what)
        mod.read = 0  # (a write of a variable no function memoised nor any trigger reads marks nothing: vm.wrote)
        for mask in [*mod.memo_masks.values(), *(t.mask for t in r.triggers)]:
            mod.read |= mask
        chunks = [mod.chunk(b) for b in c.blocks]
        for m in r.moves.values():
            parts = []
            for lit, f, _, _ in string.Formatter().parse(m.id_fmt):
                parts.append(lit)
                if f is not None:
                    parts.append((next(i for i, (a, _) in enumerate(m.params) if a == f),))
            m.enum_name = mod.enumerator(m.name, [(a, d.expr) for a, d in m.params],
                                         m.cond.expr if m.cond is not None else None, parts,
                                         f"{self._where(m.src)}: the legal actions of move {m.name}")
        mod.parts.append(f"MEMO_MASKS = {mod.memo_masks!r}\n")
        mod.parts.append(f"MEMO_AT = {mod.memo_at!r}\n")
        mod.parts.append(f"MEMO_NEAR = {mod.memo_near!r}\n")
        for src in self.spec.sources:  # (the code's comments have their lines: node() is done)
            src.forget_positions()
        module = assemble(mod.source(), chunks + mod.function_chunks, module_filename(r))
        module.update(names=[item.name for item in self._later],
                      enums={name: m.enum_name for name, m in r.moves.items()})
        write_module(key, module)
        self._link(module, key)

    def _link(self, module: dict, key: str):
        r, d = self.r, self.d
        d.functions = self.c.functions
        r.block_src = {b.id: [(b.src, s.line, s.col) for s in b.stmts] for b in self.c.blocks}
        fnames = [name for name, f in self.c.functions.items() if f.body is not None]
        checked.save(self.spec, r, d, fnames, self.spec.diags[self._diags_before:])
        link(r, d, fnames, module, key, self.namespace)
