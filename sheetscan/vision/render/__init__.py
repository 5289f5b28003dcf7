"""Photographed-looking pulka sheets written in real human handwriting, and the printable forms.

`render_sheet(sheet)` draws a `sheetscan.sheet/1` as players write it through an evening (running totals
with dots, upright for each seat, wrapping lines, now and then a crossed-out mistake, the target in the
circle) on a hand-drawn sheet or one of our printed forms, then photographs it on a table. It returns
the photo and its truth (`sheetscan.truth/1`, samples/README.md): where the sheet lies and where every
written number and digit is, in photo pixels. `render_game(record)` does the same for a game record,
through the rules core's replay. `form_page` draws the printable form.

The digits come from MNIST (`sheetscan.vision.mnist`): `digits_from="train"` only for what a recogniser
learns from; everything that measures uses "validation" or "test" (the default).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from sheetscan.errors import InvalidInputError
from sheetscan.layouts import SheetGeometry, SheetLayout, find_layout, layout_for
from sheetscan.vision.mnist import Split, load_mnist
from sheetscan.vision.render._draw import LineStyle, crease, draw_lines, hand_paper, vary_proportions
from sheetscan.vision.render._form import form_page, form_qr_text, save_form
from sheetscan.vision.render._hand import make_writer
from sheetscan.vision.render._photo import photograph
from sheetscan.vision.render._sheet import sheet_entries, sheet_from_game, sheet_or_game
from sheetscan.vision.render._truth import TRUTH_FORMAT, build_truth
from sheetscan.vision.render._write import (
    Quad,
    name_places,
    sheet_height,
    sheet_to_paper,
    with_mistakes,
    write_name_at,
    write_numbers,
    write_target,
)

__all__ = [
    "TRUTH_FORMAT",
    "Rendered",
    "form_page",
    "form_qr_text",
    "render_game",
    "render_sheet",
    "save_form",
    "sheet_or_game",
]



@dataclass(frozen=True)
class Rendered:
    """A rendered photo and its truth."""

    image: npt.NDArray[np.uint8]
    """The photo (BGR), before JPEG compression."""
    truth: dict[str, Any]
    """The `sheetscan.truth/1` document (JSON-ready)."""
    jpeg_quality: int
    """The quality the photo is meant to be saved with (phones vary; so do we)."""

    def jpeg(self, *, exif_orientation: int = 1) -> bytes:
        """The photo as JPEG bytes at `jpeg_quality`.

        With `exif_orientation` 3, 6 or 8 the pixels are stored turned, as a phone's sensor gives them,
        and an EXIF Orientation tag says how to turn them back; a viewer that applies it (as the scan
        does, FORMATS.md) sees `image`, so the truth's coordinates still hold.
        """
        stored = {1: self.image, 3: np.rot90(self.image, 2), 6: np.rot90(self.image, 1),
                  8: np.rot90(self.image, -1)}.get(exif_orientation)
        if stored is None:
            raise ValueError(f"EXIF orientation must be 1, 3, 6 or 8, not {exif_orientation}")
        ok, data = cv2.imencode(".jpg", np.ascontiguousarray(stored),
                                [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
            raise RuntimeError("JPEG encoding failed")
        encoded = bytes(data.tobytes())
        if exif_orientation == 1:
            return encoded
        # A minimal EXIF block (big-endian TIFF, one IFD entry: Orientation, SHORT) right after SOI.
        tiff = (b"MM\x00\x2a" + (8).to_bytes(4, "big") + (1).to_bytes(2, "big") + (0x0112).to_bytes(2, "big")
                + (3).to_bytes(2, "big") + (1).to_bytes(4, "big") + exif_orientation.to_bytes(2, "big")
                + b"\x00\x00" + (0).to_bytes(4, "big"))
        payload = b"Exif\x00\x00" + tiff
        return encoded[:2] + b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload + encoded[2:]

    def png(self) -> bytes:
        """The photo as lossless PNG bytes."""
        ok, data = cv2.imencode(".png", self.image)
        if not ok:  # pragma: no cover
            raise RuntimeError("PNG encoding failed")
        return bytes(data.tobytes())


def render_game(record: Mapping[str, Any], **options: Any) -> Rendered:
    """Render the sheet that replaying the game record (`sheetscan.game/1`) produces; see `render_sheet`."""
    return render_sheet(sheet_from_game(record), **options)


def render_sheet(sheet: Mapping[str, Any], *, layout: str | SheetLayout | None = None, seed: int = 0,
                 digits_from: Split = "test", photo: bool = True, size: tuple[int, int] = (4000, 3000),
                 max_tilt: float = 35.0, crossed_out_rate: float = 0.04, bend_chance: float = 0.35,
                 orientation: Literal["any", "landscape", "portrait"] = "any", writing_scale: float = 1.0,
                 line_scale: float = 1.0, distance: float = 1.0) -> Rendered:
    """Draw `sheet` (`sheetscan.sheet/1`) by hand or on a form, photograph it, and say where everything is.

    `layout` defaults to the hand-drawn layout for the sheet's players; `size` is the photo's (width,
    height), held as `orientation` says (`any`: a third of the photos come out portrait); `photo=False`
    gives the flat paper instead.
    `crossed_out_rate` is the share of numbers first written wrong and crossed out; `bend_chance` how
    often the paper does not lie flat (then the truth's points include the bend, and `homography` is
    off by at most the truth's `bend_px`). The same arguments always give the same pixels.
    Beyond the usual range (`bench/bench_styles.py`): `writing_scale` scales everyone's writing,
    `line_scale` the drawn lines' width (hand-drawn layouts) and `distance` how far away the photo is
    taken (2: the paper half as wide in the photo).
    """
    if digits_from not in ("train", "validation", "test"):
        raise ValueError(f"digits_from must be train, validation or test, not {digits_from!r}")
    players, entries = sheet_entries(sheet)
    n = len(players)
    if layout is None:
        chosen = layout_for(n)
    else:
        chosen = layout if isinstance(layout, SheetLayout) else find_layout(layout)
    if chosen.players != n:
        raise InvalidInputError(f"the sheet has {n} players but layout {chosen.name} is for {chosen.players}")
    # One generator per stage: the sheet, its writing and its mistakes come out the same at any photo
    # size (only stages that draw per pixel use their own, size-dependent streams).
    streams = np.random.SeedSequence(seed).spawn(7)
    rng, grain, pen, hands, slips, writing, camera = (np.random.default_rng(s) for s in streams)
    width, height = size
    turn = rng.random() < 0.35 if orientation == "any" else (orientation == "portrait") != (height > width)
    if turn:
        width, height = height, width
    long_px = int(max(width, height) * 0.82)

    proportions = chosen.default if chosen.printed else vary_proportions(chosen, rng)
    geometry = chosen.geometry(proportions)
    paper, to_px, px_per_mm, paper_kind = _blank_sheet(chosen, geometry, sheet, rng, grain, pen, long_px,
                                                       line_scale)

    part = load_mnist(digits_from)
    sheet_h = sheet_height(to_px)
    writers = [make_writer(part, hands, height=sheet_h * float(hands.uniform(0.022, 0.034)) * writing_scale,
                           pencil=bool(hands.random() < 0.1)) for _ in range(n)]
    turns = [bool(hands.random() < 0.3) for _ in range(n)]  # writes along the top band, not across it
    written = {zone: with_mistakes(values, crossed_out_rate, slips)
               for zone, values in sorted(entries.items())}
    numbers = write_numbers(paper, geometry, to_px, written, writers, turns, writing)
    target = None
    if sheet.get("pulka") is not None:
        (cx0, cy0, cx1, cy1) = geometry.target_box
        box = (*sheet_to_paper(to_px, cx0, cy0), *sheet_to_paper(to_px, cx1, cy1))
        target = write_target(paper, box, int(sheet["pulka"]), writers[0], writing)
    names: list[tuple[int, Quad]] = []
    if rng.random() < 0.6:  # the scorekeeper wrote the names by the seats
        scribe = writers[int(rng.integers(n))]
        for seat, centre, angle, room in name_places(chosen, paper, to_px, px_per_mm, rng):
            quad = write_name_at(paper, centre, angle, scribe, writing, room=room)
            if quad is not None:
                names.append((seat, quad))

    if rng.random() < 0.3:
        crease(paper, rng)
    image, paper_to_photo, to_photo, quality, tilt, bend_px = _photograph(
        paper, camera, photo=photo, size=(width, height), max_tilt=max_tilt, bend_chance=bend_chance,
        distance=distance)
    homography = paper_to_photo @ to_px
    homography /= homography[2, 2]

    def from_paper(points: Any) -> list[list[float]]:
        out = to_photo(np.asarray(points, np.float64).reshape(-1, 2))
        return [[round(float(x), 2), round(float(y), 2)] for x, y in out]

    def from_sheet(points: Any) -> list[list[float]]:
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        return from_paper(cv2.perspectiveTransform(pts[None, :, :], to_px)[0])

    truth = build_truth(sheet, players, chosen, geometry, homography, from_sheet, from_paper, numbers, target,
                        names, image, seed=seed, digits_from=digits_from, tilt=tilt, bend_px=bend_px,
                        paper_kind=paper_kind, writers=writers)
    return Rendered(image, truth, quality)


PointMap = Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]


def _blank_sheet(layout: SheetLayout, geometry: SheetGeometry, sheet: Mapping[str, Any],
                 rng: np.random.Generator, grain: np.random.Generator, pen: np.random.Generator, long_px: int,
                 line_scale: float = 1.0
                 ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], float, str]:
    """The paper with the sheet drawn or printed on it, before anyone writes.

    Returns (paper, sheet → paper pixels 3 × 3, pixels per mm, paper kind for the truth).
    """
    if layout.printed:
        assert layout.page is not None
        px_per_mm = long_px / max(layout.page.size_mm)
        qr = form_qr_text(layout, variant=str(sheet.get("variant") or "") or None,
                          pulka=int(sheet["pulka"]) if rng.random() < 0.5 and "pulka" in sheet else None)
        paper = form_page(layout, px_per_mm=px_per_mm, qr_text=qr, rng=grain)
        left, top, right, bottom = (v * px_per_mm for v in layout.page.sheet_mm)
        to_px = np.array([[right - left, 0, left], [0, bottom - top, top], [0, 0, 1]], np.float64)
        return paper, to_px, px_per_mm, "form"
    paper, to_px, px_per_mm, kind = hand_paper(geometry.aspect, rng, grain, long_px)
    style = LineStyle.random(pen, sheet_height(to_px))
    draw_lines(paper, geometry, to_px, replace(style, thickness=style.thickness * line_scale), pen)
    return paper, to_px, px_per_mm, kind


def _photograph(paper: npt.NDArray[np.uint8], camera: np.random.Generator, *, photo: bool,
                size: tuple[int, int], max_tilt: float, bend_chance: float, distance: float
                ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], PointMap, int, float, float]:
    """The photo of the paper (or the paper itself) and how paper points map into it.

    Returns (image, paper → photo homography, exact point map, JPEG quality, tilt, bend in pixels).
    """
    if photo:
        shot = photograph(paper, camera, size=size, max_tilt=max_tilt, bend_chance=bend_chance,
                          distance=distance)
        return shot.image, shot.paper_to_photo, shot.to_photo, shot.jpeg_quality, shot.tilt, shot.bend_px

    def same(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.asarray(points, np.float64).reshape(-1, 2)

    return paper, np.eye(3), same, 92, 0.0, 0.0
