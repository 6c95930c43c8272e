"""The rule ids the code can raise are exactly the ones the protocol and docs/verify.md name.

The ids are read from the package source with :mod:`ast` (never from a hand list): the first
argument of every ``Violation(...)`` and ``IllegalMove(...)`` call, string literals assigned to
``rule`` or passed for a parameter named ``rule``, the default of ``getattr(exc, "rule", ...)``,
and the kebab-cased names of the chain errors (``WrongSequence`` -> ``wrong-sequence``), which
the table turns into rule ids.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from pathlib import Path

from p2pcards.games import GAME_MODULES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "p2pcards"
GAMES = PACKAGE / "games"
SPEC = ROOT / "protocol" / "SPEC.md"
VERIFY_DOC = ROOT / "docs" / "verify.md"
GAME_DOCS = ROOT / "protocol" / "games"
RULE = re.compile(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z]+)`")


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"-\1", name).lower()


def _rule_params(tree: ast.Module) -> dict[str, int]:
    """Functions with a parameter named ``rule``: name -> its positional index (self dropped)."""
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names = [a.arg for a in node.args.args]
            if "rule" in names:
                offset = 1 if names and names[0] in ("self", "cls") else 0
                out[node.name] = names.index("rule") - offset
    return out


def rules_in(path: Path) -> set[str]:
    """Every rule id that the module at ``path`` can raise."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    params = _rule_params(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if name in ("Violation", "IllegalMove") and node.args:
                found.update(_literals(node.args[0]))
            if name in params and name not in ("Violation", "IllegalMove"):
                index = params[name]
                if 0 <= index < len(node.args):
                    found.update(_literals(node.args[index]))
                for kw in node.keywords:
                    if kw.arg == "rule":
                        found.update(_literals(kw.value))
            if name == "getattr" and len(node.args) == 3 and _literals(node.args[1]) == ["rule"]:
                found.update(_literals(node.args[2]))
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "rule" for t in node.targets):
            found.update(_literals(node.value))
    return found


def chain_rules() -> set[str]:
    """The chain errors of wire/chain.py, as the rule ids the table gives them."""
    tree = ast.parse((PACKAGE / "wire" / "chain.py").read_text(encoding="utf-8"))
    errors = {"ChainError"}
    changed = True
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    while changed:
        changed = False
        for cls in classes:
            bases = {b.id for b in cls.bases if isinstance(b, ast.Name)}
            if cls.name not in errors and bases & errors:
                errors.add(cls.name)
                changed = True
    errors.discard("ChainError")
    return {_kebab(name) for name in errors}


@functools.cache
def core_rules() -> frozenset[str]:
    """Rule ids raised outside the game modules (base.py's included: it serves every game)."""
    found = chain_rules()
    for path in PACKAGE.rglob("*.py"):
        if path.parent == GAMES and path.name != "base.py":
            continue
        found |= rules_in(path)
    return frozenset(found)


@functools.cache
def game_rules() -> dict[str, set[str]]:
    out = {}
    for path in sorted(GAMES.glob("*.py")):
        if path.name in ("base.py", "__init__.py"):
            continue
        ids = rules_in(path)
        if ids:
            out[path.stem] = ids
    return out


def game_names(module: str) -> list[str]:
    """The module's stem and the game names its ``SPECS`` register (the files may use either);
    a module beside a game's own (``rumino_turns`` beside ``rumino``) has that game's names."""
    names = [module, *SHARED.get(module, ())]
    mod = importlib.import_module(f"p2pcards.games.{module}")
    names += [spec.name for spec in getattr(mod, "SPECS", ())]
    owner = next((game for game in GAME_MODULES if module.startswith(f"{game}_")), None)
    return names + game_names(owner) if owner is not None else names


SHARED = {"banking": ("sette-e-mezzo", "ziginette")}
"""Engine modules that define no game of their own but raise rule ids for several: their ids must
be named in every one of those games' files."""


def _section(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i:text.index(end, i + len(start))]


def _table_ids(text: str) -> set[str]:
    """The ids named in the first column of the markdown table rows of ``text``."""
    ids: set[str] = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            ids.update(RULE.findall(first))
    return ids


def test_the_extractor_finds_known_rules() -> None:
    core = core_rules()
    assert {"bad-signature", "bad-envelope", "fork", "genesis-mismatch", "replay", "equivocation",
            "wrong-sequence", "bad-forwarded-token", "illegal-move", "no-claim"} <= core
    assert "must-capture" in game_rules()["scopa"]
    assert "must-follow-suit" in game_rules()["tressette"]


def test_spec_violation_table_names_exactly_the_core_rules() -> None:
    spec = SPEC.read_text(encoding="utf-8")
    table = _section(spec, "### 9.8 Violations", "#### 9.8.1")
    named = _table_ids(table)
    assert named == core_rules(), (
        f"missing from SPEC §9.8: {sorted(core_rules() - named)}; "
        f"not raised by the code: {sorted(named - core_rules())}")


def test_engine_rules_are_in_spec_or_in_the_game_file() -> None:
    spec = SPEC.read_text(encoding="utf-8")
    engine_table = _table_ids(_section(spec, "#### 9.8.1", "### 9.9"))
    expected: set[str] = set()
    for game, ids in game_rules().items():
        own = [GAME_DOCS / f"{name}.md" for name in game_names(game)]
        own = [path for path in own if path.exists()]
        if own and game in SHARED:
            for path in own:
                named = set(RULE.findall(path.read_text(encoding="utf-8")))
                assert ids <= named, f"{path.name} does not name {sorted(ids - named)}"
        elif own:
            named = set().union(*(RULE.findall(p.read_text(encoding="utf-8")) for p in own))
            assert ids <= named, f"{own[0].name} does not name {sorted(ids - named)}"
        else:
            expected |= ids
    assert engine_table == expected, (
        f"missing from SPEC §9.8.1: {sorted(expected - engine_table)}; "
        f"not raised by a game without its own file: {sorted(engine_table - expected)}")


def test_docs_verify_names_exactly_the_core_rules() -> None:
    doc = VERIFY_DOC.read_text(encoding="utf-8")
    table = _section(doc, "**Rule names.**", "Some broken links name")
    assert "§9.8" in table
    assert _table_ids(table) == core_rules()


OUTLINE = re.compile(r"^## (\d+)\. ", re.MULTILINE)


def test_game_files_follow_the_outline() -> None:
    """protocol/games/README.md: every game file has the eight numbered sections, in order."""
    files = [p for p in sorted(GAME_DOCS.glob("*.md")) if p.name != "README.md"]
    assert files
    for path in files:
        numbers = [int(n) for n in OUTLINE.findall(path.read_text(encoding="utf-8"))]
        assert numbers == list(range(1, 9)), f"{path.name} has sections {numbers}"
