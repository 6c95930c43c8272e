"""What ``host`` and ``join`` print on standard output: lines for a person, or JSON events.

Every line these commands print goes through :func:`say`. By default it is the sentence itself.
With ``--json`` (:func:`use_json`) standard output is JSON Lines instead, one object per line,
in English whatever the language of the person: a notice that carries its facts
(:mod:`p2pcards.net.notices`: a ``connection:`` line, a series tally) is written as its event
(``{"event": "connection", ...}``, ``{"event": "series", ...}``); the invite and the transcripts
as ``{"event": "invite", "invite", "command"}`` and ``{"event": "transcript", "complete",
"path"}`` (:func:`event`); any other line as ``{"event": "notice", "text": ...}``. Errors stay
one sentence on standard error.
"""

from __future__ import annotations

import json
from typing import Any

from ..i18n import set_language
from ..net.notices import facts_of

__all__ = ["say", "event", "use_json", "json_events"]

_json = False


def use_json(on: bool) -> None:
    """Print JSON events (``on``) or sentences from now on; JSON events are English."""
    global _json
    _json = on
    if on:
        set_language("en")


def json_events() -> bool:
    """Whether standard output carries JSON events."""
    return _json


def say(text: str) -> None:
    """Print one line: the sentence, or with ``--json`` its event."""
    if not _json:
        print(text, flush=True)
        return
    facts = facts_of(text)
    _print_event(facts.event() if facts is not None else {"event": "notice", "text": str(text)})


def event(fields: dict[str, Any], text: str) -> None:
    """Print ``text`` for a person, or with ``--json`` the event ``fields``."""
    if _json:
        _print_event(fields)
    else:
        print(text, flush=True)


def _print_event(fields: dict[str, Any]) -> None:
    print(json.dumps(fields, ensure_ascii=False, separators=(",", ":")), flush=True)
