"""The card faces of the web table (``p2pcards/faces/web/static/cards.js``), run in a real
headless Chromium.

The static directory is served over loopback HTTP by a small server in the test process (module
scripts do not load from ``file://``); a harness page imports ``cards.js`` and every check asks
the browser itself: each face of each code of each deck parses as SVG, has the right viewBox,
counts as many suit signs (``class="pip"``) as its value, differs from every other face but its
twin's, asks for nothing outside itself, and draws as an image whose pixels at 70x105 (a card in a
crowded hand) are its own; the back is one and the same; unknown codes draw the marked face and
never throw. A row of each family is saved as a screenshot.
"""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from browser import chromium, screenshot_dir

from p2pcards.cards import FRENCH_108, ITALIAN_40, SPANISH_40, Deck

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parent.parent / "p2pcards" / "faces" / "web" / "static"

HARNESS = b"""<!doctype html><html><head><meta charset="utf-8"><title>cards</title></head>
<body style="margin:0;background:#2f6b3f">
<div id="row" style="display:flex;gap:6px;padding:8px;width:max-content"></div>
<script type="module">
import * as cards from "/cards.js";
window.cards = cards;
window.cardsReady = true;
</script></body></html>"""

FAMILIES: dict[str, Deck] = {
    "italian": ITALIAN_40, "spanish": SPANISH_40, "french": FRENCH_108}

# Asks the browser about every code of one family: what the markup parses to.
SURVEY = """
const [codes, family] = arguments;
const parser = new DOMParser();
return codes.map((code) => {
  const markup = window.cards.cardSvg(code, family);
  const doc = parser.parseFromString(markup, "image/svg+xml");
  const root = doc.documentElement;
  const broken = doc.getElementsByTagName("parsererror").length > 0;
  const bare = markup.replace(/<title>[^<]*<\\/title>/, "").replace(/ aria-label="[^"]*"/, "");
  return {
    code, broken, tag: root.localName, viewBox: root.getAttribute("viewBox"),
    classes: root.getAttribute("class") || "",
    pips: root.querySelectorAll(".pip").length,
    figures: root.querySelectorAll(".figure").length,
    title: (root.querySelector("title") || {}).textContent || "",
    external: /(href|src)\\s*=|url\\(|<image|<foreignObject|@import/i.test(markup),
    bare,
  };
});
"""


def _value_of(code: str) -> int:
    """The count of suit signs a pip card shows (1..10), or 0 for a figure or a joker."""
    head = code.rstrip("12") if len(code) == 3 else code
    rank = head[0]
    if rank == "X":
        return 0
    return {"A": 1, "T": 10}.get(rank, int(rank) if rank.isdigit() else 0)


def _twin(code: str, family: str) -> str:
    """The face a code shares with its twins: a French card without its deck copy, any joker."""
    if family != "french":
        return code
    return "X" if code.startswith("X") else code[:-1]


class _Static(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(STATIC), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/harness.html":
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(HARNESS)))
            self.end_headers()
            self.wfile.write(HARNESS)
            return
        super().do_GET()


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    """A Chromium showing the harness page with ``window.cards`` loaded."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_Static))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with chromium() as driver:
            driver.get(f"http://127.0.0.1:{server.server_address[1]}/harness.html")
            for _ in range(300):
                if driver.execute_script("return window.cardsReady === true"):
                    break
                time.sleep(0.05)
            else:
                errors = [e["message"] for e in driver.get_log("browser")]
                pytest.fail(f"cards.js did not load: {errors}")
            yield driver
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def surveys(page: Any) -> dict[str, list[dict[str, Any]]]:
    return {family: page.execute_script(SURVEY, [c.code for c in deck.cards], family)
            for family, deck in FAMILIES.items()}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_face_is_an_svg_of_the_right_shape(surveys: dict[str, Any], family: str) -> None:
    faces = surveys[family]
    assert len(faces) == len(FAMILIES[family].cards)
    for face in faces:
        assert not face["broken"], face["code"]
        assert face["tag"] == "svg", face["code"]
        assert face["viewBox"] == "0 0 200 300", face["code"]
        assert face["classes"].split() == ["card-art", "face", family], face["code"]
        assert not face["external"], f"{face['code']} refers to something outside itself"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_pip_cards_show_as_many_signs_as_their_value(surveys: dict[str, Any], family: str) -> None:
    for face in surveys[family]:
        value = _value_of(face["code"])
        assert face["pips"] == value, f"{face['code']}: {face['pips']} signs"
        if value == 0:
            assert face["figures"] == 1, f"{face['code']} has no figure"
        else:
            assert face["figures"] == 0, face["code"]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_faces_differ_but_twins_are_alike(surveys: dict[str, Any], family: str) -> None:
    by_twin: dict[str, set[str]] = {}
    titles: dict[str, set[str]] = {}
    for face in surveys[family]:
        by_twin.setdefault(_twin(face["code"], family), set()).add(face["bare"])
        titles.setdefault(_twin(face["code"], family), set()).add(face["title"])
    for twin, drawings in by_twin.items():
        assert len(drawings) == 1, f"the copies of {twin} are drawn differently"
        assert len(titles[twin]) == 1 and "" not in titles[twin], twin
    drawings = [next(iter(d)) for d in by_twin.values()]
    assert len(set(drawings)) == len(drawings), "two different cards share a face"


# Draws every face as an image on a 70x105 canvas (the size of a card in a crowded hand) and
# returns a digest of its pixels and how many pixels inside the outline are inked, or the reason
# it did not draw.
SMALL_PIXELS = """
const [codes, family, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const canvas = document.createElement("canvas");
canvas.width = 70;
canvas.height = 105;
const context = canvas.getContext("2d", { willReadFrequently: true });
const drawOne = (code) => new Promise((resolve) => {
  const blob = new Blob([window.cards.cardSvg(code, family)], { type: "image/svg+xml" });
  const url = URL.createObjectURL(blob);
  const image = new Image();
  image.onload = () => {
    context.clearRect(0, 0, 70, 105);
    context.drawImage(image, 0, 0, 70, 105);
    const data = context.getImageData(0, 0, 70, 105).data;
    let hash = 2166136261;
    let inked = 0;
    for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 16777619);
    for (let y = 5; y < 100; y++) {
      for (let x = 5; x < 65; x++) {
        const i = (y * 70 + x) * 4;
        if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] < 600) inked++;
      }
    }
    URL.revokeObjectURL(url);
    resolve({ code, hash: hash >>> 0, inked });
  };
  image.onerror = () => resolve({ code, error: "does not draw" });
  image.src = url;
});
Promise.all(codes.map(drawOne)).then(done, (error) => done([{ error: String(error) }]));
"""


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_faces_tell_apart_at_70_by_105(page: Any, family: str) -> None:
    """Every face draws as an image, with ink on it, and no two cards but twins give the same
    pixels at 70x105."""
    codes = [c.code for c in FAMILIES[family].cards]
    drawn = page.execute_async_script(SMALL_PIXELS, codes, family)
    by_twin: dict[str, set[int]] = {}
    for face in drawn:
        assert "error" not in face, face
        assert face["inked"] > 150, f"{face['code']} is nearly blank"
        by_twin.setdefault(_twin(face["code"], family), set()).add(face["hash"])
    assert all(len(hashes) == 1 for hashes in by_twin.values())
    hashes = [next(iter(h)) for h in by_twin.values()]
    assert len(set(hashes)) == len(hashes), "two different cards look the same at 70x105"


def test_the_back_is_one_for_every_family(page: Any) -> None:
    backs = page.execute_script(
        """const out = [window.cards.cardBack()];
        for (const family of ["italian", "spanish", "french", undefined]) {
          out.push(window.cards.cardSvg("??", family));
        }
        return out;""")
    assert len(set(backs)) == 1
    info = page.execute_script(SURVEY, ["??"], "italian")[0]
    assert not info["broken"] and info["viewBox"] == "0 0 200 300"
    assert info["classes"].split() == ["card-art", "back"]
    assert info["pips"] == 0 and not info["external"]


UNKNOWN = """
const cases = [["ZZ", "italian"], ["", "italian"], ["7X", "spanish"], ["AH1", "italian"],
  ["7D", "french"], ["7D", "klingon"], ["11D", "spanish"], [null, "italian"], [undefined, "french"],
  [42, "italian"], [{}, "spanish"], ["<script>", "french"], ["X5", "french"], ["AH3", "french"]];
return cases.map(([code, family]) => {
  try {
    const markup = window.cards.cardSvg(code, family);
    const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
    return {code: String(code), broken: doc.getElementsByTagName("parsererror").length > 0,
            classes: doc.documentElement.getAttribute("class") || "",
            viewBox: doc.documentElement.getAttribute("viewBox")};
  } catch (error) {
    return {code: String(code), thrown: String(error)};
  }
});
"""


def test_unknown_codes_draw_the_marked_face(page: Any) -> None:
    for face in page.execute_script(UNKNOWN):
        assert "thrown" not in face, face
        assert not face["broken"], face["code"]
        assert face["viewBox"] == "0 0 200 300"
        assert face["classes"].split() == ["card-art", "face", "unknown"], face["code"]


ROW = """
const [codes, family, width] = arguments;
const row = document.getElementById("row");
row.innerHTML = "";
for (const code of codes) {
  const cell = document.createElement("div");
  cell.style.width = width + "px";
  cell.innerHTML = window.cards.cardSvg(code, family);
  cell.firstChild.style.display = "block";
  cell.firstChild.style.width = "100%";
  row.appendChild(cell);
}
return row.getBoundingClientRect().width;
"""

SHOWN = {
    "italian": "AD 2D 3D 4D 5D 6D 7D JD QD KD",
    "spanish": "AB 2B 3B 4B 5B 6B 7B JB QB KB",
    "french": "AH1 2H1 3H1 4H1 5H1 6H1 7H1 8H1 9H1 TH1 JH1 QH2 KH1 X1",
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_screenshot_of_a_suit(page: Any, family: str) -> None:
    """A row of one suit (the French one with a joker) and the back, saved as
    ``cards-<family>.png`` (``docs/cards/<family>.png`` is a copy)."""
    codes = [*SHOWN[family].split(), "??"]
    page.set_window_size(1600, 900)
    width = page.execute_script(ROW, codes, family, 84)
    assert width > 84 * len(codes)
    path = screenshot_dir() / f"cards-{family}.png"
    page.find_element("id", "row").screenshot(str(path))
    assert path.stat().st_size > 1000


CORNERS = """
const [codes, family] = arguments;
return codes.map((code) => {
  const holder = document.createElement("div");
  holder.innerHTML = window.cards.cardSvg(code, family);
  const texts = [...holder.querySelectorAll(".index text")].map((t) => t.textContent);
  return [code, texts];
});
"""


def _corner(code: str) -> str:
    """What a corner says: the rank as the code writes it, 10 for a French T."""
    return "10" if code[0] == "T" else code[0]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_corners_name_ranks_as_the_codes_and_logs_do(page: Any, family: str) -> None:
    """One naming per deck: a corner says J, Q, K (not 8, 9, 10) and A, as the card's code in
    the log and in a typed move does."""
    deck = FAMILIES[family]
    for code, texts in page.execute_script(CORNERS, [c.code for c in deck.cards], family):
        if code.startswith("X"):
            continue
        assert texts and set(texts) == {_corner(code)}, (code, texts)
