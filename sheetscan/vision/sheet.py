"""Stage 2 — find the sheet in the photo and rectify it.

A printed form is found by its four ArUco markers (ids 0–3 outside the top-left, top-right,
bottom-right and bottom-left corners of the upright sheet) and named by its QR code. A hand-drawn
sheet is found as the largest closed four-sided outline of dark ink on bright paper — its drawn outer
rectangle. Either way the result is a homography between a rectified image of the sheet (the outer
rectangle plus a small margin, about 2000 px on its long side, true proportions) and the photo.
Which outline is the drawn outer rectangle is `_frame_search`'s; this module looks in the photo's views,
reads a form's markers and QR code, and rectifies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from sheetscan.errors import NoSheetError
from sheetscan.layouts import LAYOUTS, FormPage, SheetLayout
from sheetscan.vision._arrays import F64, U8, f64, u8
from sheetscan.vision._debug import DebugSink, emit, wants
from sheetscan.vision._frame_search import CONTRASTS, find_drawn_frame, fitted
from sheetscan.vision._lines import below, dark_ratio
from sheetscan.vision._paper import paper_box
from sheetscan.vision._quad import FrameCandidate, order_clockwise, rectangle_aspect, refine_quad
from sheetscan.vision.photo import Photo

__all__ = ["RECTIFIED_LONG_SIDE", "RectifiedSheet", "find_sheet", "parse_form_text", "to_photo_points"]

RECTIFIED_LONG_SIDE = 2000
"""Long side of the rectified image in pixels (margin included).

Decision: 2000, because every stage after it measures in these pixels (digits 40-58 px tall in the usual
styles, 28 in the small one) and a smaller sheet reads worse: at 1600 the scan's CPU after the sheet is
found fell to 0.755 of its time (bench seed 1000 x12, the two alternated in one process), but bench_scan
(24 photos) read digits / numbers / zone final values 98.14 / 97.82 / 96.74 % -> 97.44 / 96.87 / 95.38 %
(wrong digit count 12 -> 21) and bench_styles 22000 motion 92.26 / 91.05 / 88.33 -> 87.94 / 87.71 /
87.50 % (usual, small and thin moved within a photo's noise either way)."""
_MARGIN_SHARE = 0.025  # margin around the outer rectangle, as a share of the long side
_PREVIEW_SIDE = 1200  # detection runs on a copy of the photo this big
_FAR_FIRST = 0.25  # ... and there first when under this one (bench photos: 0.31 and more)
_ENLARGED = 1.25  # a sheet enlarged more than this to be rectified is interpolated bicubically
_QR_PREFIX = "sheetscan:"


@dataclass(frozen=True, eq=False)  # holds arrays: compared by identity
class RectifiedSheet:
    """The sheet cut out of the photo and seen straight on."""

    image: U8 = field(repr=False)
    """Rectified BGR image: the outer rectangle plus a margin (see `frame`)."""
    to_photo: F64
    """3 × 3 homography from rectified pixels to photo pixels."""
    corners: F64
    """4 × 2 photo points of the outer rectangle's corners, in the order of the rectified image's
    top-left, top-right, bottom-right, bottom-left."""
    source: Literal["form", "drawn"]
    """"form" when found by the printed form's markers, "drawn" for a hand-drawn sheet."""
    form: dict[str, str | int] | None
    """What the form's QR code says (`{"form": "form-3", "players": 3, "variant": "sochi", "pulka": 20}`),
    or None (a hand-drawn sheet, or a QR code that could not be read)."""
    partial: bool
    """True when part of the sheet lies outside the photo: what is outside is not read."""
    frame: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """The outer rectangle in rectified pixels (left, top, right, bottom)."""
    rotation: int | None = None
    """For a form: clockwise turn (0/90/180/270) of the upright sheet in the photo, and `image` is
    already upright. None for a hand-drawn sheet: `image` keeps the photo's orientation and the layout
    stage decides."""
    layout: SheetLayout | None = None
    """For a form: the form's layout (from the markers' arrangement and the QR code)."""
    notes: tuple[str, ...] = ()
    """Plain sentences about anything doubtful (a part outside the photo, an unreadable QR code)."""


def to_photo_points(points: F64 | list[tuple[float, float]], homography: F64) -> F64:
    """Map N × 2 points through a 3 × 3 homography (rectified or upright px → photo px)."""
    pts = f64(points).reshape(-1, 2)
    if len(pts) == 0:
        return pts
    return f64(cv2.perspectiveTransform(pts[None].astype(np.float64), f64(homography))[0])


def parse_form_text(text: str) -> dict[str, str | int] | None:
    """Read a form's QR text `sheetscan:form-3;players=3;variant=sochi;pulka=20` (None if not ours)."""
    text = text.strip()
    if not text.startswith(_QR_PREFIX):
        return None
    head, *pairs = text[len(_QR_PREFIX):].split(";")
    out: dict[str, str | int] = {"form": head.strip()}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            continue
        value = value.strip()
        out[key.strip()] = int(value) if value.isdigit() else value
    return out


def find_sheet(photo: Photo, *, debug: DebugSink = None) -> RectifiedSheet:
    """Find the sheet (printed form or hand-drawn) in `photo` and rectify it.

    Raises `NoSheetError` when neither a form's markers nor a drawn outer rectangle are found. A sheet
    that runs off the photo is returned with `partial=True` and a note saying which side. `debug` (a
    callable or a folder) receives `01_photo_sheet` (the outline found, on the photo) and `02_rectified`.
    """
    # Decision: a sheet photographed from afar (its paper well under half the photo) is looked for in
    # the paper's own region too, because every size in the search is a share of the photo: at such a
    # distance the table's dark rim lies within the frame's "bare paper" ring and the frame's lines are
    # a pixel wide in the preview. Where the paper is small (under `_FAR_FIRST` of the photo) its
    # region is searched first, since the whole photo then also shows false outlines (seen drawn 70-600
    # px off on blank sheets photographed 2.2 times farther than usual); otherwise only when the whole
    # photo gives nothing, so that no photo a sheet was found in before changes.
    views = [(photo, (0, 0))]
    paper = paper_box(photo)
    if paper is not None:
        (x0, y0, x1, y1), share = paper
        view = replace(photo, image=photo.image[y0:y1, x0:x1], width=x1 - x0, height=y1 - y0)
        views.insert(0 if share < _FAR_FIRST else 1, (view, (x0, y0)))
    # Decision: a sheet found whole beats one found running off its view, because a paper region that
    # is not the whole paper (the table's light patch, part of the paper) shows part of a sheet: the
    # whole photo is then looked at too.
    # Decision: so does a sheet found in a view of the paper's region where the usual ink levels show
    # no outline drawn whole and outlines seen at them run off the region's edge inside the photo
    # (`_find_in`'s `cut_short`), unless the whole photo shows none whole, because the paper goes on
    # past that edge: the region was cut short (the paper's far part shaded by the light's fall-off,
    # darker than the table's bright patch), the frame runs off it, and an outline of the grid inside
    # it was taken for the sheet (bench_styles seed 22000, thin, photo 0: 1355 px off; looked for in the
    # whole photo, 15 px). Not where a frame drawn whole is seen there: a far sheet's region holds the
    # table round the paper, whose texture closes outlines running off it (far 20002: the frame seen
    # whole in the region, 4 px off, and 15 px off in the whole photo).
    # Decision: a form found in the paper's region by fewer than its 4 markers is looked for in the whole
    # photo too, and a form found there by more markers replaces it, because the region is the paper's
    # bright part, and where the light falls off across the paper its far, shaded end (the markers
    # there) lies outside it: two markers pin the form's far end poorly (bench_styles seed 33000,
    # photo 7, a form tilted 27 degrees: 125 px off in twelve styles; the whole photo shows all 4).
    sheet, doubtful, markers, pinned = None, False, 0, 0
    for view, offset in views:
        found, seen, cut_short = _find_in(view, photo, offset)
        markers = max(markers, seen)
        if found is not None and sheet is not None and found.source == sheet.source == "form" \
                and seen > pinned and not found.partial:
            sheet, doubtful = found, False
        elif found is not None and (sheet is None or sheet.partial or (doubtful and not found.partial)):
            sheet, doubtful = found, cut_short
        if found is not None and found is sheet and found.source == "form":
            pinned = seen
        few = sheet is not None and sheet.source == "form" and pinned < 4 and view is not photo
        if sheet is not None and not sheet.partial and not doubtful and not few:
            break
    if sheet is None:
        saw = f"found {markers} of 4" if markers else "found none"
        raise NoSheetError(
            f"{photo.name}: no scoresheet found — looked for the 4 ArUco markers of a printed form ({saw}) "
            "and for the drawn outer rectangle of a hand-drawn sheet (no closed four-sided outline of ink "
            "big enough); photograph the whole sheet from above, filling most of the picture"
        )
    _emit_debug(debug, photo, sheet)
    return sheet


def _find_in(view: Photo, photo: Photo, offset: tuple[int, int]
             ) -> tuple[RectifiedSheet | None, int, bool]:
    """The sheet found in `view`, the part of `photo` whose top-left corner is at `offset`, rectified
    from `photo` (None when neither a form's markers nor a drawn outer rectangle are found there), how
    many of a form's markers were seen, and whether outlines seen at the usual ink levels run off an
    edge of `view` that lies inside `photo` (the view cut the sheet short)."""
    small, scale = view.preview(_PREVIEW_SIDE)
    gray = u8(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
    shift = f64(offset)
    markers = _detect_markers(gray, scale)
    if 0 < len(markers) < 4 and scale < 1.0:
        # Some markers seen but not all: small markers may need more pixels than the preview has.
        bigger, big_scale = view.preview(2 * _PREVIEW_SIDE)
        more = _detect_markers(u8(cv2.cvtColor(bigger, cv2.COLOR_BGR2GRAY)), big_scale)
        if len(more) > len(markers):
            markers = more
    line_width = max(2.0, 0.003 * max(small.shape[:2]))
    pooled = _min_pooled(view, small.shape[:2])
    ratios = {"min": dark_ratio(pooled, line_width=line_width, channel="min")}
    mask = below(ratios["min"], CONTRASTS[0])
    if len(markers) >= 2:
        form = _from_markers(photo, {i: m + shift for i, m in markers.items()}, mask, scale, shift)
        if form is not None:
            return form, len(markers), False

    def ratio(channel: str) -> NDArray[np.float32]:
        if channel not in ratios:
            ratios[channel] = dark_ratio(pooled, line_width=line_width, channel=channel)
        return ratios[channel]

    chosen, ran_off = find_drawn_frame(pooled, ratio, line_width=line_width)
    inside = {"left": offset[0] > 0, "top": offset[1] > 0, "right": offset[0] + view.width < photo.width,
              "bottom": offset[1] + view.height < photo.height}
    cut_short = any(inside[side] for side in ran_off)
    if chosen is not None:
        dark = u8(cv2.cvtColor(pooled, cv2.COLOR_BGR2GRAY))
        return _from_drawn_frame(photo, chosen, dark, scale, shift), len(markers), cut_short
    return None, len(markers), cut_short


def _min_pooled(photo: Photo, shape: tuple[int, ...]) -> U8:
    """The photo (BGR) reduced to `shape` keeping the darkest value of each block in each channel.

    Averaging (as the preview does) would wash a thin pencil line out at a quarter of the size; the
    minimum keeps its full darkness, and the paper's level is estimated from the same image.
    """
    h, w = shape[0], shape[1]
    factor = max(1, round(photo.height / h))
    if factor == 1:
        return photo.image
    dark = u8(cv2.erode(photo.image, np.ones((factor, factor), np.uint8), anchor=(0, 0)))
    if h * factor <= dark.shape[0] and w * factor <= dark.shape[1]:
        # Every `factor`-th pixel of every `factor`-th row, as the slice below takes them: OpenCV's
        # nearest-neighbour resize by a whole factor picks exactly those (tests/vision/
        # test_sheet_min_pooled.py), 3-4 times faster than numpy's copy of the strided 3-channel view.
        return u8(cv2.resize(dark[: h * factor, : w * factor], (w, h), interpolation=cv2.INTER_NEAREST))
    return u8(np.ascontiguousarray(dark[: h * factor : factor, : w * factor : factor]))


# --- printed forms ---------------------------------------------------------------------------------------

def _detect_markers(gray: U8, scale: float) -> dict[int, F64]:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, params)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, F64] = {}
    if ids is None:
        return found
    for quad, ident in zip(corners, ids.ravel(), strict=True):
        if 0 <= int(ident) <= 3 and int(ident) not in found:
            found[int(ident)] = f64(quad.reshape(4, 2)) / scale
    return found


def _form_layouts() -> list[SheetLayout]:
    return [layout for layout in LAYOUTS if layout.page is not None]


def _marker_homography(page: FormPage, markers: dict[int, F64]) -> tuple[F64, float] | None:
    """Homography normalised sheet → photo from the markers' corners, and its worst error in px."""
    src = np.concatenate([f64(page.marker_corners(i)) for i in sorted(markers)])
    dst = np.concatenate([markers[i] for i in sorted(markers)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        return None
    err = np.hypot(*(cv2.perspectiveTransform(src[None], h)[0] - dst).T)
    return f64(h), float(err.max())


def _from_markers(photo: Photo, markers: dict[int, F64], mask: U8, scale: float, shift: F64
                  ) -> RectifiedSheet | None:
    """The form whose markers (photo px) are `markers`; `mask` is the ink at `scale` of the part of the
    photo whose top-left corner is at `shift`."""
    candidates = []
    for layout in _form_layouts():
        assert layout.page is not None
        fitted = _marker_homography(layout.page, markers)
        if fitted is not None:
            candidates.append((fitted[1], layout, fitted[0]))
    if not candidates:
        return None
    candidates.sort(key=lambda c: c[0])
    notes: list[str] = []
    form: dict[str, str | int] | None = None
    chosen: tuple[SheetLayout, F64] | None = None
    for _err, layout, homography in candidates:
        assert layout.page is not None
        text = _read_qr(photo, layout.page, homography)
        parsed = parse_form_text(text) if text else None
        if parsed is not None:
            form = parsed
            named = [lay for lay, _ in [(c[1], c[2]) for c in candidates] if lay.name == parsed.get("form")]
            if named and named[0] is not layout:
                layout = named[0]
                homography = next(c[2] for c in candidates if c[1] is layout)
            chosen = (layout, homography)
            break
    if chosen is None:
        err, layout, homography = candidates[0]
        size = max(float(np.hypot(*(markers[i][0] - markers[i][2]))) for i in markers)
        if err > 0.15 * size:
            return None  # the markers do not sit where any of our forms puts them
        chosen = (layout, homography)
        notes.append("the form's QR code could not be read; the form was recognised by its markers")
    layout, homography = chosen
    unit = f64([[0, 0], [1, 0], [1, 1], [0, 1]])
    corners = to_photo_points(unit, homography)
    if len(markers) < 4:
        # Fewer markers pin the sheet less well; the printed frame is sharp, so fit the corners to it
        # where it is found near where the markers put it. (With all four, the markers' 16 sub-pixel
        # corners are more exact than any line fit.)
        band = max(3.0, 0.01 * max(mask.shape))
        refined = refine_quad(mask, (corners - shift) * scale, band=band) / scale + shift
        if float(np.abs(refined - corners).max()) < 3 * band / scale:
            corners = refined
    partial, where = _outside(corners, photo)
    if len(markers) < 4:
        missing = sorted({0, 1, 2, 3} - set(markers))
        notes.append(f"marker(s) {missing} not found; the sheet's position comes from the other markers")
    if partial:
        notes.append(f"the sheet runs off the photo ({where}); that part is not read")
    rotation = _rotation_of(corners)
    return _rectify(photo, corners, layout.aspect, source="form", form=form, partial=partial,
                    rotation=rotation, layout=layout, notes=tuple(notes))


def _read_qr(photo: Photo, page: FormPage, sheet_to_photo: F64) -> str:
    """Decode the form's QR code from where the page puts it, warped to a clean upright square."""
    left, top, side = page.qr_mm
    pad = side * 0.25  # some quiet zone around it
    corners_mm = [(left - pad, top - pad), (left + side + pad, top - pad),
                  (left + side + pad, top + side + pad), (left - pad, top + side + pad)]
    src = to_photo_points(f64([page.to_sheet(x, y) for x, y in corners_mm]), sheet_to_photo)
    detector = cv2.QRCodeDetector()
    for out in (360, 600):
        dst = f64([[0, 0], [out, 0], [out, out], [0, out]])
        warp = cv2.getPerspectiveTransform(dst.astype(np.float32), src.astype(np.float32))
        patch = cv2.warpPerspective(photo.gray, warp, (out, out),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=255)
        try:
            text, _, _ = detector.detectAndDecode(patch)
        except cv2.error:
            text = ""
        if text:
            return str(text)
    return ""


# --- hand-drawn sheets -------------------------------------------------------------------------------------


def _from_drawn_frame(photo: Photo, chosen: tuple[FrameCandidate, U8], dark: U8, scale: float, shift: F64
                      ) -> RectifiedSheet:
    """The sheet inside the chosen outline, found at `scale` in the part of the photo whose top-left
    corner is at `shift`, whose grey at that scale is `dark`."""
    best = chosen[0]
    corners = order_clockwise(fitted(chosen, dark, off_rim=True) / scale + shift)
    partial, where = _outside(corners, photo)
    notes: list[str] = []
    if best.touches or partial:
        partial = True
        sides = ", ".join(best.touches) or where
        notes.append(f"the sheet runs off the photo ({sides} edge); that part is not read")
    aspect = rectangle_aspect(corners, (photo.width / 2, photo.height / 2))
    return _rectify(photo, corners, aspect, source="drawn", form=None, partial=partial,
                    rotation=None, layout=None, notes=tuple(notes))


# --- shared ------------------------------------------------------------------------------------------------

def _outside(corners: F64, photo: Photo) -> tuple[bool, str]:
    tol = 0.01 * max(photo.width, photo.height)
    sides = []
    if corners[:, 0].min() < -tol:
        sides.append("left")
    if corners[:, 1].min() < -tol:
        sides.append("top")
    if corners[:, 0].max() > photo.width + tol:
        sides.append("right")
    if corners[:, 1].max() > photo.height + tol:
        sides.append("bottom")
    return bool(sides), ", ".join(sides)


def _rotation_of(corners: F64) -> int:
    """Clockwise turn of the upright sheet in the photo, to the nearest quarter: its top edge's angle."""
    dx, dy = corners[1] - corners[0]
    return round(math.degrees(math.atan2(dy, dx)) / 90.0) % 4 * 90


def _rectify(photo: Photo, corners: F64, aspect: float, *, source: Literal["form", "drawn"],
             form: dict[str, str | int] | None, partial: bool, rotation: int | None,
             layout: SheetLayout | None, notes: tuple[str, ...]) -> RectifiedSheet:
    margin = round(_MARGIN_SHARE * RECTIFIED_LONG_SIDE)
    inner = RECTIFIED_LONG_SIDE - 2 * margin
    if aspect >= 1:
        fw, fh = inner, max(1, round(inner / aspect))
    else:
        fw, fh = max(1, round(inner * aspect)), inner
    width, height = fw + 2 * margin, fh + 2 * margin
    frame = (float(margin), float(margin), float(margin + fw), float(margin + fh))
    rect = f64([[frame[0], frame[1]], [frame[2], frame[1]], [frame[2], frame[3]], [frame[0], frame[3]]])
    to_photo = f64(cv2.getPerspectiveTransform(rect.astype(np.float32), corners.astype(np.float32)))
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)  # top, right, bottom, left
    enlarged = max(2 * fw / (sides[0] + sides[2]), 2 * fh / (sides[1] + sides[3]))
    # Decision: a sheet photographed much smaller than the rectified image (a far sheet, a photo sent
    # through a messenger) is enlarged bicubically, because bilinear enlarging blurs thin pen strokes
    # (bench photos scaled to 3 MP, seeds 1000 and 2000, 16 each: digits 90.7/93.8 -> 94.0/95.1 %, zone
    # final values 85.0/90.8 -> 90.8/91.7 %); a sheet shrunk or enlarged a little stays bilinear
    # (bicubic for every sheet read 12 MP photos no better).
    interpolation = cv2.INTER_CUBIC if enlarged > _ENLARGED else cv2.INTER_LINEAR
    image = u8(cv2.warpPerspective(photo.image, to_photo, (width, height),
                                   flags=interpolation | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=(255, 255, 255)))
    return RectifiedSheet(image=image, to_photo=to_photo, corners=corners, source=source, form=form,
                          partial=partial, frame=frame, rotation=rotation, layout=layout, notes=notes)


def _emit_debug(debug: DebugSink, photo: Photo, sheet: RectifiedSheet) -> None:
    if not wants(debug):
        return
    # A reduced copy: a 12 MP PNG would take longer to write than the whole scan.
    small, scale = photo.preview(2000)
    overlay = small.copy()
    corners = np.round(sheet.corners * scale).astype(np.int32)
    thickness = max(2, round(0.003 * max(overlay.shape[:2])))
    cv2.polylines(overlay, [corners], True, (0, 0, 255), thickness)
    cv2.circle(overlay, (int(corners[0][0]), int(corners[0][1])), 4 * thickness, (0, 200, 0), -1)
    emit(debug, "01_photo_sheet", overlay)
    emit(debug, "02_rectified", sheet.image)
