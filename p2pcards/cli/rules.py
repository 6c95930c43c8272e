"""Plain-text descriptions of the games, presets and flags, for ``p2pcards rules``.

Pure formatting over the game registry: no I/O.
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
            + f"  -  {spec.title}"
        )
    return lines


def describe_game(name: str) -> list[str]:
    """Everything a player needs to pick a variant of one game by name."""
    spec: GameSpec = get_game(name)
    lines = [
        f"{spec.name}: {spec.title}",
        "  " + _("players: {counts}    rule text: {source}").format(
            counts=_counts(spec.player_counts), source=spec.rules_source),
        "",
        _("Presets (--variant NAME):"),
    ]
    for preset in spec.presets:
        default = _(" (default)") if preset == spec.default_preset else ""
        players = _("[{counts} players]").format(counts=_counts(spec.preset_players(preset)))
        lines.append(f"  {preset}{default}  {players}  {spec.preset_docs.get(preset, '')}")
        overrides = {k: v for k, v in spec.presets[preset].items() if k not in spec.RESERVED}
        if overrides:
            shown = ", ".join(f"{k}={_value(v)}" for k, v in overrides.items())
            lines.append("      " + _("sets: {flags}").format(flags=shown))
    lines += ["", _("Flags (name, default, choices: description; "
                    "house rules: host --set NAME=VALUE):")]
    for flag in spec.flags:
        choices = f" [{' | '.join(_value(c) for c in flag.choices)}]" if flag.choices else ""
        lines.append(f"  {flag.name} = {_value(flag.default)}{choices}: {flag.description}")
    return lines
