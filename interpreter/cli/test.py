"""`lotr-rules test`: run YAML rule scenarios (docs/scenarios.md)."""
from __future__ import annotations

from pathlib import Path

from .common import UsageError, game_dir, game_dirs, load, read_text


def _game_of(path: Path) -> Path | None:
    """The game folder a scenario file belongs to: the nearest folder above it holding game.yaml."""
    for folder in path.resolve().parents:
        if (folder / "game.yaml").is_file():
            return folder
    return None


def _scenario_files(game_dir: Path, mods) -> list[Path]:
    """The scenarios `test` runs for a game: with --mod, each named mod's own scenarios (their
    files name the mods they need); without, the game's and each of its mods' own, as
    `validate` checks the game and each of its mods."""
    from ..loading.mods import resolve_mod_dir

    if mods:
        folders = [resolve_mod_dir(m, game_dir) for m in mods]
    else:
        folders = [game_dir] + sorted(m.parent for m in game_dir.glob("mods/*/mod.yaml"))
    return [f for d in folders for f in sorted(d.glob("scenarios/*.yaml"))]


def run(args) -> int:
    """`test GAME [FILE...]`, `test GAMES_FOLDER`, or `test FILE...` (each file's game is the
    folder above it that holds game.yaml; a mod's scenarios name their mod themselves). Exit 0
    when all pass, 1 when one fails, 2 for a game or file that is not there."""
    from ..scenario import ScenarioFailure, load_scenarios, run_scenario

    if args.game.endswith((".yaml", ".yml")) and Path(args.game).is_file():
        args.files = [args.game, *args.files]
        root = _game_of(Path(args.game))
        if root is None:
            raise UsageError(f"{args.game}: no game.yaml in a folder above it")
        args.game = str(root)
    dirs = game_dirs(args.game)
    if not any((d / "game.yaml").is_file() for d in dirs):
        game_dir(args.game)  # says what is there instead, with a did-you-mean
    if args.files and len(dirs) > 1:
        raise UsageError("scenario files go with one game, not a folder of games")
    for f in args.files:
        read_text(f, "scenario file")  # there, a file, UTF-8: else a usage error before anything runs
    passed = failed = 0
    for d in dirs:
        game = load(str(d), mods=args.mod)
        files = [Path(p) for p in args.files] if args.files else _scenario_files(d, args.mod)
        for f in files:
            try:
                cases = list(load_scenarios(f))
            except ScenarioFailure as exc:
                print(f"FAIL {exc}")
                failed += 1
                continue
            for sc, src, path in cases:
                try:
                    run_scenario(game, sc, src, path)
                    passed += 1
                except ScenarioFailure as exc:
                    print(f"FAIL {exc}")
                    failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
