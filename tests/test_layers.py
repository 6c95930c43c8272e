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


SANS_IO = ("games", "crypto", "wire", "table", "genesis.py", "verify.py", "seating.py",
           "cards.py", "transcript.py", "evidence.py", "table_rules.py",
           "recovery_watch.py", "public_bot")


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
