"""The language a person reads: English, Italian or Spanish, from gettext catalogs.

Every text a person reads (screens, help, prompts, errors, ``rules``, ``show``, the browser
pages) goes through :func:`_` (or :func:`pgettext` where one English word has several
meanings). The compiled catalogs ship inside the package, in ``p2pcards/locale/LANG/
LC_MESSAGES/p2pcards.mo``, and are read with the standard library's :mod:`gettext` only; they
are extracted and compiled with Babel (``tools/catalogs.py``). The protocol, the transcripts,
rule ids and ``--json`` outputs never go through here: they stay in English.

The language is one per process: ``--lang`` (:func:`choose_language`), else the locale
variables ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (the first one set, as POSIX reads them), else
English. Pure apart from reading the catalog files: no trio, sockets or clocks.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_VARIABLE",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "_",
    "choose_language",
    "english",
    "install",
    "language",
    "language_from_environment",
    "ngettext",
    "pgettext",
    "set_language",
]

DOMAIN = "p2pcards"
LANGUAGES = ("en", "it", "es")
"""The languages a face speaks; English is the source language of the catalogs."""
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
LANGUAGE_VARIABLE = "P2PCARDS_LANG"
"""Where a process that chose its language (``--lang``) leaves the choice for the processes it
starts (``p2pcards demo``'s seats), which read it as their own ``--lang``."""

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language the locale variables ask for: the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set decides (``it_IT.UTF-8`` is Italian); a language without a catalog,
    ``C`` or ``POSIX`` is English."""
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def choose_language(requested: str | None, environ: Mapping[str, str]) -> str:
    """``requested`` (``--lang``) when given, else the locale's language; a requested language
    without a catalog raises ``ValueError`` with a sentence naming the known ones."""
    if requested is None:
        return language_from_environment(environ)
    code = requested.strip().lower()
    if code not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise ValueError(f"--lang {requested!r} is not a language of p2pcards ({known})")
    return code


def install(translations: _gettext.NullTranslations, code: str) -> None:
    """Make ``translations`` the catalog every face reads from, as language ``code``."""
    global _current, _language
    _current, _language = translations, code


def set_language(code: str, localedir: Path | None = None) -> None:
    """Read the catalog of ``code`` (English: none) from ``localedir`` (the package's own by
    default) and :func:`install` it; a missing catalog file raises ``OSError``."""
    if code == "en":
        install(_gettext.NullTranslations(), "en")
        return
    catalog = _gettext.translation(DOMAIN, str(localedir or LOCALE_DIR), languages=[code])
    install(catalog, code)


@contextmanager
def english() -> Iterator[None]:
    """Within the block, every text is in English: for what stays English in every language
    (``--json`` outputs), made by the same functions that write a person's text."""
    global _current, _language
    kept = _current, _language
    _current, _language = _gettext.NullTranslations(), "en"
    try:
        yield
    finally:
        _current, _language = kept


def language() -> str:
    """The code of the language in use (``en``, ``it``, ``es``)."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _current.gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without translating it: a text kept in a table and
    translated (with :func:`_`) where it is shown."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks ``message`` for the catalogs in ``context`` without translating it (see
    :func:`pgettext`)."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, as meant in ``context`` (``"move"``, ``"card"``)."""
    return _current.pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """``singular`` or ``plural`` for ``count``, in the language in use."""
    return _current.ngettext(singular, plural, count)
