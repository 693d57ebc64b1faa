"""Time random playouts of small games: ours in YAML against OpenSpiel's C++ and Python versions.

    python tools/bench_vs_openspiel.py [--rounds 7] [--seconds 0.3] [--seed 1] [--callgrind] [--json]

The games: tic-tac-toe and Kuhn poker, written for this engine in tools/bench_games/ and
loaded with ``load_game``, against ``pyspiel.load_game("tic_tac_toe")`` / ``"kuhn_poker"``
(C++) and ``"python_tic_tac_toe"`` / ``"python_kuhn_poker"`` (Python, registered by importing
``open_spiel.python.games``). OpenSpiel is optional (``pip install open_spiel==1.6.11`` on
Python 3.11); without it only our games are timed.

Every contestant plays random playouts driven by the same Python loop, in this one process:
start a game, then until it is over list the legal actions and apply one picked with
``random.Random.randrange``; at the end read the result (our winners / scores, OpenSpiel's
``returns()``). OpenSpiel's chance nodes (the deal in Kuhn poker) are sampled uniformly from
``chance_outcomes()`` with the same ``random.Random`` (OpenSpiel's usual loop, and the fastest
of those tried for its Python Kuhn poker); our games draw their chance (the shuffle) inside
``new_game``, from the seed each game starts with. "actions" counts the players' decisions
only; chance outcomes are timed but not counted.

A warm-up round sizes each contestant's batch to about --seconds; then --rounds rounds run
every contestant once, in an order rotated each round (interleaved, so that a busy moment of
the machine falls on all of them), and the figure is the median round. The ratio is ours
divided by theirs within each round, its median over the rounds: above 1 means our engine is
faster.

--callgrind also counts the CPU instructions of a playout with valgrind's callgrind (if
installed), which do not depend on how busy the machine is: each contestant plays --cg-playouts
playouts in a child process under callgrind, and none in another (each after 20 playouts of
warm-up); the difference over the playouts is the figure, and theirs over ours the ratio
(above 1: ours takes fewer). Instructions are not time (a C++ core runs more of them per
second than Python's interpreter loop does), so the timed ratio stays the measure.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

GAMES_DIR = ROOT / "tools" / "bench_games"
INSTALL_HINT = "pip install open_spiel==1.6.11 (Python 3.11)"

# (our folder, OpenSpiel C++ name, OpenSpiel Python name, title)
GAMES = [
    ("tic_tac_toe", "tic_tac_toe", "python_tic_tac_toe", "tic-tac-toe"),
    ("kuhn_poker", "kuhn_poker", "python_kuhn_poker", "Kuhn poker"),
]


def load_openspiel():
    """pyspiel with OpenSpiel's Python games registered, or None when it is not installed."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # it prints a note about optional games
            import pyspiel
            from open_spiel.python.games import kuhn_poker, tic_tac_toe  # noqa: F401 (registers them)
    except ImportError:
        return None
    return pyspiel


# ------------------------------------------------------------------ one batch of playouts
def ours_batch(game, n: int, seed: int):
    """n random playouts of one of our games; (seconds, decisions, sum of first seat's score)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    decisions = 0
    total = 0
    t = time.perf_counter()
    for s in range(seed, seed + n):
        st = game.new_game(seed=s)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply(acts[randrange(len(acts))])
            decisions += 1
        scores = st.scores
        if scores is not None:
            total += scores[st.seats[0]]
        elif st.winners:
            total += 1 if st.winners[0] == st.seats[0] else -1
    return time.perf_counter() - t, decisions, total


def openspiel_batch(game, n: int, seed: int):
    """n random playouts of an OpenSpiel game; (seconds, decisions, sum of player 0's return)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    decisions = 0
    total = 0.0
    t = time.perf_counter()
    for _ in range(n):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():  # the deal: its outcomes are equally likely in both games
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[randrange(len(outcomes))][0])
            else:
                acts = st.legal_actions()
                st.apply_action(acts[randrange(len(acts))])
                decisions += 1
        total += st.returns()[0]
    return time.perf_counter() - t, decisions, total


class Contestant:
    def __init__(self, game_title, engine, batch, game):
        self.game_title, self.engine, self.batch, self.game = game_title, engine, batch, game
        self.n = 0
        self.rounds = []  # (playouts/s, actions/s, actions per playout, mean first-seat result)

    def calibrate(self, seconds: float, seed: int):
        n = 50
        while True:
            dt, _, _ = self.batch(self.game, n, seed)
            if dt >= seconds / 4 or n >= 10_000_000:
                break
            n *= 4
        self.n = max(50, int(n * seconds / max(dt, 1e-9)))

    def run(self, seed: int):
        dt, decisions, total = self.batch(self.game, self.n, seed)
        self.rounds.append((self.n / dt, decisions / dt, decisions / self.n, total / self.n))

    def median(self, i):
        return statistics.median(r[i] for r in self.rounds)


ENGINES = ("ours", "cpp", "python")


def child(engine: str, folder: str, n: int, seed: int) -> None:
    """Under callgrind: 20 playouts of warm-up, then n (callgrind_counts)."""
    entry = next(g for g in GAMES if g[0] == folder)
    if engine == "ours":
        from interpreter import load_game

        game, batch = load_game(str(GAMES_DIR / folder)), ours_batch
    else:
        game, batch = load_openspiel().load_game(entry[1] if engine == "cpp" else entry[2]), openspiel_batch
    batch(game, 20, seed + 1)
    batch(game, n, seed)


def callgrind_counts(engines, n: int, seed: int) -> dict:
    """{game title: {engine: instructions per playout}} (child, run under callgrind)."""
    from bench import callgrind_instructions

    out = {}
    for folder, _, _, title in GAMES:
        row = out[title] = {}
        for engine in engines:
            full, base = (callgrind_instructions([Path(__file__).resolve(), "--child", engine, folder, k, seed])[0]
                          for k in (n, 0))
            row[engine] = round((full - base) / n)
    return out


def ratio(ours: Contestant, theirs: Contestant, i: int) -> float:
    return statistics.median(a[i] / b[i] for a, b in zip(ours.rounds, theirs.rounds))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="timed rounds (the median is reported)")
    ap.add_argument("--seconds", type=float, default=0.3, help="about how long one batch runs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--callgrind", action="store_true", help="also count instructions per playout (valgrind)")
    ap.add_argument("--cg-playouts", type=int, default=2000, help="playouts per contestant under callgrind")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", nargs=4, metavar=("ENGINE", "GAME", "N", "SEED"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.cg_playouts < 1:
        ap.error("--cg-playouts must be at least 1")
    if args.child:
        engine, folder, n, seed = args.child
        child(engine, folder, int(n), int(seed))
        return 0

    from interpreter import load_game

    pyspiel = load_openspiel()
    contestants = []
    for folder, cpp, py, title in GAMES:
        ours = load_game(str(GAMES_DIR / folder))
        contestants.append(Contestant(title, "lotr-rules (YAML)", ours_batch, ours))
        if pyspiel is not None:
            contestants.append(Contestant(title, "OpenSpiel C++", openspiel_batch, pyspiel.load_game(cpp)))
            contestants.append(Contestant(title, "OpenSpiel Python", openspiel_batch, pyspiel.load_game(py)))

    for c in contestants:  # warm-up, and a batch size of about --seconds for each
        c.calibrate(args.seconds, args.seed)
    for rnd in range(args.rounds):
        k = rnd % len(contestants)
        for c in contestants[k:] + contestants[:k]:
            c.run(args.seed + 1000 * (rnd + 1))

    rows = []
    for title in dict.fromkeys(c.game_title for c in contestants):
        group = [c for c in contestants if c.game_title == title]
        ours = group[0]
        for c in group:
            row = {
                "game": title,
                "engine": c.engine,
                "playouts_per_s": round(c.median(0)),
                "actions_per_s": round(c.median(1)),
                "actions_per_playout": round(statistics.mean(r[2] for r in c.rounds), 2),
                "mean_result_seat0": round(statistics.mean(r[3] for r in c.rounds), 3),
                "playouts_per_round": c.n,
            }
            if c is not ours:  # the median over rounds of the ratio within a round
                row["ours_over_theirs_playouts"] = round(ratio(ours, c, 0), 3)
                row["ours_over_theirs_actions"] = round(ratio(ours, c, 1), 3)
            rows.append(row)

    info = {"python": sys.version.split()[0], "rounds": args.rounds, "seconds_per_batch": args.seconds,
            "openspiel": None if pyspiel is None else _openspiel_version(), "results": rows}
    if pyspiel is None:
        info["note"] = f"OpenSpiel is not installed: our games only ({INSTALL_HINT})"
    if args.callgrind:
        import shutil

        if shutil.which("valgrind") is None:
            info["callgrind"] = "valgrind is not installed"
        else:
            try:
                info["callgrind"] = callgrind_counts(ENGINES if pyspiel is not None else ENGINES[:1],
                                                     args.cg_playouts, args.seed)
            except RuntimeError as exc:
                info["callgrind"] = str(exc)
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    print(f"random playouts, one process, {args.rounds} interleaved rounds of ~{args.seconds} s each "
          f"(median); Python {info['python']}, OpenSpiel {info['openspiel'] or 'not installed'}")
    head = ["game", "engine", "playouts/s", "actions/s", "actions/playout", "mean result, 1st seat"]
    if pyspiel is not None:
        head += ["ours/theirs (playouts)", "ours/theirs (actions)"]
    table = [head]
    for r in rows:
        row = [r["game"], r["engine"], f"{r['playouts_per_s']:,}", f"{r['actions_per_s']:,}",
               f"{r['actions_per_playout']:.2f}", f"{r['mean_result_seat0']:+.3f}"]
        if pyspiel is not None:
            row += [f"{r['ours_over_theirs_playouts']:.3f}" if "ours_over_theirs_playouts" in r else "",
                    f"{r['ours_over_theirs_actions']:.3f}" if "ours_over_theirs_actions" in r else ""]
        table.append(row)
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for j, row in enumerate(table):
        cells = [cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        print("  ".join(cells))
        if j == 0:
            print("  ".join("-" * w for w in widths))
    if pyspiel is None:
        print(f"\nOpenSpiel is not installed, so only our games were timed: {INSTALL_HINT}")
    else:
        print("\nours/theirs above 1: our engine is faster. Mean result: the first seat's mean payoff "
              "(tic-tac-toe: win +1, draw 0, loss -1; Kuhn poker: chips, 1/8 in expectation)")
    cg = info.get("callgrind")
    if isinstance(cg, dict):
        print(f"\ncallgrind, CPU instructions per playout ({args.cg_playouts} playouts each; theirs/ours above 1: "
              "ours takes fewer):")
        names = {"ours": "lotr-rules", "cpp": "OpenSpiel C++", "python": "OpenSpiel Python"}
        for title, row in cg.items():
            parts = [f"{names[e]} {v:,}" + (f" ({v / row['ours']:.2f})" if e != "ours" else "") for e, v in row.items()]
            print(f"  {title}: " + ", ".join(parts))
    elif cg:
        print(f"\ncallgrind: {cg}")
    return 0


def _openspiel_version():
    try:
        from importlib.metadata import version
        return version("open_spiel")
    except Exception:
        return "installed"


if __name__ == "__main__":
    sys.exit(main())
