"""Random playouts of LOTR Risk with the invariants of tests/test_risk.py checked after every action.

    python tools/risk_playouts.py [SEEDS]      # default 500 seeds for each of 2, 3 and 4 players
"""
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from interpreter import load_game  # noqa: E402
from test_risk import playout  # noqa: E402


def main(seeds: int) -> int:
    game = load_game("risk")
    for players in (2, 3, 4):
        t = time.perf_counter()
        wins, lengths = Counter(), []
        for seed in range(seeds):
            st = playout(game, seed, players)
            wins[" and ".join(st.winners)] += 1
            lengths.append(len(st.history))
        dt = time.perf_counter() - t
        print(f"{players} players: {seeds} games, invariants held after every action; "
              f"{sum(lengths) / seeds:.0f} actions per game; {seeds / dt:.1f} games/s; wins {dict(wins)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
