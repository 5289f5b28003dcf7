"""The renderer: its truth is right on the pixels, it draws what the game wrote, and a seed fixes it.

The truth is checked against things the renderer does not compute: the ink in the pixels, the rules
core's own replay of the game record, and the sheet geometry's zones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from sheetscan.cli import main
from sheetscan.layouts import LAYOUTS, SheetLayout, find_layout
from sheetscan.rules import read_game, replay, write_sheet
from sheetscan.vision.render import TRUTH_FORMAT, Rendered, render_game, render_sheet

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SMALL = (1000, 750)


def _game(variant: str, players: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / f"game-{variant}-{players}p.json").read_text("utf-8"))
    return data


def _sheet(variant: str, players: int) -> dict[str, Any]:
    # The rules core's replay, independent of the renderer.
    return write_sheet(replay(read_game(_game(variant, players))))


def _grey(rendered: Rendered, *, decode: bool) -> np.ndarray:
    image = rendered.image
    if decode:
        image = cv2.imdecode(np.frombuffer(rendered.jpeg(), np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _darkness(grey: np.ndarray, quad: list[list[float]], grow: float = 0.0) -> tuple[float, float]:
    """(5th percentile of the grey inside the quad, 75th percentile of a ring around it: the paper)."""
    pts = np.array(quad, np.float32)
    centre = pts.mean(axis=0)
    inner = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(inner, np.round(centre + (pts - centre) * (1 + grow)).astype(np.int32), 1)
    outer = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(outer, np.round(centre + (pts - centre) * 2.2).astype(np.int32), 1)
    ring = (outer > 0) & (inner == 0)
    return float(np.percentile(grey[inner > 0], 5)), float(np.percentile(grey[ring], 75))


def _written_sheet(truth: dict[str, Any]) -> dict[int, list[int]]:
    zones: dict[int, list[tuple[int, int]]] = {}
    for number in truth["numbers"]:
        if not number["crossed_out"]:
            zones.setdefault(number["zone"], []).append((number["order"], number["value"]))
    return {zone: [v for _, v in sorted(values)] for zone, values in zones.items()}


def _expected(sheet: dict[str, Any], truth: dict[str, Any]) -> dict[int, list[int]]:
    """Zone index → numbers, from the sheet JSON and the truth's zone table (player/kind/on)."""
    players = sheet["players"]
    out: dict[int, list[int]] = {}
    for zone in truth["zones"]:
        own = sheet["zones"][players[zone["player"]]]
        values = own["whists"][players[zone["on"]]] if zone["kind"] == "whists" else own[zone["kind"]]
        if values:
            out[zone["index"]] = list(values)
    return out


@pytest.fixture(scope="module")
def sochi3() -> Rendered:
    return render_game(_game("sochi", 3), seed=5, size=SMALL, crossed_out_rate=0.08)


def test_truth_sheet_is_the_replayed_sheet_and_every_number_is_written(sochi3: Rendered) -> None:
    expected = _sheet("sochi", 3)
    truth = sochi3.truth
    assert truth["format"] == TRUTH_FORMAT
    assert truth["sheet"] == expected
    assert _written_sheet(truth) == _expected(expected, truth)
    crossed = [n for n in truth["numbers"] if n["crossed_out"]]
    assert crossed, "a 8% mistake rate over ~130 numbers crosses at least one out"
    for number in crossed:  # a crossed-out number is followed by the right one in the same zone
        after = [n for n in truth["numbers"]
                 if n["zone"] == number["zone"] and n["order"] == number["order"] + 1]
        assert len(after) == 1 and not after[0]["crossed_out"] and after[0]["value"] != number["value"]


def test_truth_zones_match_the_written_numbers(sochi3: Rendered) -> None:
    # Each number's centre lies inside the polygon of the zone the truth gives it (both in photo pixels).
    zones = {z["index"]: np.array(z["polygon"], np.float32) for z in sochi3.truth["zones"]}
    for number in sochi3.truth["numbers"]:
        centre = np.mean(number["quad"], axis=0)
        assert cv2.pointPolygonTest(zones[number["zone"]], (float(centre[0]), float(centre[1])), True) > -3.0


@pytest.mark.parametrize("photo", [False, True], ids=["flat", "photo"])
def test_truth_quadrilaterals_land_on_ink(photo: bool) -> None:
    rendered = render_game(_game("rostov", 3), seed=9, size=(1400, 1050), photo=photo)
    grey = _grey(rendered, decode=photo)
    digits = [d for n in rendered.truth["numbers"] for d in n["digits"]]
    assert len(digits) > 100
    hits = 0
    for digit in digits:
        inside, ring = _darkness(grey, digit["quad"])
        hits += inside < ring - 30
    assert hits >= 0.97 * len(digits), f"only {hits} of {len(digits)} digit boxes hold ink"
    # The same boxes moved by three of their own heights land on empty paper far more often.
    moved = 0
    for digit in digits:
        quad = np.array(digit["quad"])
        height = np.linalg.norm(quad[3] - quad[0])
        inside, ring = _darkness(grey, (quad + np.array([0.0, 3 * height])).tolist())
        moved += inside < ring - 30
    assert moved < 0.75 * hits
    target = rendered.truth["target"]
    assert target["value"] == rendered.truth["sheet"]["pulka"]
    inside, ring = _darkness(grey, target["quad"])
    assert inside < ring - 30


def test_truth_corners_are_the_drawn_outer_rectangle() -> None:
    rendered = render_game(_game("sochi", 4), seed=3, size=(1400, 1050))
    truth = rendered.truth
    h = np.array(truth["homography"])
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [1, 0], [1, 1], [0, 1]]], np.float64), h)[0]
    assert np.allclose(corners, truth["corners"], atol=0.05)
    grey = _grey(rendered, decode=False)
    for x, y in truth["corners"]:  # the hand-drawn lines meet (about) there: ink within a few pixels
        patch = grey[int(y) - 6: int(y) + 7, int(x) - 6: int(x) + 7]
        paper = np.percentile(grey[int(y) - 25: int(y) + 26, int(x) - 25: int(x) + 26], 90)
        assert patch.min() < paper - 25
    # rotation is the quarter turn nearest the in-plane angle
    assert truth["rotation"] in (0, 90, 180, 270)
    assert min(abs(truth["angle"] - truth["rotation"]), 360 - abs(truth["angle"] - truth["rotation"])) <= 45


def test_rendering_is_deterministic_for_a_seed() -> None:
    sheet = _sheet("leningrad", 3)
    a = render_sheet(sheet, seed=21, size=(600, 450))
    b = render_sheet(sheet, seed=21, size=(600, 450))
    c = render_sheet(sheet, seed=22, size=(600, 450))
    assert np.array_equal(a.image, b.image) and a.truth == b.truth and a.jpeg() == b.jpeg()
    assert a.jpeg() != c.jpeg()
    assert a.truth["numbers"] != c.truth["numbers"]


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
def test_every_layout_renders(layout: SheetLayout) -> None:
    variant = {"standard-3": "leningrad", "standard-4": "rostov", "form-3": "sochi", "form-4": "leningrad"}
    sheet = _sheet(variant[layout.name], layout.players)
    rendered = render_sheet(sheet, layout=layout, seed=1, size=(640, 480), crossed_out_rate=0.0)
    truth = rendered.truth
    assert truth["layout"]["name"] == layout.name and truth["layout"]["players"] == layout.players
    assert len(truth["zones"]) == layout.players * (layout.players + 1)
    assert _written_sheet(truth) == _expected(sheet, truth)
    assert sorted(rendered.image.shape[:2]) == [480, 640]
    for number in truth["numbers"]:
        zone = truth["zones"][number["zone"]]
        assert (zone["player"], zone["kind"], zone["on"]) == (number["player"], number["kind"], number["on"])
        assert number["angle"] in (0, 90, -90, 180)


def test_layout_must_fit_the_players_and_digits_part_is_checked() -> None:
    sheet = _sheet("sochi", 3)
    with pytest.raises(ValueError, match="4"):
        render_sheet(sheet, layout="standard-4", size=(400, 300))
    with pytest.raises(ValueError, match="train, validation or test"):
        render_sheet(sheet, digits_from="everything", size=(400, 300))  # type: ignore[arg-type]


def test_render_command_writes_photo_and_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "sheet.jpg"
    code = main(["render", str(SAMPLES / "game-sochi-4p.json"), "-o", str(photo), "--layout", "form-4",
                 "--seed", "4", "--size", "800x600"])
    assert code == 0
    truth = json.loads((tmp_path / "sheet.truth.json").read_text("utf-8"))
    image = cv2.imread(str(photo))
    assert image is not None and [truth["image"]["height"], truth["image"]["width"]] == list(image.shape[:2])
    assert truth["layout"]["name"] == "form-4" and truth["sheet"] == _sheet("sochi", 4)
    assert str(photo) in capsys.readouterr().out


def test_render_command_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sheetscan.settlement/1"}', "utf-8")
    assert main(["render", str(bad), "-o", str(tmp_path / "x.jpg")]) == 2
    assert "sheetscan.game/1" in capsys.readouterr().err
    assert main(["render", str(SAMPLES / "game-sochi-3p.json"), "-o", str(tmp_path / "x.gif")]) == 2
    assert main(["render", str(SAMPLES / "game-sochi-3p.json"), "-o", str(tmp_path / "x.jpg"),
                 "--layout", "form-4"]) == 2


SAMPLE_PHOTOS = sorted(SAMPLES.glob("photo-*.truth.json"))


@pytest.mark.parametrize("path", SAMPLE_PHOTOS, ids=lambda p: p.name)
def test_sample_truth_is_the_replay_of_its_game_record(path: Path) -> None:
    truth = json.loads(path.read_text("utf-8"))
    game = path.name.removeprefix("photo-").split("-hand")[0].split("-form")[0]  # e.g. sochi-3p
    variant, players = game.split("-")
    expected = _sheet(variant, int(players[0]))
    assert truth["sheet"] == expected
    assert _written_sheet(truth) == _expected(expected, truth)
    image = cv2.imread(str(path.with_name(path.name.replace(".truth.json", ".jpg"))))
    assert image is not None and [truth["image"]["height"], truth["image"]["width"]] == list(image.shape[:2])


@pytest.mark.slow
def test_a_sample_is_made_again_by_its_documented_command() -> None:
    # samples/README.md: sheetscan render samples/game-leningrad-4p.json --layout standard-4 --seed 14
    #                    --size 3000x2250
    rendered = render_game(_game("leningrad", 4), layout="standard-4", seed=14, size=(3000, 2250))
    stored = json.loads((SAMPLES / "photo-leningrad-4p-hand.truth.json").read_text("utf-8"))
    assert rendered.truth["numbers"] == stored["numbers"]
    assert rendered.truth["corners"] == stored["corners"]


def test_bent_paper_truth_follows_the_bend() -> None:
    rendered = render_game(_game("leningrad", 3), seed=12, size=(1400, 1050), bend_chance=1.0)
    truth = rendered.truth
    assert truth["bend_px"] > 1.0
    grey = _grey(rendered, decode=False)
    digits = [d for n in truth["numbers"] for d in n["digits"]]
    hits = sum(_darkness(grey, d["quad"])[0] < _darkness(grey, d["quad"])[1] - 30 for d in digits)
    assert hits >= 0.97 * len(digits)
    # The flat homography is off by the bend at most (plus rounding), and the corners carry the bend.
    h = np.array(truth["homography"])
    flat = cv2.perspectiveTransform(np.array([[[0, 0], [1, 0], [1, 1], [0, 1]]], np.float64), h)[0]
    offsets = np.linalg.norm(flat - np.array(truth["corners"]), axis=1)
    assert offsets.max() <= truth["bend_px"] * 1.5 + 0.05


def test_orientation_can_be_chosen() -> None:
    sheet = _sheet("rostov", 3)
    for seed in range(3):
        portrait = render_sheet(sheet, seed=seed, size=(400, 300), orientation="portrait")
        landscape = render_sheet(sheet, seed=seed, size=(400, 300), orientation="landscape")
        assert portrait.image.shape[:2] == (400, 300) and landscape.image.shape[:2] == (300, 400)


def test_render_command_reads_a_sheet_file_too(tmp_path: Path) -> None:
    sheet = _sheet("leningrad", 4)
    source = tmp_path / "sheet.json"
    source.write_text(json.dumps(sheet, ensure_ascii=False), "utf-8")
    assert main(["render", str(source), "-o", str(tmp_path / "p.png"), "--size", "600x450", "--flat"]) == 0
    truth = json.loads((tmp_path / "p.truth.json").read_text("utf-8"))
    assert truth["sheet"] == sheet and truth["layout"]["name"] == "standard-4" and truth["tilt"] == 0.0
    assert cv2.imread(str(tmp_path / "p.png")) is not None


def test_names_are_ink_outside_every_zone() -> None:
    sheet = _sheet("sochi", 3)
    for seed in range(20):  # names are written on about 60 % of the sheets
        rendered = render_sheet(sheet, seed=seed, size=(1400, 1050), photo=False)
        if len(rendered.truth["names"]) == 3:
            break
    else:
        pytest.fail("no sheet with all three names in 20 seeds")
    grey = _grey(rendered, decode=False)
    corners = np.array(rendered.truth["corners"], np.float32)
    for name in rendered.truth["names"]:
        inside, ring = _darkness(grey, name["quad"])
        assert inside < ring - 30
        centre = np.mean(name["quad"], axis=0)
        assert cv2.pointPolygonTest(corners, (float(centre[0]), float(centre[1])), False) < 0


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_exif_orientation_shows_the_photo_the_truth_describes(orientation: int) -> None:
    import io

    from PIL import Image, ImageOps

    rendered = render_sheet(_sheet("sochi", 3), seed=2, size=(640, 480))
    stored = Image.open(io.BytesIO(rendered.jpeg(exif_orientation=orientation)))
    assert stored.getexif().get(0x0112) == orientation
    assert stored.size != (rendered.image.shape[1], rendered.image.shape[0]) or orientation == 3
    shown = np.asarray(ImageOps.exif_transpose(stored).convert("RGB"))[:, :, ::-1]
    assert shown.shape == rendered.image.shape
    # Averaged over 4 × 4 blocks only JPEG's loss remains; a wrong turn would differ by tens of levels.
    def small(image: np.ndarray) -> np.ndarray:
        return cv2.resize(image, (160, 120), interpolation=cv2.INTER_AREA).astype(int)

    assert np.abs(small(np.ascontiguousarray(shown)) - small(rendered.image)).mean() < 2
    with pytest.raises(ValueError, match="1, 3, 6 or 8"):
        rendered.jpeg(exif_orientation=2)


@pytest.mark.parametrize("layout", [find_layout("standard-3"), find_layout("standard-4")], ids=["3", "4"])
def test_hand_drawn_proportions_vary_and_always_fit(layout: SheetLayout) -> None:
    from sheetscan.vision.render._draw import vary_proportions

    drawn = [vary_proportions(layout, np.random.default_rng(seed)) for seed in range(100)]
    assert sum(p == layout.default for p in drawn) <= 2  # nearly always a new drawing, not the fallback
    for p in drawn:
        layout.geometry(p)  # raises if the bands or the circle do not fit
    aspects = [p.aspect for p in drawn]
    assert max(aspects) - min(aspects) > 0.3
    bottoms = [p.whists[3] for p in drawn]
    assert max(bottoms) > 1.3 * min(bottoms)
