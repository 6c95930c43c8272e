"""The languages of the faces: the catalogs shipped up to date and complete, the language
chosen from ``--lang`` or the locale, card names as people say them, and every screen of every
game free of untranslated text (the pseudo-locale check of :mod:`languages`)."""

from __future__ import annotations

import gettext
import re

import pytest
from languages import (
    catalogs,
    play_and_render,
    pseudo,
    pseudo_translations,
    turn_screen,
    untranslated_words,
)

from p2pcards import i18n
from p2pcards.cards import FRENCH_108, ITALIAN_40, SPANISH_40, card
from p2pcards.faces.wording import action_text, card_label
from p2pcards.games import all_games
from p2pcards.games.base import Action
from p2pcards.seating.genesis import Genesis
from p2pcards.table import Table


@pytest.fixture
def language() -> object:
    """Restores English after a test that switched the language."""
    yield i18n.set_language
    i18n.set_language("en")


# ----------------------------------------------------------------------------- catalogs


def test_the_shipped_catalogs_are_those_the_source_and_the_po_files_make() -> None:
    stale = [str(path.relative_to(catalogs.ROOT)) for path, content in catalogs.outputs().items()
             if not path.exists() or path.read_bytes() != content]
    assert stale == [], "run python3 tools/catalogs.py: stale " + ", ".join(stale)


@pytest.mark.parametrize("code", ["it", "es"])
def test_every_text_has_a_translation(code: str) -> None:
    from babel.messages.pofile import read_po

    path = catalogs.LOCALE / code / "LC_MESSAGES" / "p2pcards.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=code)
    missing = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert missing == []
    placeholders = [m.id for m in catalog if m.id and m.string
                    and sorted(pseudo_placeholders(str(m.id)))
                    != sorted(pseudo_placeholders(str(m.string)))]
    assert placeholders == [], "a translation lost or added a {placeholder}"


def pseudo_placeholders(text: str) -> list[str]:
    return re.findall(r"\{[^}]*\}", text)


def test_the_catalogs_are_read_with_the_standard_library_only() -> None:
    italian = gettext.translation("p2pcards", str(i18n.LOCALE_DIR), languages=["it"])
    assert italian.gettext("your hand") == "la tua mano"
    spanish = gettext.translation("p2pcards", str(i18n.LOCALE_DIR), languages=["es"])
    assert spanish.gettext("your hand") == "tu mano"


# ----------------------------------------------------------------------------- choice


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "es_ES.UTF-8", "LC_MESSAGES": "it_IT"}, "it"),
    ({"LC_ALL": "es_AR.UTF-8", "LANG": "it_IT.UTF-8"}, "es"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "it"}, "it"),
])
def test_the_locale_variables_choose_the_language(environ: dict[str, str],
                                                  expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected
    assert i18n.choose_language(None, environ) == expected
    assert i18n.choose_language("es", environ) == "es"


def test_an_unknown_language_is_one_sentence() -> None:
    with pytest.raises(ValueError, match=r"--lang 'de' is not a language of p2pcards"):
        i18n.choose_language("de", {})


# ----------------------------------------------------------------------------- card names


def test_cards_are_named_as_people_say_them(language: object) -> None:
    i18n.set_language("it")
    assert card_label(card("7D"), ITALIAN_40) == "settebello"
    assert card_label(card("KB"), ITALIAN_40) == "Re di bastoni"
    assert card_label(card("AC"), ITALIAN_40) == "asso di coppe"
    assert card_label(card("QH1"), FRENCH_108) == "Donna di cuori"
    assert card_label(card("X3"), FRENCH_108) == "Jolly"
    assert card_label(card("7D"), SPANISH_40) == "7 di denari"
    assert action_text(Action("play", card("7D"), cards=(card("4D"), card("3D"))),
                       ITALIAN_40) == "gioca settebello [4 di denari, 3 di denari]"
    i18n.set_language("es")
    assert card_label(card("JD"), SPANISH_40) == "sota de oros"
    assert card_label(card("AC"), SPANISH_40) == "as de copas"
    assert card_label(card("QH1"), FRENCH_108) == "reina de corazones"
    assert action_text(Action("declare", cards=(card("KD"), card("QD")), value="veinte"),
                       SPANISH_40) == "cantar [rey de oros, caballo de oros] las veinte"
    i18n.set_language("en")
    assert card_label(card("7D"), ITALIAN_40) == "7D"
    assert card_label(card("KD"), SPANISH_40) == "KD Rey de Oros"
    assert action_text(Action("play", card("7D")), ITALIAN_40) == "play 7D"


# ----------------------------------------------------------------------------- every screen


GAMES = [(spec.name, min(spec.player_counts)) for spec in all_games()]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_every_screen_is_translated(game: str, players: int) -> None:
    """The pseudo-locale check: rendered with the pseudo catalog, a person's screen along a
    real hand (the table, the moves, the log, the help, the prompts, an error, the score
    breakdown, the dropout and end lines) shows no plain English word; the person's first
    turn of the same match, drawn in Italian and Spanish, shows the catalogs' words. (The
    pseudo check finds every text of the screen in the catalogs, and
    test_every_text_has_a_translation every text of the catalogs translated, so the match is
    not played again in each language.)"""
    catalog = pseudo_translations()
    turns: dict[str, str] = {}

    def draw_in_each_language(genesis: Genesis, table: Table) -> None:
        for code in ("it", "es"):
            i18n.set_language(code)
            turns[code] = turn_screen(genesis, table)
        i18n.install(catalog, "it")

    try:
        i18n.install(catalog, "it")
        screen, names = play_and_render(game, players, at_first_turn=draw_in_each_language)
    finally:
        i18n.set_language("en")
    assert pseudo("hand result") in screen and pseudo("your hand") in screen
    assert untranslated_words(screen, game, names) == []
    assert "la tua mano" in turns["it"] and "tu mano" in turns["es"]
    assert pseudo("your hand") not in turns["it"] + turns["es"]


# ----------------------------------------------------------------------------- processes


def test_a_person_plays_in_italian_with_lang_and_the_transcript_stays_english(
        tmp_path: pytest.TempPathFactory) -> None:
    from test_net_processes import Peer

    from p2pcards.verify import verify_transcript

    typed = "?\nq\nn\n1\n" + "1\n" * 6 + "q\ns\n"
    hosting = Peer(tmp_path, "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   "--lang", "it", "--game", "briscola", "--players", "2", "--bots", "1",
                   "--seed", "3", "--insecure-public-keys", stdin=typed)
    assert hosting.finish() == 130
    out = hosting.stdout
    assert "ospiti briscola (classic)" in out and "i bot prendono tutti gli altri posti" in out
    assert "tutti i posti sono presi; il tavolo " in out
    assert hosting.stderr == "p2pcards: hai lasciato il tavolo; la partita è abbandonata"
    assert "scrivi ? per le mosse e i valori delle carte di questo gioco" in out
    assert "Briscola: gioca una carta qualsiasi" in out  # the help, on ?
    assert out.count("lasciare il tavolo? la partita finisce per tutti") == 2  # s confirms
    hand = re.search(r"│ la tua mano +│ ([^│]*)│", out)
    assert hand is not None and "→ tocca a " in out
    assert " di " in hand[1] and not re.search(r"\b[A2-7JQK][DCSB]\b", hand[1])  # names
    assert "your move" not in out and "your hand" not in out
    report = verify_transcript(hosting.transcript())
    assert report.status == "incomplete"
    assert all(ch.isascii() for ch in report.game + report.preset)


def test_the_locale_chooses_spanish_for_a_process(tmp_path: pytest.TempPathFactory,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from test_net_processes import Peer

    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("P2PCARDS_LANG", raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    hosting = Peer(tmp_path, "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   "--game", "tute", "--players", "4", "--bots", "3", "--seed", "4",
                   "--insecure-public-keys", stdin="?\nq\ns\n")
    assert hosting.finish() == 130
    out = hosting.stdout
    assert "Tute (baraja española): cuatro jugadores en dos parejas." in out
    assert "│ tu mano" in out and "¿dejar la mesa?" in out
    assert "equipos: tú + " in out
    assert "eres anfitrión de tute (classic)" in out


# ----------------------------------------------------------------------------- commands


def _main_in(code: str, argv: list[str], monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``p2pcards ARGV`` run in this process with ``--lang CODE``; English again after."""
    from p2pcards import cli

    monkeypatch.setenv(i18n.LANGUAGE_VARIABLE, "en")  # restored after the test
    try:
        status = cli.main(["--lang", code, *argv])
    finally:
        i18n.set_language("en")
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_show_tells_the_match_in_italian_and_its_json_stays_english(
        tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from attacks import recorded_match, write_transcript

    run = recorded_match("scopa", "classic", 2, 1)
    path = write_transcript(tmp_path / "match.p2pt", run.genesis, run.frames)
    status, out, _ = _main_in("it", ["show", str(path)], monkeypatch, capsys)
    assert status == 0
    assert "mano 1" in out and "  risultato: " in out and "partita finita: " in out
    assert " gioca " in out and "    primiera: " in out
    assert "result:" not in out and " play " not in out
    english = _main_in("en", ["show", "--json", str(path)], monkeypatch, capsys)
    italian = _main_in("it", ["show", "--json", str(path)], monkeypatch, capsys)
    assert italian == english and '"move": "play ' in english[1]


def test_rules_speak_spanish(monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _main_in("es", ["rules", "tute"], monkeypatch, capsys)
    assert status == 0
    assert "Variantes (--variant NOMBRE):" in out and "jugadores: 4" in out
    status, out, _ = _main_in("es", ["rules"], monkeypatch, capsys)
    assert out.startswith("Juegos (p2pcards rules JUEGO para variantes y opciones):")


# ----------------------------------------------------------------------------- the page


STATIC = catalogs.PACKAGE / "faces" / "web" / "static"


def test_every_text_the_page_script_translates_is_in_the_catalogs() -> None:
    from p2pcards.faces.web.page_words import PAGE_WORDS

    pattern = re.compile(r"""\bt\("((?:[^"\\]|\\.)*)"|\bt\('((?:[^'\\]|\\.)*)'""")
    used = {double or single for script in STATIC.glob("*.js")
            for double, single in pattern.findall(script.read_text(encoding="utf-8"))}
    assert len(used) > 40
    assert sorted(used - set(PAGE_WORDS)) == []


def test_the_page_words_come_in_the_language_of_the_process(language: object) -> None:
    import json

    from p2pcards.faces.web.page_words import words_module

    i18n.set_language("it")
    module = words_module()
    words = json.loads(module.split("const WORDS = ", 1)[1].split(";\n", 1)[0])
    assert words["your moves"] == "le tue mosse" and 'export const LANG = "it";' in module
    i18n.set_language("en")
    assert json.loads(words_module().split("const WORDS = ", 1)[1].split(";\n", 1)[0])[
        "your moves"] == "your moves"


@pytest.mark.browser
def test_the_replay_page_speaks_italian(tmp_path: pytest.TempPathFactory) -> None:
    from attacks import recorded_match, write_transcript
    from browser import chromium, screenshot_dir
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from web_support import Peer

    run = recorded_match("briscola", "italian", 2, 4)
    path = write_transcript(tmp_path / "match.p2pt", run.genesis, run.frames)
    show = Peer(["--lang", "it", "show", str(path), "--web", "--no-browser"], tmp_path / "home")
    try:
        steps = int(show.wait_for(r"(\d+) steps; verified: the transcript is valid").group(1))
        url = show.wait_for(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)").group(1)
        with chromium() as driver:
            driver.get(url)
            WebDriverWait(driver, 90, poll_frequency=0.05).until(
                lambda d: d.find_elements(By.ID, "replay-position"))
            assert driver.find_element(By.ID, "replay-position").text == f"passo 1 di {steps}"
            assert driver.execute_script("return document.documentElement.lang") == "it"
            for _ in range(4):
                driver.find_element(By.ID, "replay-next").click()
            assert driver.find_element(By.CSS_SELECTOR, "#end h3").text == "partita registrata"
            assert " · mano 1" in driver.find_element(By.ID, "title").text
            log = driver.execute_script(
                "return [...document.querySelectorAll('#log li')].map((e) => e.textContent);")
            assert any(" di " in line for line in log), log
            page = driver.find_element(By.TAG_NAME, "body").text
            assert "your" not in page and "hand " not in page and "step" not in page
            driver.save_screenshot(str(screenshot_dir() / "web-replay-it.png"))
            driver.get("about:blank")
        assert show.finish() == 0
    finally:
        if show.process.poll() is None:
            show.process.kill()


@pytest.mark.parametrize(("code", "expected"), [
    ("it", "p2pcards: --bots deve essere tra 0 e 1 per 2 giocatori"),
    ("es", "p2pcards: --bots debe estar entre 0 y 1 para 2 jugadores"),
    ("en", "p2pcards: --bots must be between 0 and 1 for 2 players"),
])
def test_a_command_error_is_one_sentence_in_the_persons_language(
        code: str, expected: str, tmp_path: pytest.TempPathFactory,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    status, _, err = _main_in(code, ["host", "--players", "2", "--bots", "5"], monkeypatch,
                              capsys)
    assert status == 2
    assert err.strip() == expected


def test_resume_with_nothing_to_resume_says_so_in_spanish(
        tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    status, _, err = _main_in("es", ["resume"], monkeypatch, capsys)
    assert status == 2
    assert err.strip().startswith("p2pcards: no hay ninguna partida sin terminar que reanudar "
                                  "en ")


@pytest.mark.parametrize(("game", "players"), [("scopa", 2), ("burraco", 4),
                                                ("sette-e-mezzo", 2)])
def test_show_has_no_untranslated_text(game: str, players: int,
                                       tmp_path: pytest.TempPathFactory,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The pseudo-locale check of ``p2pcards show``: every line of a match's story (of the
    game's ``quick`` preset where it has one: Burraco's to 300, about one hand of the 108
    cards instead of four or more, with every kind of line of a hand and of the match's end)."""
    from attacks import recorded_match, write_transcript

    from p2pcards import cli
    from p2pcards.cli import errors
    from p2pcards.games import get_game

    spec = get_game(game)
    preset = "quick" if "quick" in spec.presets else spec.default_preset
    run = recorded_match(game, preset, players, 1)
    path = write_transcript(tmp_path / "match.p2pt", run.genesis, run.frames)
    monkeypatch.setattr(errors, "use_language", lambda requested: None)
    try:
        i18n.install(pseudo_translations(), "it")
        assert cli.main(["show", str(path)]) == 0
    finally:
        i18n.set_language("en")
    out = capsys.readouterr().out
    assert pseudo("hand {number}").replace("{number}", "1") in out
    names = [seat.name for seat in run.genesis.seats]
    assert untranslated_words(out, game, [*names, preset]) == []


def test_no_function_hides_the_translation_function_behind_a_local_underscore() -> None:
    """A module that translates with ``_`` must not bind ``_`` in a function (``a, _ = ...``,
    ``for _ in``): the function's own ``_()`` calls would then fail."""
    import ast

    bad = []
    for path in sorted(catalogs.PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = any(isinstance(node, ast.ImportFrom) and node.module
                       and node.module.endswith("i18n") and any(a.name == "_" for a in node.names)
                       for node in tree.body)
        if not imported:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                bad.append(f"{path.relative_to(catalogs.ROOT)}:{node.lineno}")
    assert bad == []


@pytest.mark.parametrize(("code", "words"), [("it", ("serie dopo 2 partite", "connessione:",
                                                     "posto 1", "squadre:", "contro")),
                                             ("es", ("serie tras 2 partidas", "conexión:",
                                                     "asiento 1", "equipos:", "contra"))])
def test_the_lines_of_leaving_rematch_sides_and_connections_speak_the_language(
        code: str, words: tuple[str, ...], language: object) -> None:
    """The lines host and join print around a match (the series tally, a ``connection:``
    line, the sides) and the leave and rematch questions come from the catalogs; the
    question's answer ``s`` confirms in Italian and Spanish."""
    from p2pcards.cli.again import AGAIN_QUESTION
    from p2pcards.faces.terminal import YES_WORDS
    from p2pcards.net.hub import host_connection_line, sides_line
    from p2pcards.net.interrupts import LEAVE_QUESTION
    from p2pcards.net.rematch import Series
    from p2pcards.offline.memory import make_tables

    i18n.set_language(code)
    series = Series(["Alba [0]", "Bruno [1]"])
    series.record(0)
    series.record(None)
    seen = " | ".join([series.line(), host_connection_line(1, "relay slot 1"),
                       sides_line(make_tables("briscola", "classic", 4, seed=1)[0]) or ""])
    for word in words:
        assert word in seen
    assert "Alba [0] 1 · Bruno [1] 0" in seen
    for question in (LEAVE_QUESTION, AGAIN_QUESTION):
        assert i18n._(question) != question and "(s/N)" in i18n._(question)
    assert "s" in YES_WORDS
