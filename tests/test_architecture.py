"""No import circles between the modules of a folder (docs/architecture.md). Imports inside
functions count too: a lazy import back into the caller is still a circle. The circles that
remain are listed and may only shrink."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# to be broken next (docs/architecture.md "What flows where"); a new circle fails the test
KNOWN = {
    frozenset(
        f"genlint.mask.{m}"
        for m in (
            "docx", "docx_images", "docx_unmask", "files", "images", "pdf", "pdf_places",
            "pdf_unmask", "scan_pdf", "unmask",
        )
    ),
    frozenset(f"genlint.readers.{m}" for m in ("pdf_files", "pdf_forms", "pdf_objects",
                                                "pdf_places")),
    frozenset(f"genlint.readers.{m}" for m in ("image", "images_inside", "ocr", "pdf",
                                                "pdf_segments")),
}  # fmt: skip


def _graph() -> dict[str, set[str]]:
    modules: dict[str, tuple[Path, bool]] = {}
    for path in (SRC / "genlint").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if package else parts)] = (path, package)
    graph: dict[str, set[str]] = {}
    for name, (path, package) in modules.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = name.split(".") if package else name.split(".")[:-1]
                if node.level:
                    base = base[: len(base) - (node.level - 1)]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                for alias in node.names:
                    target = f"{prefix}.{alias.name}"
                    deps.add(target if target in modules else prefix)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.add(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_no_new_import_circle() -> None:
    circles = _circles(_graph())
    new = [sorted(c) for c in circles if c not in KNOWN]
    assert not new, new


def test_the_detector_sees_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})
    ]
