"""Plain-text descriptions of the games, presets and flags, for ``p2pcards rules``.

Pure formatting over the game registry: no I/O.
"""

from __future__ import annotations

from ..games import all_games, get_game
from ..games.base import GameSpec


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
    lines = ["Games (p2pcards rules GAME for presets and flags):", ""]
    width = max(len(spec.name) for spec in all_games())
    counts = max(len(_counts(spec.player_counts)) for spec in all_games())
    for spec in all_games():
        lines.append(
            f"  {spec.name:<{width}}  {_counts(spec.player_counts):<{counts}} players  "
            f"presets: {', '.join(spec.presets)}  -  {spec.title}"
        )
    return lines


def describe_game(name: str) -> list[str]:
    """Everything a player needs to pick a variant of one game by name."""
    spec: GameSpec = get_game(name)
    lines = [
        f"{spec.name}: {spec.title}",
        f"  players: {_counts(spec.player_counts)}    rule text: {spec.rules_source}",
        "",
        "Presets (--variant NAME):",
    ]
    for preset in spec.presets:
        default = " (default)" if preset == spec.default_preset else ""
        lines.append(
            f"  {preset}{default}  [{_counts(spec.preset_players(preset))} players]  "
            f"{spec.preset_docs.get(preset, '')}"
        )
        overrides = {k: v for k, v in spec.presets[preset].items() if k not in spec.RESERVED}
        if overrides:
            shown = ", ".join(f"{k}={_value(v)}" for k, v in overrides.items())
            lines.append(f"      sets: {shown}")
    lines += ["", "Flags (name, default, choices: description; "
                  "house rules: host --set NAME=VALUE):"]
    for flag in spec.flags:
        choices = f" [{' | '.join(_value(c) for c in flag.choices)}]" if flag.choices else ""
        lines.append(f"  {flag.name} = {_value(flag.default)}{choices}: {flag.description}")
    return lines
