"""Plain-text descriptions of the games, presets and flags, for ``p2pcards rules``.

Pure formatting over the game registry: no I/O. The games' own texts (titles, preset and flag
descriptions) are written in English in the game modules; :func:`game_texts` hands them to the
catalogs (``tools/catalogs.py``) and :func:`said` shows them in the language in use.
"""

from __future__ import annotations

from ..games import all_games, get_game
from ..games.base import GameSpec
from ..i18n import _


def _counts(counts: tuple[int, ...]) -> str:
    """Player counts as people write them: ``4``, ``3, 4``, ``2-8`` for a run of three or more."""
    parts: list[str] = []
    i = 0
    while i < len(counts):
        j = i
        while j + 1 < len(counts) and counts[j + 1] == counts[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{counts[i]}-{counts[j]}")
        else:
            parts.extend(str(c) for c in counts[i:j + 1])
        i = j + 1
    return ", ".join(parts)


def game_texts() -> list[str]:
    """Every text of the game registry a person reads in ``rules``, in registry order, each
    once: the games' titles, their presets' descriptions and their flags' descriptions."""
    texts: list[str] = []
    for spec in all_games():
        texts.append(spec.title)
        texts.extend(spec.preset_docs.get(preset, "") for preset in spec.presets)
        texts.extend(flag.description for flag in spec.flags)
    return list(dict.fromkeys(text for text in texts if text))


def said(text: str) -> str:
    """A text of :func:`game_texts` in the language in use (an empty text stays empty)."""
    return _(text) if text else text


def _value(value: object) -> str:
    code = getattr(value, "code", None)
    if isinstance(code, str):
        return code
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def list_games() -> list[str]:
    """One line per game: name, player counts, presets, title."""
    lines = [_("Games (p2pcards rules GAME for presets and flags):"), ""]
    width = max(len(spec.name) for spec in all_games())
    counts = max(len(_counts(spec.player_counts)) for spec in all_games())
    for spec in all_games():
        lines.append(
            f"  {spec.name:<{width}}  {_counts(spec.player_counts):<{counts}} "
            + _("players  presets: {presets}").format(presets=", ".join(spec.presets))
            + f"  -  {said(spec.title)}"
        )
    return lines


def describe_game(name: str) -> list[str]:
    """Everything a player needs to pick a variant of one game by name."""
    spec: GameSpec = get_game(name)
    lines = [
        f"{spec.name}: {said(spec.title)}",
        "  " + _("players: {counts}    rule text: {source}").format(
            counts=_counts(spec.player_counts), source=spec.rules_source),
        "",
        _("Presets (--variant NAME):"),
    ]
    for preset in spec.presets:
        default = _(" (default)") if preset == spec.default_preset else ""
        players = _("[{counts} players]").format(counts=_counts(spec.preset_players(preset)))
        lines.append(f"  {preset}{default}  {players}  {said(spec.preset_docs.get(preset, ''))}")
        overrides = {k: v for k, v in spec.presets[preset].items() if k not in spec.RESERVED}
        if overrides:
            shown = ", ".join(f"{k}={_value(v)}" for k, v in overrides.items())
            lines.append("      " + _("sets: {flags}").format(flags=shown))
    lines += ["", _("Flags (name, default, choices: description; "
                    "house rules: host --set NAME=VALUE):")]
    for flag in spec.flags:
        choices = f" [{' | '.join(_value(c) for c in flag.choices)}]" if flag.choices else ""
        lines.append(f"  {flag.name} = {_value(flag.default)}{choices}: {said(flag.description)}")
    return lines
