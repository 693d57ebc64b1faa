"""The names a game's generated module calls (dsl/codegen.py writes them, this provides them):
the run-time helpers, the primitives, the decisions, and tables built once from the rules —
a property's values by item (``_A_<prop>``), the zone and variable ids of a family by key
(``_ZK_<family>``, ``_VK_<family>``: built once, not joined from text at every read)."""
from __future__ import annotations

from ..model.rules import fmt_value
from . import decisions, runtime, vm
from .primitives import IMPL


class _Keys(dict):
    """The ids of a family's zones or variables by key; a key that is not one of the family's
    is a rule failure in the language's terms."""

    __slots__ = ("family",)

    def __missing__(self, k):
        raise runtime.key_error(self.family, k)


def _keys(family: str, keys) -> _Keys:
    d = _Keys()
    d.family = family
    for k in keys:
        d[k] = f"{family}.{k}"
        d[str(k)] = f"{family}.{k}"
    return d


def namespace(rules, decl) -> dict:
    ns = {
        "_items": runtime.items, "_seq": runtime.seq, "_index": runtime.index, "_each": runtime.each,
        "_add": runtime.add, "_mul": runtime.mul, "_nest": runtime.nested, "_settle": vm.wrote, "_skip": runtime.skip,
        "_fail": runtime.fail,
        "_repeat": runtime.repeat, "_for_each": runtime.for_each,
        "_emit": vm.emit, "_ret": runtime.ret, "_MISS": runtime.MISSING,
        "_frozen": runtime.frozen,
        "_choose": decisions.choose, "_ask": decisions.ask, "_branches": decisions.branches,
        "_Action": decisions.Action, "_same_id": decisions.same_id, "_dispatch": vm.dispatch, "_end": vm.end,
        "_fmt": fmt_value, "_new_action": decisions.new_action, "_MOVES": rules.moves, "_RULES": rules,
    }
    for name, impl in IMPL.items():
        ns[f"_p_{name}"] = impl
    for prop in decl.prop_names:
        ns[f"_A_{prop}"] = {i: p.get(prop) for i, p in rules.props.items()}
    for fam, keys in rules.zone_families.items():
        if keys != [None]:
            ns[f"_ZK_{fam}"] = _keys(fam, keys)
    for fam, keys in decl.var_families.items():
        ns[f"_VK_{fam}"] = _keys(fam, keys)
    return ns
