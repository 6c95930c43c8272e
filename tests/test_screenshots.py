"""The user guide's Italian screenshots are what the program prints now: each is captured
again from a real run of ``p2pcards`` (``tools/screenshots.py``, the same capture that wrote
them) and compared with the guide, so that they cannot go stale; every screenshot stands in
English beside its Italian one."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import screenshots  # noqa: E402


def guide_shots() -> dict[tuple[str, str], str]:
    return screenshots.in_guide(screenshots.GUIDE.read_text(encoding="utf-8"))


def test_every_screenshot_is_in_the_guide_in_english_and_in_italian() -> None:
    expected = {(name, language) for name in screenshots.SHOTS
                for language in screenshots.LANGUAGES}
    assert set(guide_shots()) == expected


def test_the_guides_italian_screenshots_are_what_the_program_prints() -> None:
    shown = guide_shots()
    taken = screenshots.captures(languages=("it",))
    stale = [name for (name, _), shot in taken.items() if shown.get((name, "it")) != shot]
    assert stale == [], "run python3 tools/screenshots.py: stale " + ", ".join(stale)
    assert "tocca a te" in taken["match", "it"] and "gioca " in taken["match", "it"]
    assert "Varianti (--variant NOME):" in taken["rules", "it"]
    assert "posto 0 (seat0): gioca " in taken["show", "it"]
