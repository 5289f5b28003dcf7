"""The printable form: the form-3/form-4 layout on A4 with ArUco markers, a QR code, labels and names.

Everything is placed from `sheetscan.layouts` (`SheetLayout.page` in millimetres), so the reader that
finds the markers maps them back with the same numbers. Text uses DejaVu Sans (Cyrillic); without it
the labels fall back to Pillow's built-in font in Latin letters rather than failing.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import segno
from PIL import Image, ImageDraw, ImageFont

from sheetscan.errors import InvalidInputError
from sheetscan.layouts import LABEL_MM, SheetLayout, find_layout, label_places, layout_for
from sheetscan.rules import find_variant

__all__ = ["FONT_PATHS", "form_page", "form_qr_text", "save_form"]

FONT_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
)
"""Fonts with Cyrillic letters tried in turn (Debian: `apt-get install fonts-dejavu-core`)."""

_LATIN = {"пуля": "pulka", "гора": "gora", "висты": "whists", "имя": "name"}
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font_path() -> str | None:
    return next((p for p in FONT_PATHS if Path(p).is_file()), None)


def _font(size_px: int) -> tuple[Font, bool]:
    """A font of about `size_px` pixels and whether it has Cyrillic letters."""
    path = _font_path()
    if path is not None:
        return ImageFont.truetype(path, max(6, size_px)), True
    return ImageFont.load_default(max(6, size_px)), False


def _text(word: str, cyrillic: bool) -> str:
    return word if cyrillic else _LATIN.get(word, word.encode("ascii", "replace").decode())


def form_qr_text(layout: SheetLayout, *, variant: str | None = None, pulka: int | None = None) -> str:
    """What the QR code says, e.g. `sheetscan:form-3;players=3;variant=sochi;pulka=20`."""
    parts = [f"sheetscan:{layout.name}", f"players={layout.players}"]
    if variant:
        parts.append(f"variant={variant}")
    if pulka is not None:
        parts.append(f"pulka={pulka}")
    return ";".join(parts)


def _marker(ident: int, side: int) -> npt.NDArray[np.uint8]:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return np.asarray(cv2.aruco.generateImageMarker(dictionary, ident, side), np.uint8)


def _qr(text: str, side: int) -> npt.NDArray[np.uint8]:
    # Decision: error correction L, because it keeps the code small (version 3) so that its modules stay
    # big enough in a phone photo; the form's markers, not the QR code, carry the geometry.
    code = segno.make(text, error="l", micro=False, boost_error=False)
    matrix = np.array([list(row) for row in code.matrix], np.uint8)
    matrix = np.pad(matrix, 2)  # two modules of quiet zone inside the printed square
    image = np.where(matrix > 0, 0, 255).astype(np.uint8)
    return np.asarray(cv2.resize(image, (side, side), interpolation=cv2.INTER_NEAREST), np.uint8)


def _paste_text(page: Image.Image, text: str, font: Font, centre: tuple[float, float], angle: int,
                fill: int) -> None:
    """Text centred at `centre`, turned clockwise by `angle` (upright for the seat at that edge)."""
    left, top, right, bottom = font.getbbox(text)
    tile = Image.new("L", (int(right - left) + 4, int(bottom - top) + 4), 0)
    ImageDraw.Draw(tile).text((2 - left, 2 - top), text, fill=255, font=font)
    tile = tile.rotate(-angle, expand=True)
    colour = Image.new("L", tile.size, fill)
    page.paste(colour, (int(centre[0] - tile.width / 2), int(centre[1] - tile.height / 2)), tile)


def form_page(layout: SheetLayout, *, px_per_mm: float, qr_text: str | None = None,
              printed_target: int | None = None, title: str | None = None, subtitle: str | None = None,
              rng: np.random.Generator | None = None) -> npt.NDArray[np.uint8]:
    """The form as a BGR image of the whole A4 page at `px_per_mm` (300 dpi ≈ 11.81 px/mm).

    `subtitle` follows the title (the variant and target, say); `rng`, when given, varies the print a
    little (toner darkness, a faint paper tint) for photos.
    """
    page_info = layout.page
    if page_info is None:
        raise ValueError(f"layout {layout.name} is not a printable form")
    w_mm, h_mm = page_info.size_mm
    width, height = round(w_mm * px_per_mm), round(h_mm * px_per_mm)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    ink = 0 if rng is None else int(rng.uniform(0, 60))
    quiet = 150 if rng is None else int(rng.uniform(140, 185))

    def mm(x: float, y: float) -> tuple[float, float]:
        return (x * px_per_mm, y * px_per_mm)

    sl, st, sr, sb = page_info.sheet_mm

    def sheet_px(p: tuple[float, float]) -> tuple[float, float]:
        return mm(sl + p[0] * (sr - sl), st + p[1] * (sb - st))

    g = layout.geometry()
    heavy = max(1, round(0.6 * px_per_mm))
    light = max(1, round(0.35 * px_per_mm))
    for i, (left, top, right, bottom) in enumerate(g.rectangles):
        draw.rectangle([sheet_px((left, top)), sheet_px((right, bottom))], outline=ink,
                       width=heavy if i == 0 else light)
    for spoke in g.spokes:
        draw.line([sheet_px(p) for p in spoke], fill=ink, width=light, joint="curve")
    for a, b in g.splits:
        draw.line([sheet_px(a), sheet_px(b)], fill=ink, width=light)
    (cx, cy), (rx, ry) = g.circle_center, g.circle_radius
    draw.ellipse([sheet_px((cx - rx, cy - ry)), sheet_px((cx + rx, cy + ry))], outline=ink, width=light)

    label_font, cyrillic = _font(int(LABEL_MM * px_per_mm))
    for zone, place in zip(g.zones, label_places(layout), strict=True):
        if place is None:
            continue
        (x, y), angle = place
        word = {"pulka": "пуля", "gora": "гора", "whists": "висты"}[zone.kind]
        _paste_text(page, _text(word, cyrillic), label_font, (x * px_per_mm, y * px_per_mm), angle, quiet)

    if printed_target is not None:
        target_font, _ = _font(int(ry * (sb - st) * 0.9 * px_per_mm))
        _paste_text(page, str(printed_target), target_font, sheet_px((cx, cy)), 0, ink)

    # Names: a line in the margin along each player's edge, upright for that player.
    name_font, _ = _font(int(3.2 * px_per_mm))
    seat_edges = ["bottom", "left", "right"] if layout.players == 3 else ["bottom", "left", "top", "right"]
    offsets = {"bottom": (0.5, 1.0, 0.0, 5.5, 0), "top": (0.5, 0.0, 0.0, -5.5, 180),
               "left": (0.0, 0.5, -5.5, 0.0, 90), "right": (1.0, 0.5, 5.5, 0.0, -90)}
    for edge in seat_edges:
        fx, fy, dx, dy, angle = offsets[edge]
        x, y = sheet_px((fx, fy))
        label = _text("имя", cyrillic) + " " + "_" * 22
        _paste_text(page, label, name_font, (x + dx * px_per_mm, y + dy * px_per_mm), angle, quiet - 40)

    title_font, cyrillic = _font(int(6.0 * px_per_mm))
    small_font, _ = _font(int(2.8 * px_per_mm))
    who = "на троих" if layout.players == 3 else "на четверых"
    heading = title or (f"Преферанс · пуля {who}" if cyrillic else f"Preferans: pulka for {layout.players}")
    top_band = page_info.markers[0][2] - 1.0
    title_at = mm(sl, top_band - 13.0 if layout.players == 3 else top_band - 18.0)
    draw.text(title_at, heading, fill=ink, font=title_font)
    if subtitle:
        right = draw.textbbox(title_at, heading, font=title_font)[2]
        sub_font, _ = _font(int(4.0 * px_per_mm))
        draw.text((right + 4.0 * px_per_mm, title_at[1] + 1.6 * px_per_mm), subtitle, fill=quiet - 60,
                  font=sub_font)
    hint = ("Сфотографируйте лист целиком, чтобы были видны все четыре метки"
            if cyrillic else "Photograph the whole sheet with all four markers in view")
    hint_y = top_band - 4.0 if layout.players == 3 else page_info.qr_mm[1] + 6.0
    draw.text(mm(sl, hint_y), hint, fill=quiet - 40, font=small_font)

    marker_side = round(page_info.marker_mm * px_per_mm)
    for ident, left, top in page_info.markers:
        x, y = (round(v) for v in mm(left, top))
        page.paste(Image.fromarray(_marker(ident, marker_side)), (x, y))
    qx, qy, qs = page_info.qr_mm
    text = qr_text or form_qr_text(layout)
    x, y = (round(v) for v in mm(qx, qy))
    page.paste(Image.fromarray(_qr(text, round(qs * px_per_mm))), (x, y))

    grey = np.asarray(page, np.uint8)
    bgr = np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), np.uint8)
    if rng is not None:
        tint = np.array([rng.uniform(0.93, 1.0), rng.uniform(0.96, 1.0), rng.uniform(0.97, 1.0)], np.float32)
        bgr = np.clip(bgr.astype(np.float32) * tint, 0, 255).astype(np.uint8)
    return bgr


def _subtitle(variant: str | None, pulka: int | None) -> str | None:
    """E.g. "сочинка · пуля до 20": the variant's everyday Russian name and the target."""
    parts = []
    if variant:
        try:
            names = find_variant(variant).aliases
        except ValueError:
            names = (variant,)
        cyrillic = [n for n in names if n[:1].isalpha() and not n.isascii()]
        everyday = [n for n in cyrillic if n.endswith("ка") and " " not in n]
        parts.append((everyday or cyrillic or [variant])[0])
    if pulka is not None:
        parts.append(f"пуля до {pulka}")
    if not parts:
        return None
    text = " · ".join(parts)
    # Without a Cyrillic font the title is in Latin letters; the variant's own name reads better there.
    return text if _font_path() is not None else f"{variant or ''} {pulka or ''}".strip()


def save_form(path: str | Path, *, players: int, variant: str | None = None, pulka: int | None = None,
              layout: str | None = None, dpi: int = 300) -> SheetLayout:
    """Write the printable form to `path` (.pdf or .png), A4 at `dpi`; returns the layout used."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise InvalidInputError(f"{target}: the form is written as .pdf or .png")
    chosen = find_layout(layout) if layout else layout_for(players, printed=True)
    if not chosen.printed or chosen.players != players:
        raise InvalidInputError(f"layout {chosen.name} is not a printable form for {players} players")
    px_per_mm = dpi / 25.4
    image = form_page(chosen, px_per_mm=px_per_mm, qr_text=form_qr_text(chosen, variant=variant, pulka=pulka),
                      printed_target=pulka, subtitle=_subtitle(variant, pulka))
    grey = Image.fromarray(image[:, :, 0])
    if suffix == ".pdf":
        grey.save(target, "PDF", resolution=float(dpi))
    else:
        grey.save(target, "PNG", dpi=(dpi, dpi))
    return chosen
