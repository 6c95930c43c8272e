"""The package's layers, read from the source with ``ast``: the sans-IO core imports no trio,
sockets or clocks; the network layer imports no face and no command; faces import no command.

An import is any ``import``/``from ... import`` statement anywhere in a module (also inside a
function), resolved to an absolute module name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "p2pcards"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, as absolute dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base)
                module = f"{prefix}.{node.module}" if node.module else prefix
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _modules(*folders: str) -> list[Path]:
    out: list[Path] = []
    for folder in folders:
        target = PACKAGE / folder
        out.extend(sorted(target.rglob("*.py")) if target.is_dir() else [target])
    return out


def _offending(paths: list[Path], banned: tuple[str, ...]) -> list[str]:
    bad = []
    for path in paths:
        for module in sorted(imports_of(path)):
            if any(module == b or module.startswith(b + ".") for b in banned):
                bad.append(f"{path.relative_to(PACKAGE.parent)} imports {module}")
    return bad


SANS_IO = ("games", "crypto", "wire", "table", "verify", "seating", "cards.py",
           "records/transcript.py", "records/evidence.py", "public_bot", "offline")


def test_a_resolved_relative_import_is_seen() -> None:
    found = imports_of(PACKAGE / "cli" / "demo.py")
    assert "p2pcards.cli.errors" in found and "p2pcards.faces.terminal" in found


@pytest.mark.parametrize("folder", SANS_IO)
def test_the_sans_io_core_imports_no_io(folder: str) -> None:
    assert _offending(_modules(folder), ("trio", "socket", "time", "asyncio", "selectors")) == []


def test_the_network_layer_imports_no_face_and_no_command() -> None:
    banned = ("p2pcards.faces", "p2pcards.cli", "rich")
    assert _offending(_modules("net", "relay"), banned) == []


def test_faces_import_no_command() -> None:
    assert _offending(_modules("faces"), ("p2pcards.cli",)) == []


# ----------------------------------------------------------------------------- the whole graph

IO_MODULES = ("trio", "socket", "time", "asyncio", "selectors")
"""What the sans-IO core may not reach by any chain of imports: the event loop, sockets, clocks."""

KNOWN_IO_DOORS: frozenset[str] = frozenset()
"""Modules that import I/O and that some sans-IO module reaches today; they are to be cut off
the core, and no other module may open a way to I/O."""


def all_modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _owning_module(name: str, modules: dict[str, Path]) -> str | None:
    """The package module ``name`` is or lies in (``p2pcards.table.Table`` is in
    ``p2pcards.table``), or ``None`` for a name outside the package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imported_modules(path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules ``path`` imports: ``from . import codec`` imports the submodule
    ``codec`` (its package only through the parent rule of :func:`import_graph`), ``from .table
    import Table`` the module ``table``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = imports_of_node(node, package)
            submodules = {f"{source}.{a.name}" for a in node.names} & set(modules)
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(source)
    owners = {_owning_module(module, modules) for module in found}
    return {owner for owner in owners if owner is not None and owner != name}


def import_graph(with_parents: bool = False) -> dict[str, set[str]]:
    """Which package modules each package module imports. ``with_parents`` adds the packages
    Python runs on the way (``import p2pcards.net.hub`` runs ``p2pcards/net/__init__.py``)."""
    modules = all_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = imported_modules(path, modules)
        if with_parents:
            for target in list(edges):
                parts = target.split(".")
                edges.update(".".join(parts[:i]) for i in range(1, len(parts)))
            edges.discard(name)
        graph[name] = edges
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    circles: list[frozenset[str]] = []
    for root in sorted(graph):
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
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(frozenset(group))
    return circles


def io_paths(banned: tuple[str, ...] = IO_MODULES) -> dict[str, list[str]]:
    """For every sans-IO module that reaches one of the ``banned`` top-level modules through its
    imports, one shortest chain of modules down to the first module that imports it itself."""
    modules = all_modules()
    graph = import_graph(with_parents=True)
    core = {m for m in modules if any(_module_name(p) == m for p in _modules(*SANS_IO))}
    found: dict[str, list[str]] = {}
    for start in sorted(core):
        chains = {start: [start]}
        queue = [start]
        while queue:
            node = queue.pop(0)
            if any(m.split(".")[0] in banned for m in imports_of(modules[node])):
                found[start] = chains[node]
                break
            for nxt in sorted(graph[node]):
                if nxt not in chains:
                    chains[nxt] = [*chains[node], nxt]
                    queue.append(nxt)
    return found


def test_the_graph_sees_lazy_and_package_imports() -> None:
    graph = import_graph(with_parents=True)
    assert "p2pcards.cli.play" in graph["p2pcards.cli"]  # imported inside a function
    assert "p2pcards.wire" in graph["p2pcards.wire.chain"]  # the package runs first
    plain = import_graph()
    assert {"p2pcards.wire.envelope", "p2pcards.wire.errors"} <= plain["p2pcards.wire.chain"]
    assert "p2pcards.wire" not in plain["p2pcards.wire.chain"]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})]


def test_no_sans_io_module_reaches_io_through_any_chain_of_imports() -> None:
    chains = io_paths()
    new = {start: " -> ".join(chain) for start, chain in chains.items()
           if chain[-1] not in KNOWN_IO_DOORS}
    assert new == {}
    doors = {chain[-1] for chain in chains.values()}
    assert doors == KNOWN_IO_DOORS, "a known way to I/O is cut: drop it from the list"


def test_no_import_circle() -> None:
    assert import_circles(import_graph()) == []


def _private_imports(path: Path, modules: dict[str, Path]) -> list[str]:
    """The names starting with ``_`` that ``path`` takes from another module (a private
    submodule of the importer's own package, like ``from . import _wire``, is allowed, and so
    is ``_`` itself, the translation function of :mod:`p2pcards.i18n` by gettext's custom)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        for alias in node.names:
            if alias.name == "_" or not alias.name.startswith("_") or alias.name.startswith("__"):
                continue
            source = imports_of_node(node, package)
            if source == package and f"{source}.{alias.name}" in modules:
                continue
            bad.append(f"{name} takes {alias.name} from {source}")
    return bad


def imports_of_node(node: ast.ImportFrom, package: str) -> str:
    """The absolute module a ``from ... import`` statement in ``package`` names."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    prefix = ".".join(base[: len(base) - (node.level - 1)])
    return f"{prefix}.{node.module}" if node.module else prefix


KNOWN_PRIVATE_IMPORTS: frozenset[str] = frozenset()
"""Private names taken across modules today, to be made public where they are defined."""


def test_no_module_imports_another_modules_private_names() -> None:
    modules = all_modules()
    taken = {line for path in modules.values() for line in _private_imports(path, modules)}
    assert taken - KNOWN_PRIVATE_IMPORTS == set()
    assert taken == KNOWN_PRIVATE_IMPORTS, "a known private import is gone: drop it from the list"


def test_few_modules_lie_loose_at_the_top_of_the_package() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__"))
    assert len(loose) <= 4, f"modules at the top of p2pcards/ belong in a package: {loose}"
