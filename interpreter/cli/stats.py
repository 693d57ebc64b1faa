"""Balance statistics for `lotr-rules simulate --stats`: what each side took, played and chose,
and how the side fared when it did. Nothing here knows a game: an "item" is any item of the
rules (card, tile, token, character) that an action names, read from the action's payload.

What one action counts as (``describe``):

* a move (``take:c1_14:play``): each of its arguments that is an item is an item row
  ``(item, how)`` where ``how`` is the move with its other arguments (``take use=play``); the
  move with its non-item arguments is a choice row;
* a choice among values (``choose:card:elven_cloak``): an item value is an item row (how:
  ``choose card``); the choice row is the label, with the value when it is not an item
  (``choose attack_dice=3``);
* a branch or an order (``choose:ambush:yes``, ``order:x:first``): a choice row.

Per side (a team, or each player when the game has none), over the games: how many times the
row's action was taken, in how many games, and the side's win rate in those games with a 95%
Wilson interval, next to the side's win rate over all games (the "lift" is the difference: a
card whose players win far more often than their side does may be strong, or a sign of a winning
position; these are associations, not causes). Also: game length (mean, sd, interval), each
side's and seat's win rate, and the first mover's advantage.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict

from ..model.rules import fmt_value

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (0..1; (0, 1) when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


class Recorder:
    """Collects what each side did in one game (called before each action is applied)."""

    def __init__(self, game, players=None):
        self.rules = game.rules
        self.items = game.rules.item_type_of
        teams = game.teams(players)
        self.side_of = {p: side for side, members in teams.items() for p in members}
        self.first = None
        self.sides = defaultdict(lambda: {"items": Counter(), "choices": Counter()})

    def __call__(self, state, action):
        player = state.current_player
        if self.first is None:
            self.first = player
        if isinstance(action, str):
            action = next(a for a in state.legal_actions() if a.id == action)
        items, choice = self.describe(action)
        rec = self.sides[self.side_of.get(player, player)]
        rec["choices"][choice] += 1
        for it, how in items:
            rec["items"][f"{it}|{how}"] += 1

    def describe(self, action) -> tuple[list, str]:
        """([(item, how)], choice key) for an action (see the module's doc)."""
        payload = action.payload
        is_item = self.items.__contains__
        if isinstance(payload, tuple) and len(payload) == 2 and isinstance(payload[1], dict):
            name, binding = payload
            binding = {k: v for k, v in binding.items() if k != "me"}  # the mover: the side already says it
            item_args = [v for v in binding.values() if isinstance(v, str) and is_item(v)]
            others = [f"{k}={fmt_value(v)}" for k, v in binding.items() if not (isinstance(v, str) and is_item(v))]
            how = " ".join([name, *others])
            return [(it, how) for it in item_args], how
        kind, _, rest = action.id.partition(":")
        label = rest.rsplit(":", 1)[0] if ":" in rest else rest
        if kind == "choose" and isinstance(payload, str) and is_item(payload):
            return [(payload, f"choose {label}")], f"choose {label}"
        return [], f"{kind} {label}={fmt_value(payload)}"

    def result(self) -> dict:
        return {"first": self.first,
                "sides": {s: {"items": dict(r["items"]), "choices": dict(r["choices"])} for s, r in self.sides.items()}}


def side_won(winners, members) -> bool:
    """A side wins a game when the winners are its players alone."""
    return bool(winners) and set(winners) <= set(members)


def aggregate(records: list, game, players=None) -> dict:
    """Balance statistics over the per-game records of `simulate` (each with its 'stats')."""
    teams = game.teams(players)
    seated = list(game.seating(players))
    n = len(records)
    wins_by_side = {s: sum(1 for r in records if side_won(r["winners"], ms)) for s, ms in teams.items()}
    side_rate = {s: (wins_by_side[s] / n if n else 0.0) for s in teams}
    sides = []
    for s, ms in teams.items():
        k = wins_by_side[s]
        lo, hi = wilson(k, n)
        sides.append({"side": s, "players": list(ms), "games": n, "wins": k, "win_rate": _r(k / n if n else 0),
                      "ci_low": _r(lo), "ci_high": _r(hi)})
    lengths = [r["actions"] for r in records]
    mean = sum(lengths) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n else 0.0
    # the first mover: the player who made the game's first decision
    side_of = {p: s for s, ms in teams.items() for p in ms}
    firsts = Counter(r["stats"]["first"] for r in records if r["stats"]["first"] is not None)
    first_wins = sum(1 for r in records if r["stats"]["first"] is not None
                     and side_won(r["winners"], teams[side_of.get(r["stats"]["first"], r["stats"]["first"])]))
    other_wins = sum(1 for r in records if r["winners"] and r["stats"]["first"] is not None
                     and not side_won(r["winners"], teams[side_of.get(r["stats"]["first"], r["stats"]["first"])])
                     and any(side_won(r["winners"], ms) for ms in teams.values()))
    m = sum(firsts.values())
    lo, hi = wilson(first_wins, m)
    first = {"players": dict(firsts.most_common()), "games": m, "wins": first_wins,
             "win_rate": _r(first_wins / m if m else 0), "ci_low": _r(lo), "ci_high": _r(hi),
             "others_win_rate": _r(other_wins / m if m else 0), "fair_share": _r(1 / len(teams) if teams else 0),
             "advantage": _r((first_wins - other_wins / max(1, len(teams) - 1)) / m if m else 0)}
    items, choices = _rows(records, teams, side_rate, game)
    return {"games": n, "seats": seated, "sides": sides,
            "length": {"mean": _r(mean, 2), "sd": _r(sd, 2), "ci_low": _r(mean - half, 2), "ci_high": _r(mean + half, 2),
                       "min": min(lengths) if lengths else 0, "max": max(lengths) if lengths else 0},
            "first_player": first, "items": items, "choices": choices}


def _rows(records, teams, side_rate, game):
    times = {"items": Counter(), "choices": Counter()}
    games = {"items": Counter(), "choices": Counter()}
    wins = {"items": Counter(), "choices": Counter()}
    for r in records:
        for side, rec in r["stats"]["sides"].items():
            won = side in teams and side_won(r["winners"], teams[side])
            for kind in ("items", "choices"):
                for key, c in rec[kind].items():
                    k = (side, key)
                    times[kind][k] += c
                    games[kind][k] += 1
                    wins[kind][k] += won
    out = {}
    for kind in ("items", "choices"):
        rows = []
        for (side, key), g in games[kind].items():
            w = wins[kind][(side, key)]
            lo, hi = wilson(w, g)
            row = {"side": side}
            if kind == "items":
                item, _, how = key.partition("|")
                row.update({"item": item, "name": game.rules.display(item), "how": how})
            else:
                row["choice"] = key
            base = side_rate.get(side, 0.0)
            row.update({"times": times[kind][(side, key)], "games": g, "wins": w, "win_rate": _r(w / g),
                        "ci_low": _r(lo), "ci_high": _r(hi), "side_win_rate": _r(base), "lift": _r(w / g - base)})
            rows.append(row)
        rows.sort(key=lambda x: (-x["games"], -x["times"], x["side"], x.get("item", x.get("choice"))))
        out[kind] = rows
    return out["items"], out["choices"]


def _r(x, nd=4):
    return round(float(x), nd)


# ------------------------------------------------------------------ output
def print_stats(stats: dict, console, title: str, top: int = 20) -> None:
    from rich.table import Table

    from .common import escape

    L = stats["length"]
    console.print(f"[b]{escape(title)}[/b]: {stats['games']} games; length mean {L['mean']} "
                  f"(95% CI {L['ci_low']}..{L['ci_high']}, sd {L['sd']}, min {L['min']}, max {L['max']})")
    t = Table(title="win rate by side (95% Wilson interval)")
    for c in ("side", "players", "wins", "rate", "interval"):
        t.add_column(c, justify="right" if c in ("wins", "rate") else "left")
    for s in stats["sides"]:
        t.add_row(escape(s["side"]), escape(", ".join(s["players"])), str(s["wins"]), f"{s['win_rate']:.1%}",
                  f"{s['ci_low']:.1%}..{s['ci_high']:.1%}")
    console.print(t)
    f = stats["first_player"]
    if f["games"]:
        console.print(f"first mover ({escape(', '.join(f'{p} {c}' for p, c in f['players'].items()))}): wins "
                      f"{f['win_rate']:.1%} ({f['ci_low']:.1%}..{f['ci_high']:.1%}), the others "
                      f"{f['others_win_rate']:.1%}; advantage {f['advantage']:+.1%} (fair share {f['fair_share']:.0%})")
    for kind, label in (("items", "items taken or played"), ("choices", "choices")):
        rows = stats[kind]
        if not rows:
            continue
        t = Table(title=f"{label}: the {min(top, len(rows))} most frequent of {len(rows)} "
                        f"(win rate of the side that did it, in the games it did)")
        cols = (["side", "item", "how"] if kind == "items" else ["side", "choice"]) + \
            ["times", "games", "win rate", "interval", "lift"]
        for c in cols:
            t.add_column(c, justify="right" if c in ("times", "games", "win rate", "lift") else "left")
        for r in rows[:top]:
            head = ([r["side"], _item_label(r), r["how"]]
                    if kind == "items" else [r["side"], r["choice"]])
            t.add_row(*map(escape, head), str(r["times"]), str(r["games"]), f"{r['win_rate']:.1%}",
                      f"{r['ci_low']:.1%}..{r['ci_high']:.1%}", f"{r['lift']:+.1%}")
        console.print(t)


def _item_label(row) -> str:
    """An item's name with its id (two cards may share a name)."""
    return f"{row['name']} [{row['item']}]" if row["name"] != row["item"] else row["item"]


CSV_COLUMNS = ["kind", "side", "key", "item", "name", "how", "times", "games", "wins", "win_rate", "ci_low",
               "ci_high", "side_win_rate", "lift"]


def write_csv(stats: dict, path: str) -> None:
    """One table for notebooks: a row per side, the first mover, each item row and choice row."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        w.writeheader()
        for s in stats["sides"]:
            w.writerow({"kind": "side", "side": s["side"], "key": s["side"], "games": s["games"], "wins": s["wins"],
                        "win_rate": s["win_rate"], "ci_low": s["ci_low"], "ci_high": s["ci_high"]})
        f = stats["first_player"]
        w.writerow({"kind": "first_player", "key": "first mover", "games": f["games"], "wins": f["wins"],
                    "win_rate": f["win_rate"], "ci_low": f["ci_low"], "ci_high": f["ci_high"],
                    "side_win_rate": f["fair_share"], "lift": f["advantage"]})
        for r in stats["items"]:
            w.writerow({"kind": "item", "key": f"{r['item']}|{r['how']}", **{k: r[k] for k in r if k in CSV_COLUMNS}})
        for r in stats["choices"]:
            w.writerow({"kind": "choice", "key": r["choice"], **{k: r[k] for k in r if k in CSV_COLUMNS and k != "choice"}})


def plot(stats: dict, lengths: list, path: str, title: str, top: int = 15) -> None:
    """Win rates by side (and the first mover), the game-length histogram, and the most played
    items' win rates with their intervals, in one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(13, 10))
    grid = fig.add_gridspec(2, 2, height_ratios=[1, 1.4])
    axes = [fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, :])]
    ax = axes[0]
    names = [s["side"] for s in stats["sides"]]
    rates = [s["win_rate"] for s in stats["sides"]]
    err = [[r - s["ci_low"] for r, s in zip(rates, stats["sides"])], [s["ci_high"] - r for r, s in zip(rates, stats["sides"])]]
    f = stats["first_player"]
    if f["games"]:
        names.append("first mover")
        rates.append(f["win_rate"])
        err[0].append(f["win_rate"] - f["ci_low"])
        err[1].append(f["ci_high"] - f["win_rate"])
    ax.bar(range(len(names)), rates, yerr=err, capsize=4, color="#4c72b0")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title("wins by side")
    ax = axes[1]
    ax.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#55a868")
    ax.axvline(stats["length"]["mean"], color="k", ls="--", lw=1)
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    ax.set_title(f"game length (mean {stats['length']['mean']})")
    ax = axes[2]
    rows = stats["items"][:top] or stats["choices"][:top]
    labels = [(f"{r['side']}: {_item_label(r)} ({r['how']})" if "item" in r else f"{r['side']}: {r['choice']}")[:80]
              for r in rows]
    y = list(range(len(rows)))[::-1]
    ax.errorbar([r["win_rate"] for r in rows], y,
                xerr=[[r["win_rate"] - r["ci_low"] for r in rows], [r["ci_high"] - r["win_rate"] for r in rows]],
                fmt="o", color="#c44e52", capsize=3)
    ax.scatter([r["side_win_rate"] for r in rows], y, marker="|", s=200, color="k", label="side's overall rate")
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the side in the games it did it (95% CI)")
    ax.set_title(f"the {len(rows)} most frequent {'items' if stats['items'] else 'choices'}")
    ax.legend(loc="lower right", fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
