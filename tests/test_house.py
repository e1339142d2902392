"""The house's import rules (proxy/__init__.py, docs/architecture.md): each package of
``proxy`` imports only the packages below it, and no module imports itself back at run
time or in annotations. The checks read the sources, so they see imports inside functions too."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.source_imports import absolute_imports

ROOT = Path(__file__).resolve().parent.parent
PROXY = ROOT / "proxy"
# Lowest first; a package may import those before it. engine is below all of them.
LAYERS = ("protocol", "codec", "windows", "accounts", "config", "agent", "connection", "network", "server",
          "dashboard", "operations", "testing")


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def imports(path: Path, *, runtime_only: bool) -> Iterator[str]:
    """The proxy modules ``path`` imports (``from proxy.x import y`` names both x and x.y)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    if runtime_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skip.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == "proxy")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "proxy":
                yield node.module
                yield from (f"{node.module}.{a.name}" for a in node.names)


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def proxy_modules() -> dict[str, Path]:
    return {module_name(p): p for p in PROXY.rglob("*.py")}


def test_every_proxy_module_belongs_to_a_layer() -> None:
    assert [m for m in proxy_modules() if m != "proxy" and layer(m) is None] == []


def test_packages_import_only_the_packages_below_them() -> None:
    known = proxy_modules()
    upward = []
    for name, path in known.items():
        mine = layer(name)
        for target in imports(path, runtime_only=False):
            theirs = layer(target) if target in known else None
            if mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{name} -> {target}")
    assert upward == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def graph(runtime_only: bool) -> dict[str, set[str]]:
    known = proxy_modules()
    return {name: {t for t in imports(path, runtime_only=runtime_only) if t in known and t != name}
            for name, path in known.items()}


def test_no_import_circle_at_run_time() -> None:
    assert cycles(graph(runtime_only=True)) == []


def test_no_import_circle_even_in_annotations() -> None:
    # A phase that names Connection in an annotation is a circle too: it would need the core
    # to be read. The phases see the connection through proxy.connection.seams.
    assert cycles(graph(runtime_only=False)) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# The sans-IO part of the proxy: the wire, the codecs, the window sequencer and one
# connection's core with its phases. The Twisted side is the legs, the server and operations.
SANS_IO = ("proxy/protocol", "proxy/codec", "proxy/windows", "proxy/connection/core.py",
           "proxy/connection/seams.py", "proxy/connection/login.py", "proxy/connection/play.py",
           "proxy/connection/actuator.py", "proxy/connection/signed_chat_relay.py",
           "proxy/connection/forwarding.py", "proxy/connection/profile.py",
           "proxy/connection/upstream_encryption.py")


def test_the_connection_core_and_below_never_import_twisted_or_quarry() -> None:
    offenders = []
    for place in SANS_IO:
        target = ROOT / place
        for path in sorted(target.rglob("*.py")) if target.is_dir() else [target]:
            offenders += [f"{path.relative_to(ROOT)}: {name}" for name in absolute_imports(path)
                          if name.split(".")[0] in ("twisted", "quarry")]
    assert offenders == []
