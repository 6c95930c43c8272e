"""Extract, update and compile the gettext catalogs of p2pcards with Babel.

    python3 tools/catalogs.py          # p2pcards/locale/p2pcards.pot, then each LANG's .po
                                       # brought up to date and compiled to its .mo
    python3 tools/catalogs.py --check  # exit 1, naming the file, if any of them is stale

Babel reads every ``_``, ``N_``, ``pgettext``, ``NP_`` and ``ngettext`` call in the package's
source (the catalog keys), merges the new ones into ``it`` and ``es`` without losing the
translations already made, and compiles each ``.po`` to the ``.mo`` that the package ships and
reads at run time with the standard library's :mod:`gettext`. The outputs carry no dates or line
numbers, so running this twice changes nothing and a stale file shows in ``--check``.
"""

from __future__ import annotations

import argparse
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages import catalog as babel_catalog
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "p2pcards"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "p2pcards.pot"
TRANSLATED = ("it", "es")
KEYWORDS = {**DEFAULT_KEYWORDS, "NP_": ((1, "c"), 2)}
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Every catalog's header date: fixed, so that an unchanged catalog is byte for byte the same."""
sys.path.insert(0, str(ROOT))  # this tree's package, whatever else is installed
from p2pcards.cli.rules import game_texts  # noqa: E402

babel_catalog.VERSION = "(tools/catalogs.py)"
"""Babel writes its own version into every header (``Generated-By``); a fixed word instead, so
that every Babel release makes the same bytes and a fresh machine's newer Babel finds the
shipped catalogs up to date."""


def extract() -> Catalog:
    """The template: every marked text of the package's source, with its context, and the
    games' titles and preset and flag descriptions (:func:`game_texts`), which the game
    modules write as plain English data."""
    template = Catalog(project="p2pcards", creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                       fuzzy=False)
    for _name, _line, message, _comments, context in extract_from_dir(
            PACKAGE, [("**.py", "python")], keywords=KEYWORDS):
        template.add(message, None, context=context)
    for text in game_texts():
        template.add(text, None)
    return template


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, no_location=True, sort_output=True, omit_header=False,
             ignore_obsolete=True)
    return out.getvalue()


def updated(language: str, template: Catalog) -> Catalog:
    """The catalog of ``language``: its ``.po`` (if any) with the template's keys, the
    translations of kept keys unchanged, new keys untranslated."""
    path = LOCALE / language / "LC_MESSAGES" / "p2pcards.po"
    if path.exists():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=language)
    else:
        catalog = Catalog(locale=language, project="p2pcards")
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalog.creation_date = FIXED_DATE
    catalog.revision_date = FIXED_DATE
    catalog.fuzzy = False
    return catalog


def compiled(po_text: bytes, language: str) -> bytes:
    """The ``.mo`` of a ``.po``'s text (fuzzy entries left out, as gettext does)."""
    catalog = read_po(io.BytesIO(po_text), locale=language)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def outputs() -> dict[Path, bytes]:
    """Every file this tool writes, with the content it should have."""
    template = extract()
    files = {TEMPLATE: _po_bytes(template)}
    for language in TRANSLATED:
        folder = LOCALE / language / "LC_MESSAGES"
        po_text = _po_bytes(updated(language, template))
        files[folder / "p2pcards.po"] = po_text
        files[folder / "p2pcards.mo"] = compiled(po_text, language)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only say which file is stale")
    args = parser.parse_args(argv)
    stale = []
    for path, content in outputs().items():
        if path.exists() and path.read_bytes() == content:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
    for path in stale:
        verb = "is stale" if args.check else "written"
        print(f"{path.relative_to(ROOT)} {verb}", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
