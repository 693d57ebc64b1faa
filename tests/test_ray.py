"""`simulate --backend ray` and `tournament --backend ray`: the same batches of seeds as Ray tasks,
on a local Ray started by the test, give exactly the results of the process pool."""
from __future__ import annotations

import json

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'lotr-rules[ray]')")

from interpreter import load_game  # noqa: E402
from interpreter.cli import build_parser, simulate, tournament  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def _args(command, argv):
    return build_parser().parse_args([command, *argv])


def _count_ray_tasks(monkeypatch) -> list:
    """Wrap ray.remote so that the tasks sent to Ray are counted: the games really ran there."""
    sent = []
    real_remote = ray.remote

    def remote(*a, **kw):
        wrap = real_remote(*a, **kw)

        def decorate(fn):
            task = wrap(fn)

            class Counted:
                def remote(self, *args):
                    sent.append(args)
                    return task.remote(*args)
            return Counted()
        return decorate

    monkeypatch.setattr(ray, "remote", remote)
    return sent


def test_ray_simulate_gives_the_process_pool_results(local_ray, monkeypatch):
    g = load_game("duel")
    seeds = list(range(5, 15))
    sent = _count_ray_tasks(monkeypatch)
    by_ray = simulate.simulate(g, ["greedy:1", "random"], seeds, {}, [], None, workers=2, backend="ray", stats=True)
    assert sorted(s for (task,) in sent for s in task[2]) == seeds  # every game was a Ray task's
    by_pool = simulate.simulate(g, ["greedy:1", "random"], seeds, {}, [], None, workers=2, backend="process", stats=True)
    assert [r["seed"] for r in by_ray] == seeds
    assert by_ray == by_pool


def test_ray_simulate_command_json_matches(local_ray, capsys, monkeypatch):
    argv = ["confrontation", "--games", "16", "--agents", "random", "--stats", "--json", "--workers", "2"]
    sent = _count_ray_tasks(monkeypatch)
    assert simulate.run(_args("simulate", argv + ["--backend", "ray"])) == 0
    assert sum(len(task[2]) for (task,) in sent) == 16
    a = json.loads(capsys.readouterr().out)
    assert simulate.run(_args("simulate", argv)) == 0
    b = json.loads(capsys.readouterr().out)
    assert a["backend"] == "ray" and b["backend"] == "process"
    for k in ("seconds", "games_per_second", "actions_per_second", "backend"):
        a.pop(k)
        b.pop(k)
    assert a == b


def test_ray_tournament_matches(local_ray, capsys):
    argv = ["tools/bench_games/tic_tac_toe", "--agents", "random,mcts:20", "--games", "6", "--json", "--workers", "2"]
    assert tournament.run(_args("tournament", argv + ["--backend", "ray"])) == 0
    a = json.loads(capsys.readouterr().out)
    assert tournament.run(_args("tournament", argv)) == 0
    b = json.loads(capsys.readouterr().out)
    assert a["pairs"] == b["pairs"] and a["standings"] == b["standings"]


def test_ray_worker_error_reaches_the_caller(local_ray):
    """An error inside a Ray task is raised here as itself (not wrapped by Ray), as with the pool."""
    g = load_game("duel")
    with pytest.raises(ValueError, match="unknown agent 'no-such-agent'"):
        simulate.simulate(g, ["no-such-agent", "random"], [1], {}, [], None, backend="ray")
