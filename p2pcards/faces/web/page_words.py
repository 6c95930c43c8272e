"""The browser page's own words, and the module that hands them to its script.

The page's script (``static/app.js``, ``static/layouts.js``) writes its fixed texts through
``t("...")`` from ``words.js``, a module the server makes for each page (:func:`words_module`)
from the same gettext catalogs as every other face: each text below, in the language of the
process. A text the script passes to ``t`` that is not listed here stays English; the pseudo
catalog test reads the script for every ``t("...")`` and checks that each is listed. Everything
else on the page (the log, the moves, the zones' labels and contents) comes from the server
already in the person's language. Pure.
"""

from __future__ import annotations

import json

from ...i18n import N_, _, language

__all__ = ["PAGE_WORDS", "page_catalog", "words_module"]

PAGE_WORDS = (
    N_("you may claim out of turn"), N_("let it pass"), N_("play {card}: choose what it takes"),
    N_("another card"), N_("your moves"), N_("play the selected move"),
    N_("choose an amount from {low} to {high}"), N_("hands"), N_("your hand"), N_("seat {seat}"),
    N_("you"), N_("partner"), N_("opponent"), N_("played by the bot"), N_("{count} cards"),
    N_("1 card"), N_("match"), N_("chips"), N_("bet {amount}"), N_("hand {number}"),
    N_("points"), N_("log"), N_("the match is over"), N_("transcript: "), N_("start"),
    N_("◀◀ hand"), N_("◀ step"), N_("step ▶"), N_("hand ▶▶"), N_("end"),
    N_("step {number} of {count}"), N_("{game} · hand {number}"), N_("your move"),
    N_("a claim is open to you"), N_("{who} to play"), N_("{time} left"),
    N_("waiting for {who}"), N_("the connection to your peer is closed"),
    N_("connecting to your peer…"), N_("recorded match"), N_("on the table"), N_("stock"),
    N_("captured"), N_("scope"), N_("last capture"), N_("trick"), N_("briscola"),
    N_("suit {suit}"), N_("card points"), N_("hands won"), N_("your partner's cards"),
    N_("last trick"), N_("cards taken"), N_("declarations"), N_("series after 1 match"),
    N_("series after {count} matches"), N_("won"), N_("play again?"), N_("play again"),
    N_("no thanks"),
)
"""Every fixed text of the page's script."""


def page_catalog() -> dict[str, str]:
    """Each text of :data:`PAGE_WORDS` in the language in use, by its English text."""
    return {text: _(text) for text in PAGE_WORDS}


def words_module() -> str:
    """The ``words.js`` module of the page: the catalog, the language's code, and ``t(text,
    values)``, which looks a text up and fills its ``{placeholders}``."""
    return (f"const WORDS = {json.dumps(page_catalog(), ensure_ascii=False)};\n"
            f"export const LANG = {json.dumps(language())};\n"
            "export function t(text, values = {}) {\n"
            "  let out = Object.prototype.hasOwnProperty.call(WORDS, text) ? WORDS[text] : text;\n"
            "  for (const [key, value] of Object.entries(values)) "
            "out = out.split(`{${key}}`).join(String(value));\n"
            "  return out;\n"
            "}\n")
