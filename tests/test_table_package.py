"""The package ``p2pcards.table``: its helper modules never import the machine, and the deck
cycle's copy is what a trial ``action`` changes while the table stays as it is."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from attacks import Driver, play_body
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toy_games import CLAIM, registered

from p2pcards.games.base import GameError
from p2pcards.table import KINDS
from p2pcards.table.machine import KIND_RULES

TABLE = Path(__file__).resolve().parent.parent / "p2pcards" / "table"


def _imported(path: Path) -> set[str]:
    """The modules of the package that ``path`` imports, by their name inside it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.add(node.module or "")
            if node.module is None:
                found.update(alias.name for alias in node.names)
        elif (isinstance(node, ast.ImportFrom) and node.module is not None
              and node.module.startswith("p2pcards.table")):
            found.add(node.module.removeprefix("p2pcards.table").lstrip("."))
    return found


def test_the_package_has_its_helpers() -> None:
    names = {p.stem for p in TABLE.glob("*.py")}
    assert {"__init__", "machine", "events", "errors", "keeper", "cycle", "card_use", "deal",
            "replay", "audit", "bot", "recovery", "resume", "rounds", "complaint",
            "claims"} <= names


@pytest.mark.parametrize("path", sorted(TABLE.glob("*.py")), ids=lambda p: p.name)
def test_no_helper_imports_the_machine(path: Path) -> None:
    if path.stem in ("__init__", "machine"):
        return
    assert "machine" not in _imported(path), f"{path.name} imports the machine"


def test_every_kind_has_one_row_in_the_kinds_table() -> None:
    assert tuple(KIND_RULES) == KINDS
    assert [kind for kind, row in KIND_RULES.items() if row.make is None] == ["action",
                                                                              "complain"]


def test_the_machine_builds_no_handler_name() -> None:
    source = (TABLE / "machine.py").read_text(encoding="utf-8")
    assert 'f"_on_' not in source and "getattr(self" not in source


@pytest.fixture(autouse=True)
def _toys() -> Iterator[None]:
    with registered(CLAIM):
        yield


def _window(seed: int) -> tuple[Driver, int, int]:
    """A toy-claim table run (bots never claiming) to a claim window: (driver, actor,
    claimant)."""
    driver = Driver.new("toy-claim", "classic", 3, seed, flags={"hands": 1}, bot="random")
    for bot in driver.bots:
        bot.claim = lambda observation, claims: None  # type: ignore[attr-defined]
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables) and any(
        t.claim_actions() for t in d.tables))
    actor = next(i for i, t in enumerate(driver.tables) if t.needs_decision)
    claimant = next(i for i, t in enumerate(driver.tables) if t.claim_actions())
    return driver, actor, claimant


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=1, max_value=10_000), refused=st.booleans())
def test_a_proposal_leaves_the_deck_as_it_was(seed: int, refused: bool) -> None:
    driver, actor, claimant = _window(seed)
    table = driver.tables[claimant]
    cycle = table.cycle
    assert cycle is not None
    before = cycle.copy()
    assert before == cycle and before is not cycle
    snap = table.claim_actions()[0]
    if refused:  # a body whose token proves another position: refused in the trial
        body = play_body(table, snap)
        body["position"] = next(p for p in cycle.hand_positions[claimant]
                                if p != body["position"])
        with pytest.raises(GameError):
            table._propose("action", body)
    else:
        (sent,) = table.claim(snap).outgoing
        assert table.proposal == sent
    assert table.cycle is cycle
    assert cycle == before
    assert len(cycle.actions) == len(before.actions)
