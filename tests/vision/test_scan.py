"""Reading a whole photo: `scan()`, its JSON, the `sheetscan scan` command and every kind of bad input.

End-to-end runs read the samples/ photos (rendered with MNIST test digits by `sheetscan render`) and
check them against their truth files; they are marked slow. The bad-input tests check that each case
ends in one clear line on stderr and the documented exit code, never a traceback.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from sheetscan.cli import main
from sheetscan.errors import NoSheetError
from sheetscan.vision.ink import find_ink
from sheetscan.vision.numbers import find_numbers, read_numbers
from sheetscan.vision.photo import load_photo
from sheetscan.vision.recognise import ScriptedRecognizer
from sheetscan.vision.scan import SCAN_FORMAT, scan, scan_to_json
from tests.vision._boxes import box_of, overlap
from tests.vision._truth_zones import truth_zones

SAMPLES = Path(__file__).resolve().parent.parent.parent / "samples"
PHOTOS = sorted(SAMPLES.glob("photo-*.jpg"))


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["scan", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _one_clear_line(err: str) -> None:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("sheetscan scan: ")


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims `width` × `height` pixels (a decompression bomb's trick)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" * 16)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


@pytest.mark.parametrize(("name", "content"), [
    ("empty.jpg", b""),
    ("text.jpg", b"this is not a photo\n"),
    ("truncated.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xdb"),
    ("huge.png", _png_claiming(40_000, 40_000)),
])
def test_unreadable_input_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = _cli(capsys, str(path))
    assert code == 2
    assert out == ""
    _one_clear_line(err)
    assert name in err


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(capsys, str(tmp_path / "nowhere.jpg"))
    assert code == 2
    _one_clear_line(err)


def test_a_photo_without_a_sheet_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.integers(40, 140, (900, 1200, 3)).astype(np.uint8), (0, 0), 3)
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), table)
    code, out, err = _cli(capsys, str(path))
    assert code == 3
    assert out == ""
    _one_clear_line(err)
    assert "no scoresheet" in err


def test_an_unknown_variant_is_refused_before_reading(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.jpg"
    path.write_bytes(b"")
    code, _, err = _cli(capsys, str(path), "--variant", "nosuchvariant")
    assert code == 2
    _one_clear_line(err)
    assert "nosuchvariant" in err


def _blank_sheet_photo(layout: str = "standard-3", seed: int = 1) -> tuple[bytes, dict[str, Any]]:
    """A 3-player sheet with nothing written but the target 20 in the circle."""
    from sheetscan.vision.render import render_sheet

    names = ["A", "B", "C"]
    zones = {p: {"pulka": [], "gora": [], "whists": {q: [] for q in names if q != p}} for p in names}
    sheet = {"format": "sheetscan.sheet/1", "variant": "sochi", "players": names, "pulka": 20, "zones": zones}
    rendered = render_sheet(sheet, layout=layout, seed=seed, size=(2000, 1500), max_tilt=15.0)
    return rendered.jpeg(), rendered.truth


def test_a_blank_sheet_reads_as_empty_zones() -> None:
    # A printed form: stages 1-3 find it by its markers, whatever the renderer's freehand style.
    data, truth = _blank_sheet_photo("form-3", 3)
    result = scan(data, recognizer=ScriptedRecognizer(lambda image: 20))
    out = scan_to_json(result)
    assert out["format"] == SCAN_FORMAT
    assert out["layout"]["name"] == "form-3" and out["layout"]["players"] == 3
    assert len(out["zones"]) == 12  # 3 seats × (pulka, gora, 2 whist parts)
    assert all(zone["numbers"] == [] for zone in out["zones"])
    sheet = out["sheet"]
    assert all(v == [] for z in sheet["zones"].values() for k, v in z.items() if k != "whists")
    # Nothing was guessed: the zones are empty, so the settlement (if any) is all zeros.
    if out["settlement"] is not None:
        assert all(float(v) == 0 for v in out["settlement"]["balances"].values())
    assert truth["numbers"] == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_blank_hand_drawn_sheet_has_no_numbers_in_its_zones(seed: int) -> None:
    # Stages 4-7 on the zones where the renderer drew them: drawn lines, squared paper and the
    # target are not taken for numbers.
    data, truth = _blank_sheet_photo("standard-3", seed)
    zones = truth_zones(load_photo(data).image, truth, band=0.03)  # nothing written near the lines
    numbers = read_numbers(find_numbers(find_ink(zones.image, line_mask=zones.line_mask), zones),
                           ScriptedRecognizer(lambda image: 20))
    assert [n for z in numbers.zones for n in z.numbers] == []
    assert numbers.target is not None and numbers.target.value == 20


def test_a_sheet_half_out_of_the_frame_is_refused_or_marked_partial() -> None:
    data, _ = _blank_sheet_photo()
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    half = image[:, : image.shape[1] // 2]
    ok, encoded = cv2.imencode(".jpg", half)
    assert ok
    try:
        result = scan(encoded.tobytes(), recognizer=ScriptedRecognizer(lambda image: 20))
    except NoSheetError as error:
        assert "sheet" in str(error)
        return
    out = scan_to_json(result)
    assert out["partial"] is True
    assert out["settlement"] is None


def test_the_json_follows_the_scan_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data, truth = _blank_sheet_photo("form-3", 3)
    path = tmp_path / "blank.jpg"
    path.write_bytes(data)
    result = scan(path, recognizer=ScriptedRecognizer(lambda image: 20), debug_dir=tmp_path / "debug")
    out = scan_to_json(result)
    assert set(out) >= {"format", "image", "layout", "zones", "sheet", "reconciliation", "settlement"}
    assert out["image"]["width"] == 2000 or out["image"]["height"] == 2000
    # Corners in photo pixels, in the upright sheet's order TL, TR, BR, BL, near the truth's.
    corners = np.array(out["layout"]["corners"])
    assert np.abs(corners - np.array(truth["corners"])).max() < 40
    json.dumps(out)  # plain JSON types only
    written = sorted(p.name for p in (tmp_path / "debug").iterdir())
    assert any(n.startswith("04_ink") for n in written) and any(n.startswith("05_numbers") for n in written)


# --- end to end on the samples -------------------------------------------------------------------------

def _reading_score(truth: dict[str, Any], out: dict[str, Any]) -> tuple[float, float]:
    """(share of written numbers read right where they are, share of zones whose last value is right)."""
    read = [(zi, n) for zi, zone in enumerate(out["zones"]) for n in zone["numbers"]]
    right, total = 0, 0
    votes: dict[int, Counter[int]] = {}
    for number in truth["numbers"]:
        tb = box_of(number["quad"])
        best = max(read, key=lambda r: overlap(tb, box_of([[r[1]["bbox"][0], r[1]["bbox"][1]],
                                                          [r[1]["bbox"][0] + r[1]["bbox"][2],
                                                           r[1]["bbox"][1] + r[1]["bbox"][3]]])),
                   default=None)
        if best is not None:
            bb = best[1]["bbox"]
            if overlap(tb, (bb[0], bb[1], bb[0] + bb[2], bb[1] + bb[3])) >= 0.4:
                votes.setdefault(best[0], Counter())[number["zone"]] += 1
                if not number["crossed_out"]:
                    right += best[1]["value"] == number["value"]
        total += not number["crossed_out"]
    stands_for = {zi: c.most_common(1)[0][0] for zi, c in votes.items()}
    zones_right = 0
    for zone in truth["zones"]:
        written = [n["value"] for n in truth["numbers"]
                   if n["zone"] == zone["index"] and not n["crossed_out"]]
        values = [n["value"] for zi, t in stands_for.items() if t == zone["index"]
                  for n in out["zones"][zi]["numbers"] if not n["crossed_out"]]
        zones_right += (written[-1:] == values[-1:])
    return right / max(total, 1), zones_right / len(truth["zones"])


@pytest.mark.slow
@pytest.mark.parametrize("photo", PHOTOS, ids=[p.stem for p in PHOTOS])
def test_samples_read_against_their_truth(photo: Path) -> None:
    truth = json.loads(photo.with_name(photo.stem + ".truth.json").read_text(encoding="utf-8"))
    out = scan_to_json(scan(photo))
    assert out["layout"]["players"] == truth["layout"]["players"]
    assert out["layout"]["name"] == truth["layout"]["name"]
    # A hand-drawn 4-player sheet has no cue for which side is seat 0 (LAYOUT.md): the scan must say so.
    assert out["layout"]["rotation_certain"] is (truth["layout"]["name"] != "standard-4")
    numbers, zones = _reading_score(truth, out)
    assert numbers >= NUMBERS_BAR, f"{photo.name}: only {numbers:.0%} of the numbers read right"
    assert zones >= ZONES_BAR, f"{photo.name}: only {zones:.0%} of the zones' last values read right"


def test_there_are_samples_to_read() -> None:
    assert PHOTOS, "samples/ holds no photo-*.jpg"


# Regression guards set below what the samples read today (numbers 0.82–0.97, zones 0.65–1.00 on
# 2026-11-30, after the line-mask fixes and the fine-tuned network; 0.80–0.94 and 0.60–0.92 the day
# before); the goals (digits ≥ 99.3 %, zone final values ≥ 98 %) are above them and the benchmark
# (bench/bench_scan.py) reports the exact figures.
NUMBERS_BAR = 0.78
"""Share of a sample's written numbers that must read right."""
ZONES_BAR = 0.60
"""Share of a sample's zones whose last value must read right."""
