"""The printable form: A4 at 100 %; its ArUco markers and QR code decode with OpenCV, printed or in photos."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from sheetscan.cli import main
from sheetscan.layouts import find_layout
from sheetscan.rules import read_game, replay, write_sheet
from sheetscan.vision.render import form_qr_text, render_sheet, save_form

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _detect(image: np.ndarray) -> dict[int, np.ndarray]:
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(image)
    return {} if ids is None else {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def _qr(image: np.ndarray) -> str:
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


@pytest.mark.parametrize("players", [3, 4])
def test_printed_png_is_a4_at_300_dpi_with_markers_where_the_layout_says(tmp_path: Path, players: int
                                                                         ) -> None:
    path = tmp_path / "form.png"
    layout = save_form(path, players=players, variant="sochi", pulka=20)
    image = cv2.imread(str(path))
    assert image is not None
    height, width = image.shape[:2]
    # A4 is 210 × 297 mm; at 300 dpi that is 2480 × 3508 pixels (±1 for rounding).
    expected = (3508, 2480) if players == 3 else (2480, 3508)
    assert abs(width - expected[0]) <= 1 and abs(height - expected[1]) <= 1
    page = layout.page
    assert page is not None
    found = _detect(image)
    assert sorted(found) == [0, 1, 2, 3]
    px_per_mm = 300 / 25.4
    for ident, left, top in page.markers:
        assert np.allclose(found[ident][0], (left * px_per_mm, top * px_per_mm), atol=3.0)
    assert _qr(image) == f"sheetscan:form-{players};players={players};variant=sochi;pulka=20"
    # The sheet's outer frame is printed where the layout puts it: dark along its top edge.
    left, top, right, _ = (v * px_per_mm for v in page.sheet_mm)
    row = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[round(top) - 2: round(top) + 3,
                                                   int(left) + 20: int(right) - 20]
    assert (row.min(axis=0) < 100).mean() > 0.95


def test_printed_pdf_is_one_a4_page(tmp_path: Path) -> None:
    path = tmp_path / "form.pdf"
    save_form(path, players=3)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert box is not None
    # A4 landscape in PostScript points: 297 mm × 72 / 25.4 = 841.9, 210 mm → 595.3
    assert float(box.group(1)) == pytest.approx(841.9, abs=1.0)
    assert float(box.group(2)) == pytest.approx(595.3, abs=1.0)


def test_qr_text_names_form_players_variant_and_target() -> None:
    assert form_qr_text(find_layout("form-4")) == "sheetscan:form-4;players=4"
    assert form_qr_text(find_layout("form-3"), variant="rostov", pulka=10) == \
        "sheetscan:form-3;players=3;variant=rostov;pulka=10"


@pytest.mark.slow
@pytest.mark.parametrize(("layout", "seed"), [("form-3", 2), ("form-4", 8)])
def test_markers_and_qr_decode_from_a_rendered_photo(layout: str, seed: int) -> None:
    # A 7 MP photo: the QR code's modules need about 4 pixels each (a phone's 12 MP gives more).
    players = int(layout[-1])
    game = json.loads((SAMPLES / f"game-sochi-{players}p.json").read_text("utf-8"))
    sheet = write_sheet(replay(read_game(game)))
    rendered = render_sheet(sheet, layout=layout, seed=seed, size=(3000, 2250))
    image = cv2.imdecode(np.frombuffer(rendered.jpeg(), np.uint8), cv2.IMREAD_COLOR)
    found = _detect(image)
    assert sorted(found) == [0, 1, 2, 3]
    page = find_layout(layout).page
    assert page is not None
    # Where the truth's homography puts each marker is where OpenCV finds it.
    h = np.array(rendered.truth["homography"])
    for ident in range(4):
        expected = cv2.perspectiveTransform(np.array([page.marker_corners(ident)], np.float64), h)[0]
        side = np.linalg.norm(expected[1] - expected[0])
        assert np.abs(found[ident] - expected).max() < 0.12 * side, (ident, found[ident], expected)
    # As a reader would: map the page by the four markers, then read the QR code on the flat page.
    steps = [(0, 0), (1, 0), (1, 1), (0, 1)]
    mm = np.array([(left + dx * page.marker_mm, top + dy * page.marker_mm)
                   for (_, left, top), (dx, dy) in zip(page.markers, steps, strict=True)], np.float32)
    seen = np.array([found[i][i] for i in range(4)], np.float32)  # each marker's corner at the page corner
    scale = 8.0  # px per mm of the flattened page
    to_page = cv2.getPerspectiveTransform(seen, mm * scale)
    width, height = (int(v * scale) for v in page.size_mm)
    flat = cv2.warpPerspective(image, to_page, (width, height))
    text = _qr(flat)
    assert text.startswith(f"sheetscan:{layout};players={players};variant=sochi"), text


def test_form_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "f.png"
    assert main(["form", "--players", "4", "--variant", "ленинградка", "--pulka", "30", "-o", str(out),
                 "--dpi", "150"]) == 0
    image = cv2.imread(str(out))
    assert _qr(image) == "sheetscan:form-4;players=4;variant=leningrad;pulka=30"
    assert main(["form", "-o", str(tmp_path / "f.gif")]) == 2
    assert main(["form", "--variant", "bridge", "-o", str(out)]) == 2
    assert "bridge" in capsys.readouterr().err


def test_without_cyrillic_fonts_the_form_still_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetscan.vision.render import _form

    monkeypatch.setattr(_form, "_font_path", lambda: None)
    path = tmp_path / "form.png"
    save_form(path, players=3, variant="sochi", pulka=20, dpi=150)
    image = cv2.imread(str(path))
    assert sorted(_detect(image)) == [0, 1, 2, 3]
    assert _qr(image) == "sheetscan:form-3;players=3;variant=sochi;pulka=20"
