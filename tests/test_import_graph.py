"""The project's modules import each other without cycles, and arrows point down the layers (README "Layout"):
yaksa -> programs, metrics, retrievers; metrics -> programs, signatures, retrievers; programs -> signatures,
retrievers; bench uses the packages but no test helpers. Every ``import`` counts, also those inside functions."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("yaksa", "programs", "signatures", "retrievers", "metrics")
MAY_IMPORT = {
    "yaksa": {"yaksa", "programs", "metrics", "retrievers", "signatures"},
    "metrics": {"metrics", "programs", "signatures", "retrievers"},
    "programs": {"programs", "signatures", "retrievers"},
    "signatures": {"signatures"},
    "retrievers": {"retrievers"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules `path` imports (``from a import b`` counts as a.b when a.b is a module, else as a)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            sub = [f"{node.module}.{a.name}" for a in node.names]
            names = [n if n in modules else node.module for n in sub]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    return out


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    modules = set(files)
    return {m: imports(p, modules) - {m} for m, p in files.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_among_the_projects_modules():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_point_down_the_layers():
    wrong = [
        f"{m} imports {t}"
        for m, targets in graph().items()
        for t in targets
        if t.split(".")[0] not in MAY_IMPORT[m.split(".")[0]]
    ]
    assert wrong == []


def test_bench_does_not_import_the_tests():
    users = [p.name for p in (ROOT / "bench").glob("*.py") if "tests." in p.read_text(encoding="utf-8")]
    assert users == []
