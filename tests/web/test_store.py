"""The SQLite store on its own: rows, versions, and two connections saving at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from webapp._review import Review
from webapp._store import Conflict, Store


def review(value: int) -> Review:
    return {"players": ["A", "B", "C"], "pulka": 20, "variant": "sochi", "price": "1",
            "zones": [{"numbers": [{"value": value, "crossed_out": False, "read": None}]}]}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(tmp_path / "s.sqlite")
    opened.create_schema()
    yield opened
    opened.close()


def test_add_get_list_and_photo(store: Store) -> None:
    first = store.add(filename="a.jpg", photo=b"\xff\xd8\xffA", photo_type="image/jpeg", scan={"k": 1},
                      review=review(2), sheet={})
    second = store.add(filename="b.png", photo=b"png", photo_type="image/png", scan={}, review=review(4),
                       sheet={})
    assert (first, second) == (1, 2) and store.count() == 2
    sheet = store.get(first)
    assert sheet is not None and sheet.scan == {"k": 1} and sheet.review == review(2) and sheet.version == 1
    assert [s.filename for s in store.list()] == ["b.png", "a.jpg"]
    assert store.list()[0].players == ()
    assert store.photo(first) == (b"\xff\xd8\xffA", "image/jpeg")
    assert store.get(99) is None and store.photo(99) is None and store.sheet(99) is None


def test_the_schema_is_made_once_and_kept(tmp_path: Path, store: Store) -> None:
    store.add(filename="a.jpg", photo=b"x", photo_type="image/jpeg", scan={}, review=review(2), sheet={})
    again = Store(tmp_path / "s.sqlite")
    again.create_schema()
    assert again.count() == 1
    again.close()


def test_saves_raise_the_version_and_a_stale_one_is_a_conflict(tmp_path: Path, store: Store) -> None:
    sheet_id = store.add(filename="a.jpg", photo=b"x", photo_type="image/jpeg", scan={}, review=review(2),
                         sheet={})
    other = Store(tmp_path / "s.sqlite")  # a second user's connection
    assert store.save_review(sheet_id, review(6), {"v": 6}, based_on=1) == 2
    assert store.sheet(sheet_id) == {"v": 6}
    assert store.save_review(sheet_id, review(7), {"players": ["A", "B", "C"]}, based_on=2) == 3
    assert store.list()[0].players == ("A", "B", "C")
    with pytest.raises(Conflict) as caught:
        other.save_review(sheet_id, review(8), {}, based_on=1)
    assert caught.value.current.version == 3 and caught.value.current.review == review(7)
    assert other.save_review(sheet_id, review(8), {}, based_on=3) == 4
    with pytest.raises(KeyError):
        store.save_review(42, review(8), {}, based_on=1)
    other.close()


def test_delete(store: Store) -> None:
    sheet_id = store.add(filename="a.jpg", photo=b"x", photo_type="image/jpeg", scan={}, review=review(2),
                         sheet={})
    assert store.delete(sheet_id) and not store.delete(sheet_id) and store.count() == 0
