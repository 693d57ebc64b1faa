"""The Builder: a game's rules built from its loaded rule files, step by step (each step's
problems are diagnostics; a step that crashes on data already reported as wrong is skipped)."""
from __future__ import annotations

from ..dsl import ir
from ..dsl.check import Checker
from ..model.rules import Rules
from . import digest
from .code import Coder
from .declare import Declarations, Declarer
from .display import Displayer
from .lint import Linter


class Builder(Declarer, Coder, Displayer, Linter):
    def __init__(self, spec, namespace):
        self.spec = spec
        self.namespace = namespace
        self.r = Rules()
        self.d = Declarations()
        self.c = Checker(self.r, self.d, spec.diags, spec.removed)
        self._later = []
        self._trigger_reads = []  # per trigger: the channels its domains and condition read
        self._diags_before = len(spec.diags)  # the build's own diagnostics follow (kept by checked.py)

    def build(self) -> Rules:
        spec, r = self.spec, self.r
        g = spec.game.value
        gs = spec.game.source
        r.root = spec.root
        r.mods = tuple(str(m) for m in spec.mods)
        r.name = g.get("name", "")
        r.title = g.get("title", r.name)
        r.digest = digest(spec)
        r.dispatch_block = self.c.new_block([ir.Dispatch()]).id

        step = self._step
        step(self._players_enums, g, gs)
        step(self._board)
        step(self._pieces, g, gs)
        step(self._zones, g, gs)
        step(self._vars, g, gs)
        step(self._tracks, g, gs)
        step(self._events, g, gs)
        step(self._item_types, g, gs)
        step(self._items)
        step(self._var_item_types)
        step(self._functions, g, gs)
        step(self._procedures_declare, g, gs)
        step(self._moves_declare, g, gs)
        # check the bodies
        step(self._functions_check)
        step(self._procedures_compile)
        step(self._moves_compile, g, gs)
        step(self._track_spaces, g, gs)
        step(self._triggers, g, gs)
        step(self._listeners, g, gs)
        step(self._item_code)
        step(self._flow_agent, g, gs)
        step(self._display, g, gs)
        step(self._log_texts, g, gs)
        step(self.c.check_calls)
        step(self._warnings)
        if not any(d.severity == "error" for d in spec.diags):
            self._generate()  # only rules without errors are written and run
        return r

    def _step(self, fn, *args):
        """Run one build step. A crash after problems were already reported is taken as their
        consequence (the data is malformed): the step is skipped and the others still run."""
        try:
            fn(*args)
        except Exception:
            if not self.spec.diags:
                raise
