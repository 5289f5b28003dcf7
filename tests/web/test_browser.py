"""The web app in real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

Flows: open the sample, correct it to its truth, save and settle (the payments must be those of
`sheetscan replay` of the game it was drawn from); two people saving the same sheet; a corrupt upload.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask

from ._helpers import stored, truth_zone
from .conftest import SAMPLE

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FilePayload, Page

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Chromium at /usr/bin/chromium (apt-get install -y chromium)"),
]

# Nothing may be fetched from the internet: no background services, no updates, no sync.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the module (it starts in about a second)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, live_server: str) -> Iterator[Page]:
    """A fresh browser context's page; fails the test on any script error or request off this server."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("request", lambda request: None if request.url.startswith((live_server, "data:"))
              else errors.append(f"request off the server: {request.url}"))
    yield opened
    context.close()
    assert not errors, errors


def zones_on_page(page: Page) -> list[dict[str, Any]]:
    """Each zone section's seat data and its rows' keys and crossed-out state, in page order."""
    result: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll('section.zone')].map(
        (s) => ({zone: Number(s.dataset.zone), player: Number(s.dataset.player), kind: s.dataset.kind,
                 on: s.dataset.on === '' ? null : Number(s.dataset.on),
                 rows: [...s.querySelectorAll('li.number')].map((li) => ({
                    key: li.dataset.key, crossed: li.querySelector('.crossed-box').checked}))}))""")
    return result


def correct_to(page: Page, truth_sheet: dict[str, Any], price: str) -> None:
    """Type the true sheet into the review page as a user would: names, price, and every zone's
    numbers (crossed-out marks cleared, extra readings removed, missing numbers added). The first zone
    is typed afresh: all its readings removed and every number added by hand."""
    for seat, name in enumerate(truth_sheet["players"]):
        page.fill(f'input[name="player-{seat}"]', name)
    page.fill('input[name="price"]', price)
    for index, zone in enumerate(zones_on_page(page)):
        values = truth_zone(truth_sheet, zone)
        section = page.locator(f'section.zone[data-zone="{zone["zone"]}"]')
        rows = zone["rows"]
        for row in rows:
            if row["crossed"]:
                page.uncheck(f'input[name="{row["key"]}-crossed"]')
        keep = 0 if index == 0 else min(len(rows), len(values))
        for row, value in zip(rows[:keep], values, strict=False):
            page.fill(f'input[name="{row["key"]}-value"]', str(value))
        for row in rows[keep:]:
            page.check(f'input[name="{row["key"]}-remove"]')
        for value in values[keep:]:
            section.locator("button.add-number").click()
            page.keyboard.type(str(value))  # the new row's field has the focus


def test_open_the_sample_correct_it_save_and_settle(page: Page, live_server: str, app: Flask,
                                                    truth: dict[str, Any], replayed: dict[str, Any]) -> None:
    page.goto(live_server + "/")
    page.click(f'a.open-sheet:has-text("{SAMPLE.name}")')
    page.wait_for_url("**/sheets/1")
    scan = stored(app).scan
    assert page.locator("svg rect.box").count() == sum(len(z["numbers"]) for z in scan["zones"])
    assert page.evaluate("document.querySelector('.photo img').naturalWidth") == scan["image"]["width"]
    # Clicking an unsure box (any box if all were read surely) puts the cursor in its number's field,
    # and that box lights up.
    unsure = page.locator("svg rect.box.unsure" if page.locator("svg rect.box.unsure").count() else
                          "svg rect.box").first
    key = unsure.get_attribute("data-key")
    unsure.click()
    assert page.evaluate("document.activeElement.name") == f"{key}-value"
    assert "active" in (unsure.get_attribute("class") or "")
    # The loupe shows that part of the photo enlarged, turned by the scan's rotation (sheet upright).
    assert page.is_visible("#loupe")
    assert page.get_attribute("#loupe", "data-rotation") == str(scan["layout"]["rotation"])
    turn = page.evaluate("document.querySelector('.loupe-view').style.transform")
    assert turn == f"rotate({-scan['layout']['rotation']}deg)"
    # One of the scanner's alternatives is taken with a click.
    alternative = page.locator(f'li.number[data-key="{key}"] button.alt').first
    if alternative.count():
        offered = alternative.get_attribute("data-value")
        alternative.click()
        assert page.input_value(f'input[name="{key}-value"]') == offered

    correct_to(page, truth["sheet"], replayed["price"])
    # Before saving, the page has asked the rules about the form as it stands.
    page.wait_for_function("document.getElementById('problems-state').textContent.includes('not saved')")
    page.wait_for_selector("#problems-list p.ok")
    assert page.locator("li.number.goes-down").count() == 0
    page.click('button[value="settle"]')
    page.wait_for_url("**/sheets/1/settlement")
    payments = page.evaluate("""() => [...document.querySelectorAll('li.payment')].map(
        (li) => [li.dataset.from, li.dataset.to, li.dataset.whists])""")
    assert payments == [[p["from"], p["to"], p["whists"]] for p in replayed["settlement"]["payments"]]
    for name, balance in replayed["settlement"]["balances"].items():
        assert page.inner_text(f'tr[data-player="{name}"] td.balance') == balance
    assert stored(app).version == 2
    page.click("text=← back to the review")
    assert "No problems: the sheet can be settled." in page.inner_text("#problems")


def test_two_people_save_the_same_sheet(browser: Browser, page: Page, live_server: str, app: Flask) -> None:
    first_zone = stored(app).scan["zones"][0]["numbers"]
    assert len(first_zone) >= 2
    other = browser.new_context().new_page()
    try:
        page.goto(live_server + "/sheets/1")
        other.goto(live_server + "/sheets/1")
        page.fill('input[name="z0-0-value"]', "111")
        page.click('button[value="save"]')
        assert "Saved: version 2." in page.inner_text("#saved")

        other.fill('input[name="z0-1-value"]', "222")
        other.fill('input[name="player-2"]', "Vera")
        other.click('button[value="save"]')
        assert "Someone else changed this sheet" in other.inner_text("#form-message")
        conflict = other.inner_text("#conflict")
        assert "version 2" in conflict and "111" in conflict and "222" in conflict
        # Nothing typed is lost; the first person's number is shown as theirs, not put into the form.
        assert other.input_value('input[name="z0-1-value"]') == "222"
        assert other.input_value('input[name="player-2"]') == "Vera"
        assert other.input_value('input[name="z0-0-value"]') == str(first_zone[0]["value"])
        other.click('button[value="save"]')
        assert "Saved: version 3." in other.inner_text("#saved")
    finally:
        other.context.close()
    numbers = stored(app).review["zones"][0]["numbers"]
    assert [numbers[0]["value"], numbers[1]["value"]] == [first_zone[0]["value"], 222]


def test_an_impossible_number_is_marked_at_its_field(page: Page, live_server: str, app: Flask) -> None:
    page.goto(live_server + "/sheets/1")
    # Enter goes on to the next number rather than saving.
    page.focus('input[name="z0-0-value"]')
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.name") == "z0-1-value" and "saved" not in page.url
    page.fill('input[name="z0-0-value"]', "-3")
    page.fill('input[name="z0-1-value"]', "40")
    # A number inserted after the first one gets a fresh key and stands second.
    page.click('li.number[data-key="z0-0"] button.insert-after')
    page.keyboard.type("1")
    rows = 'section.zone[data-zone="0"] li.number'
    keys = page.eval_on_selector_all(rows, "(rows) => rows.map((row) => row.dataset.key)")
    assert keys[1] == f"z0-{len(keys) - 1}"
    page.click('button[value="save"]')
    assert "Not saved: 1 field to fix" in page.inner_text("#form-message")
    assert "-3 is negative" in page.inner_text('li.number[data-key="z0-0"] .field-error')
    assert page.input_value('input[name="z0-0-value"]') == "-3"
    assert page.input_value('input[name="z0-1-value"]') == "40"
    # Nothing typed is lost, the inserted number included, in its place.
    assert page.eval_on_selector_all(rows, "(rows) => rows.map((row) => row.dataset.key)") == keys
    assert page.input_value(f'input[name="{keys[1]}-value"]') == "1"
    assert stored(app).version == 1


def test_a_corrupt_upload_says_what_is_wrong(page: Page, live_server: str, app: Flask) -> None:
    page.goto(live_server + "/")
    page.select_option('select[name="variant"]', "rostov")
    data = SAMPLE.read_bytes()
    broken: FilePayload = {"name": "broken.jpg", "mimeType": "image/jpeg", "buffer": data[: len(data) // 3]}
    page.set_input_files('input[name="photo"]', files=[broken])
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#upload-error")
    assert "broken.jpg: the JPEG image is truncated" in page.inner_text("#upload-error")
    assert page.input_value('select[name="variant"]') == "rostov"
    # An empty file is refused before it is sent: the page stays, the message shows, the choice stays.
    empty: FilePayload = {"name": "empty.jpg", "mimeType": "image/jpeg", "buffer": b""}
    page.set_input_files('input[name="photo"]', files=[empty])
    page.click("#upload-form button[type=submit]")
    assert "empty.jpg: the file is empty (0 bytes)." in page.inner_text("#upload-check")
    assert page.input_value('select[name="variant"]') == "rostov"
    assert len(stored(app).review["players"]) == 3 and page.locator("a.open-sheet").count() == 1


def test_upload_a_phone_photo_turned_by_its_exif_tag(page: Page, live_server: str, app: Flask) -> None:
    # Stored as 3000 × 2250 pixels with EXIF Orientation 6: shown (and scanned) as 2250 × 3000.
    photo = SAMPLE.parent / "photo-rostov-3p-hand.jpg"
    page.goto(live_server + "/")
    page.select_option('select[name="variant"]', "rostov")
    page.set_input_files('input[name="photo"]', str(photo))
    page.click("#upload-form button[type=submit]")
    page.wait_for_url("**/sheets/2", timeout=30_000)
    scan = stored(app, 2).scan
    assert (scan["image"]["width"], scan["image"]["height"]) == (2250, 3000)
    page.wait_for_function("document.querySelector('.photo img').complete")
    shown = page.evaluate("""() => { const img = document.querySelector('.photo img');
        const box = img.getBoundingClientRect();
        const svg = document.querySelector('.photo svg').getBoundingClientRect();
        return [img.naturalWidth, img.naturalHeight, box.width, box.height, svg.width, svg.height]; }""")
    # The browser turns the photo as the scanner did, so the boxes (photo pixels) land on the digits.
    assert shown[:2] == [2250, 3000]
    assert shown[2:4] == shown[4:6] and abs(shown[2] / shown[3] - 2250 / 3000) < 0.01
    assert page.input_value('select[name="variant"]') == "rostov"
