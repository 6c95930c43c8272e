"""The shape of the ``p2pcards`` package, measured from its source with ``ast`` (nothing of it is
imported or run), against the targets of a package whose layers show in its tree.

Run from the repository root::

    python benchmarks/architecture.py

Printed, each with its target:

- the loose modules at the top level of ``p2pcards/`` (not ``__init__``/``__main__``): at most 4;
- the longest class, in lines with its number of methods: at most 600 lines;
- the longest module, in lines: at most 1,000;
- the import circles (groups of modules that import each other, lazy imports inside
  functions included): none;
- the sans-IO modules that reach trio, and those that reach any I/O (trio, sockets, clocks),
  through some chain of imports, with one such chain: none.

The import graph and the list of sans-IO modules are those of ``tests/test_layers.py``, so what
is printed here is what the layer tests hold the package to.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_layers import (  # noqa: E402 - the tests folder is put on the path first
    PACKAGE,
    all_modules,
    import_circles,
    import_graph,
    io_paths,
)

LOOSE_TARGET = 4
CLASS_TARGET = 600
MODULE_TARGET = 1000

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def loose_modules() -> list[str]:
    """The modules lying at the top level of the package, outside any subpackage."""
    return sorted(p.name for p in PACKAGE.glob("*.py")
                  if p.stem not in ("__init__", "__main__"))


def classes() -> list[tuple[int, int, str]]:
    """Every class as (lines, methods, dotted name), longest first."""
    found = []
    for name, path in all_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                methods = sum(isinstance(b, FUNCTIONS) for b in node.body)
                found.append((node.end_lineno - node.lineno + 1, methods, f"{name}.{node.name}"))
    return sorted(found, reverse=True)


def modules_by_length() -> list[tuple[int, str]]:
    """Every module as (lines, dotted name), longest first."""
    return sorted(((len(p.read_text(encoding="utf-8").splitlines()), name)
                   for name, p in all_modules().items()), reverse=True)


def verdict(ok: bool) -> str:
    return "ok" if ok else "over target"


def main() -> int:
    loose = loose_modules()
    print(f"loose top-level modules: {len(loose)} (target <= {LOOSE_TARGET}, "
          f"{verdict(len(loose) <= LOOSE_TARGET)}): {' '.join(loose)}")

    lines, methods, name = classes()[0]
    print(f"longest class: {name}, {lines} lines, {methods} methods "
          f"(target <= {CLASS_TARGET}, {verdict(lines <= CLASS_TARGET)})")
    for lines, methods, name in classes()[1:4]:
        print(f"  then {name}, {lines} lines, {methods} methods")

    lines, name = modules_by_length()[0]
    print(f"longest module: {name}, {lines} lines "
          f"(target <= {MODULE_TARGET}, {verdict(lines <= MODULE_TARGET)})")
    for lines, name in modules_by_length()[1:4]:
        print(f"  then {name}, {lines} lines")

    circles = import_circles(import_graph())
    print(f"import circles: {len(circles)} (target 0, {verdict(not circles)})")
    for circle in circles:
        print(f"  {' <-> '.join(sorted(circle))}")

    chains = io_paths()
    trio = io_paths(("trio",))
    print(f"sans-IO modules reaching trio: {len(trio)} (target 0, {verdict(not trio)})")
    print(f"sans-IO modules reaching any I/O: {len(chains)} (target 0, {verdict(not chains)})")
    for chain in chains.values():
        print(f"  {' -> '.join(chain)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
