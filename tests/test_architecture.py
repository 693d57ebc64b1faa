"""The engine's shape (DESIGN.md "Target shape"): imports go one way, top to bottom —
cli / web / adapters / agents / scenarios -> engine -> build -> dsl / model -> loading (and
the shared errors and limits) — and no module is too large to read without a reason given at
its top."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "interpreter"
LAYERS = [  # lowest first; a module may import its own layer or a lower one
    {"interpreter.errors", "interpreter.limits", "interpreter.loading"},
    {"interpreter.model", "interpreter.dsl"},
    {"interpreter.build"},
    {"interpreter.engine"},
    {"interpreter.agents", "interpreter.adapters", "interpreter.scenario", "interpreter.cli", "interpreter.web",
     "interpreter"},
]


def _layer(module: str) -> int:
    best = None
    for i, names in enumerate(LAYERS):
        for n in names:
            if module == n or module.startswith(n + "."):
                if best is None or len(n) > len(best[1]):
                    best = (i, n)
    return best[0] if best else len(LAYERS) - 1


def _modules():
    for p in sorted(ROOT.rglob("*.py")):
        rel = p.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield p, ".".join(parts)


def _imports(path: Path, module: str, package: str):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [f"{target}.{a.name}" for a in node.names]
            for t in [target] + names:
                if t.startswith("interpreter"):
                    yield node.lineno, t
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("interpreter"):
                    yield node.lineno, a.name


def test_imports_go_one_way():
    known = {m for _, m in _modules()}
    bad = []
    for path, module in _modules():
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for line, target in _imports(path, module, package):
            if target not in known and target.rsplit(".", 1)[0] in known:
                target = target.rsplit(".", 1)[0]  # a name imported from a module
            if target == "interpreter":
                continue
            if _layer(target) > _layer(module):
                bad.append(f"{path.relative_to(ROOT.parent)}:{line}: {module} imports {target}")
    assert not bad, "\n".join(bad)


def test_no_module_is_too_large_without_a_reason():
    big = []
    for path, module in _modules():
        text = path.read_text()
        lines = text.count("\n")
        doc = ast.get_docstring(ast.parse(text)) or ""
        if lines > 420 and "Why this module is large" not in doc:
            big.append(f"{path.relative_to(ROOT.parent)}: {lines} lines")
    assert not big, "\n".join(big)


def test_the_engine_map_names_every_core_module_and_only_modules_that_exist():
    """docs/engine.md, the newcomer's map: every module of the core layers (loading, model, dsl,
    build, engine, and the shared errors and limits) is named there by its path, and every path
    it names exists (a module added, moved or removed updates the map)."""
    import re

    text = (ROOT.parent / "docs" / "engine.md").read_text()
    named = set(re.findall(r"`(interpreter/[\w/]+(?:\.py|/))`", text))
    missing = [p for p in sorted(named) if not (ROOT.parent / p).exists()]
    assert not missing, f"docs/engine.md names what does not exist: {missing}"
    core = ("loading", "model", "dsl", "build", "engine")
    unnamed = []
    for path, module in _modules():
        rel = path.relative_to(ROOT.parent).as_posix()
        parts = module.split(".")
        if path.name == "__init__.py" and rel != "interpreter/scenario.py":
            continue
        if (len(parts) > 2 and parts[1] in core) or rel in ("interpreter/errors.py", "interpreter/limits.py",
                                                            "interpreter/scenario.py"):
            if rel not in named:
                unnamed.append(rel)
    assert not unnamed, f"docs/engine.md does not say where these live: {unnamed}"
