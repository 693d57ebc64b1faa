"""The rules' conditions in a player's words: what `why` answers first (engine/explain.py finds
the rule; this says what stops the action the way a player asks it).

It reads the rule text as parsed (``dsl/parse.py`` nodes) and words each part from what the rule
files already say, with the values worked out on the state:

* ``display: players:`` names a player's numbers: ``coins: coins(me)`` makes ``coins(me)`` read
  "your coins"; ``display: names:`` gives the printed names of players, pieces, zones, values;
* a game function reads by its own name: ``price(me, card)`` is "your price for the Spyglass",
  ``routes(town)`` "the routes of Oasis Town";
* a comparison reads as a need: ``coins(me) >= price(me, card)`` false is "it needs your coins (2)
  to be at least your price for the Spyglass (4)".

When a value is not in a list, or a condition is false, because of a game function, the function
is opened (a few levels deep) to find the part of it that is false: a town not among
``sources(me)`` is left out by ``crates(p, t) >= 2`` inside it. Values that would name an
item hidden from the viewer read "(hidden)", and nothing is worked out about a hidden value.
Nothing here knows a game.
"""
from __future__ import annotations

from ..dsl.parse import Node
from .ruletext import expression, unparse

_IS = {">=": "is at least", ">": "is more than", "<=": "is at most", "<": "is less than",
       "==": "is", "!=": "is not", "in": "is one of", "not in": "is not one of"}
_NEEDS = {">=": "to be at least", ">": "to be more than", "<=": "to be at most", "<": "to be less than",
          "==": "to be", "!=": "not to be", "in": "to be one of", "not in": "not to be one of"}
DEPTH = 4      # how many game functions deep a reason is looked for
SHOWN = 8      # the most values of a list written out


def _words(name: str) -> str:
    return str(name).replace("_", " ")


def mentions(v, hidden) -> bool:
    """True if a value is, or holds, an item the viewer may not identify (hidden: their ids)."""
    if isinstance(v, (list, tuple)):
        return any(mentions(x, hidden) for x in v)
    if isinstance(v, dict):
        return any(mentions(k, hidden) or mentions(x, hidden) for k, x in v.items())
    return isinstance(v, str) and v in hidden


class Wording:
    """Says, in words, why a condition is false or a value is not in a list, on one state.

    ev(text, env, names) evaluates rule text (ruletext.Evaluator); functions: the game's checked
    functions (name -> dsl.check.Function, with its parameters and parsed body); labels: rule
    text of display: players: -> its label; viewer: who asks; hidden: ids of the items hidden
    from them."""

    def __init__(self, rules, ev, functions, labels, viewer, hidden):
        self.rules, self.ev, self.functions = rules, ev, functions or {}
        self.labels, self.viewer, self.hidden = labels, viewer, hidden
        self.shown: set = set()  # the lists already written out (by their repr): each is written once
        self.opened: list = []   # the game functions opened to find a reason (their notes are cited)

    # ------------------------------------------------------------------ values and names
    def value(self, v) -> str:
        if self._hides(v):
            return "(hidden)"
        if isinstance(v, (list, tuple)):
            if not v:
                return "none"
            shown = ", ".join(self.value(x) for x in v[:SHOWN])
            return shown + (f" and {len(v) - SHOWN} more" if len(v) > SHOWN else "")
        if isinstance(v, dict):
            return ", ".join(f"{self.value(k)} {self.value(x)}" for k, x in v.items()) or "none"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if v is None:
            return "none"
        shown = self.rules.display(v)
        return _words(shown) if shown == v else shown

    def _hides(self, v) -> bool:
        return mentions(v, self.hidden)

    def _name(self, name: str) -> str:
        shown = self.rules.display(name)
        return _words(shown) if shown == name else shown

    def noun(self, n, env) -> str:
        """A part of a rule as a player would name it."""
        k, a = n.kind, n.a
        if k == "const":
            return self.value(a[0])
        if k == "name":
            if a[0] == "me":
                return "you"
            v = env.get(a[0], env)
            if v is not env and isinstance(v, str):
                return self.value(v)
            return getattr(env, "nouns", {}).get(a[0]) or self._name(a[0])
        label = self.labels.get(unparse(self._as_me(n, env)))
        if label is not None:
            return f"your {label}"
        if k == "fcall":
            name, args = a[0], list(a[1])
            inner = self._wrapper(name, args, env)
            if inner is not None:
                return inner
            if name == "pieces" and len(args) == 3:
                return f"{self._owner(args[1], env)}{self.noun(args[0], env)} in {self.arg(args[2], env)}"
            if name in ("count", "size") and len(args) == 1:
                return f"the number of {self.noun(args[0], env)}"
            if name in ("adjacent", "adjacent_from") and args:
                return f"the regions next to {self.arg(args[0], env)}"
            said = self._name(name)  # (display: names: may word a game function)
            if len(args) > 2 or a[2]:
                return said
            if args and self._is_me(args[0], env):
                rest = [self.arg(x, env) for x in args[1:]]
                return f"your {said}" + (f" for {_and(rest)}" if rest else "")
            of = " " if name.endswith("_of") and said == _words(name) else " of "
            return said + (of + _and([self.arg(x, env) for x in args]) if args else "")
        if k == "attr":
            whose = self.arg(a[0], env)
            return f"{whose}{chr(39) if whose.endswith('s') else chr(39) + 's'} {_words(a[1])}"
        if k == "index":
            if self._is_me(a[1], env):
                return f"your {self.noun(a[0], env)}"
            return f"{self.noun(a[0], env)} of {self.arg(a[1], env)}"
        if k == "cond":
            return self.noun(a[1] if self._holds(a[0], env) else a[2], env)
        return unparse(n)

    def arg(self, n, env) -> str:
        """An argument: its value when that is one thing (a card, a region, a number), else its noun."""
        if n.kind in ("fcall", "name", "index", "attr", "arith", "cond", "comp", "list") and not self._is_me(n, env):
            try:
                v = self.eval(n, env)
            except Exception:
                v = None
            if isinstance(v, (str, int)) and not isinstance(v, bool) and not self._hides(v):
                return self.value(v)
            if n.kind in ("comp", "list", "arith", "cond") and isinstance(v, list) and len(v) <= SHOWN:
                return self.value(v)
        return self.noun(n, env)

    def _wrapper(self, name, args, env):
        """The noun of a game function that only renames a primitive (n(p, t): pieces(crate, p, t))."""
        fn = self.functions.get(name)
        body = getattr(fn, "node", None)
        if body is None or body.kind != "fcall" or body.a[0] in self.functions or len(fn.params) != len(args):
            return None
        if body.a[0] not in ("pieces", "count", "size"):
            return None
        try:
            inner = self._bind(env, dict(zip(fn.params, [self.eval(x, env) for x in args])),
                               {p: self.noun(x, env) for p, x in zip(fn.params, args)})
        except Exception:
            return None
        return self.noun(body, inner)

    def _as_me(self, n, env):
        """n with each name standing for the viewer written as `me` (display: players: is over me)."""
        if n.kind == "name" and self._is_me(n, env):
            return Node("name", ["me"], n.line, n.col)
        if n.kind in ("fcall", "index", "attr"):
            a = list(n.a)
            if n.kind == "fcall":
                a[1] = [self._as_me(x, env) for x in a[1]]
            else:
                a[0] = self._as_me(a[0], env)
                if n.kind == "index":
                    a[1] = self._as_me(a[1], env)
            return Node(n.kind, a, n.line, n.col)
        return n

    @staticmethod
    def _bind(env, values: dict, nouns: dict | None = None) -> "_Env":
        out = _Env(env)
        out.update(values)
        out.nouns = {**getattr(env, "nouns", {}), **(nouns or {})}
        return out

    def among(self, v, n, env) -> str | None:
        """"X is not among the N (values)" when the list n has a name a player can read."""
        while n.kind == "cond":
            n = n.a[1] if self._holds(n.a[0], env) else n.a[2]
        if n.kind == "fcall" and n.a[0] == "distinct" and len(n.a[1]) == 1:
            n = n.a[1][0]
        if n.kind not in ("fcall", "index", "attr") and not (n.kind == "name" and n.a[0] not in env):
            return None
        if n.kind == "fcall" and (len(n.a[1]) > 2 or n.a[2]) and n.a[0] not in ("pieces", "adjacent", "adjacent_from"):
            return None  # (a name alone says too little: the options listed say it)
        try:
            values = self.eval(n, env)
        except Exception:
            return None
        key = repr(values)
        shown = "" if key in self.shown else f" ({self.value(values)})"
        self.shown.add(key)
        return f"{self.value(v)} is not among {_the(self.noun(n, env))}{shown}"

    def _is_me(self, n, env) -> bool:
        return n.kind == "name" and (n.a[0] == "me" or (n.a[0] in env and env[n.a[0]] == self.viewer
                                                         and env[n.a[0]] is not None))

    def _owner(self, n, env) -> str:
        if self._is_me(n, env):
            return "your "
        if n.kind == "const" and n.a[0] is None:
            return ""
        return self.noun(n, env) + "'s "

    def said(self, n, env) -> str:
        """The noun with its value now, when the value says more than the noun."""
        noun = self.noun(n, env)
        if n.kind == "const":
            return noun
        try:
            v = self.value(self.eval(n, env))
        except Exception:
            return noun
        return noun if v == noun else f"{noun} ({v})"

    def eval(self, n, env):
        return self.ev(unparse(n), env, tuple(env))

    # ------------------------------------------------------------------ reasons
    def false(self, n, env, depth: int = 0) -> list[str]:
        """Sentences saying why the condition n is false now (the outermost first)."""
        k, a = n.kind, n.a
        if k == "and":
            for x in a[0]:
                if not self._holds(x, env):
                    return self.false(x, env, depth)
            return []
        if k == "or":
            parts = [(self.false(x, env, depth) or [self._needs(x, env)])[-1] for x in a[0]]
            return ["none of these holds: " + "; or ".join(parts)]
        if k == "not":
            if a[0].kind in ("and", "or", "cmp", "not"):
                return [f"it needs this not to be so: {self.claim(a[0], env)}"]
            return [f"it needs {self.said(a[0], env)} to be no"]
        if k == "cmp":
            op, left, right = a
            right_said = self.said(right, env)
            if op in ("in", "not in"):
                right_said = _the(right_said)
            out = [f"it needs {self.said(left, env)} {_NEEDS.get(op, op)} {right_said}"]
            if op == "in" and depth < DEPTH:  # not in the list: which of its conditions stops it
                try:
                    out += self.not_in(self.eval(left, env), right, env, depth + 1)
                except Exception:
                    pass
            return out
        if k == "cond":
            return self.false(a[1] if self._holds(a[0], env) else a[2], env, depth)
        opened = self._open(n, env, depth)
        if opened is not None:
            return [self._needs(n, env)] + self.false(opened[0], opened[1], depth + 1)
        return [self._needs(n, env)]

    def claim(self, n, env) -> str:
        """A condition said as a statement ("a region's capacity (2) is at least 2")."""
        k, a = n.kind, n.a
        if k == "cmp":  # (true: equal sides need no values)
            say = self.noun if a[0] == "==" else self.said
            return f"{say(a[1], env)} {_IS.get(a[0], a[0])} {say(a[2], env)}"
        if k in ("and", "or"):
            return _and([self.claim(x, env) for x in a[0]], k)
        if k == "not":
            return f"not ({self.claim(a[0], env)})"
        return self.said(n, env)

    def _needs(self, n, env) -> str:
        if n.kind == "cmp":
            return f"{self.said(n.a[1], env)} {_NEEDS.get(n.a[0], n.a[0])} {self.said(n.a[2], env)}"
        if n.kind == "fcall" or (n.kind == "name" and n.a[0] in self.functions and n.a[0] not in env):
            return f"it needs {self.noun(n, env)}"  # a game function's name says what it asks
        return f"it needs {self.said(n, env)} to be yes"

    def _holds(self, n, env) -> bool:
        try:
            return bool(self.eval(n, env))
        except Exception:
            return True  # a part that cannot be worked out is not said to be false

    def not_in(self, v, n, env, depth: int = 0) -> list[str]:
        """Sentences saying why v is not in the list n evaluates to, from inside it: a
        comprehension's condition false for v, or v missing from the list it filters; a game
        function opened. [] when nothing more can be said; nothing is worked out about a hidden
        value."""
        return self._not_in(v, n, env, depth)[1]

    def _not_in(self, v, n, env, depth):
        """(whether a condition left v out, the sentences)."""
        if self._hides(v) or depth > DEPTH:
            return False, []
        k, a = n.kind, n.a
        if k == "comp":
            elem, var, it, cond = a
            if elem.kind != "name" or elem.a[0] != var:
                return False, []
            try:
                source = self.eval(it, env)
            except Exception:
                return False, []
            if v not in (source or ()):
                left_out, why = self._not_in(v, it, env, depth + 1)
                said = self.among(v, it, env)
                return left_out, why if left_out or not said else [said] + why
            if cond is None:
                return False, []
            return True, self.false(cond, self._bind(env, {var: v}), depth + 1)
        if k == "fcall" and a[0] == "distinct" and len(a[1]) == 1:
            return self._not_in(v, a[1][0], env, depth)
        if k == "arith" and all(o == "+" for o in a[1]):
            for x in a[0]:  # a list made of several: only a condition that left v out says why
                left_out, why = self._not_in(v, x, env, depth)
                if left_out and why:  # one way among several: say which
                    return True, [f"as for {_the(self.noun(x, env))}: {why[0]}"] + why[1:]
                if left_out:
                    return True, why
            return False, []
        if k == "cond":
            return self._not_in(v, a[1] if self._holds(a[0], env) else a[2], env, depth)
        opened = self._open(n, env, depth)
        if opened is not None:
            return self._not_in(v, opened[0], opened[1], depth + 1)
        return False, []

    def _open(self, n, env, depth):
        """(body, env) of a call of a game function (or a name of one without parameters), its
        parameters bound to the values of the arguments; None for anything else."""
        if depth >= DEPTH:
            return None
        if n.kind == "fcall" and not n.a[2]:
            name, args = n.a[0], n.a[1]
        elif n.kind == "name" and n.a[0] not in env:
            name, args = n.a[0], []
        else:
            return None
        fn = self.functions.get(name)
        if fn is None or getattr(fn, "node", None) is None or len(fn.params) != len(args):
            return None
        try:
            values = [self.eval(x, env) for x in args]
        except Exception:
            return None
        if any(self._hides(x) for x in values):
            return None
        nouns = {p: self.noun(x, env) for p, x in zip(fn.params, args)}
        self.opened.append(name)
        return fn.node, self._bind({"me": env.get("me")}, dict(zip(fn.params, values)), nouns)


class _Env(dict):
    """The locals of a rule being read, with the nouns of the caller's arguments (a function opened)."""
    nouns: dict = {}


def _the(noun: str) -> str:
    return noun if noun.startswith(("your ", "the ")) or noun[:1].isupper() else "the " + noun


def _and(parts: list, word: str = "and") -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def sentences(lines: list) -> str:
    """Reasons as sentences: each capitalised, each ending with a full stop."""
    out = []
    for s in lines:
        s = s.strip()
        if s and s not in out:
            out.append(s)
    return " ".join((s[0].upper() + s[1:]).rstrip(".") + "." for s in out)


def _labels(game) -> dict:
    """display: players: as {rule text (as parsed and written back): its label}."""
    decl = getattr(game, "declarations", None)
    seen, out = set(), {}
    for thing in list((getattr(decl, "functions", None) or {}).values()) + list(game.rules.moves.values()):
        source = getattr(getattr(thing, "src", None), "source", None)
        if source is None or id(source) in seen:
            continue
        seen.add(id(source))
        disp = (getattr(source, "data", None) or {}).get("display") if isinstance(getattr(source, "data", None), dict) else None
        players = disp.get("players") if isinstance(disp, dict) else None
        for label, text in (players if isinstance(players, dict) else {}).items():
            n = expression(text)
            if n is not None:
                out.setdefault(unparse(n), str(label))
    return out


def for_game(st, ev, game, viewer, hidden) -> Wording:
    """The Wording of a loaded game (its functions, its display: players:) for one viewer."""
    decl = getattr(game, "declarations", None)
    return Wording(st.rules, ev, getattr(decl, "functions", None), _labels(game) if game else {}, viewer, hidden)
