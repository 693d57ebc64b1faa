"""Likely mistakes that still let a game load (warnings, codes W...): definitions nothing
uses, a region cut off from the board, an item that starts nowhere and that no rule names,
abilities that can never apply."""
from __future__ import annotations


class Linter:
    """The warning step of the Builder (build/__init__.py)."""

    def _warnings(self):
        """Likely mistakes that still let the game load: definitions nothing uses, a region
        cut off from the board, an item that starts nowhere and that no rule names."""
        r, spec, used = self.r, self.spec, self.c.used
        for name, fn in self.c.functions.items():
            src = fn.src
            if name not in used:
                self.err(src.source, src.path, "W201", f"function '{name}' is never used",
                         "call it from a rule, or remove it", key=True)
        for name, (_, _, src) in self.d.procedures.items():
            if name not in used and name != "flow":
                self.err(src.source, src.path, "W202", f"procedure '{name}' is never called",
                         "call it from a rule, or remove it", key=True)
        if spec.connections:
            into = r.adj_in.get("", {})
            for name, e in spec.regions.items():
                if not r.adj.get(name) and not into.get(name):
                    self.err(e.source, e.path, "W101", f"region '{name}' has no connection",
                             "add it to connections:, or remove the region", key=True)
        if not any(z.active for z in r.zones.values()):
            for iid, e in spec.items.items():
                for key in ("grants", "abilities"):
                    if iid in r.props and e.value.get(key):
                        self.err(e.source, e.at(key), "W302", f"item '{iid}' has {key}, but no zone is active: "
                                 "they can never apply", "mark the zone where such items lie in play with "
                                 "active: true", key=True)
        for iid, e in spec.items.items():
            if iid in r.props and iid not in r.start_zone and iid not in used:
                self.err(e.source, e.path + ("id",), "W301",
                         f"item '{iid}' starts in no zone and no rule names it",
                         "give it at: <zone>, or name it in a rule that brings it into play")
