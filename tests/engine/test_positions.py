"""Hand-written positions (tests/data/engine/positions.txt, each rule cited in its first line): the text
form reads back to the same text, and the legal actions there are exactly the listed ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetscan.engine import DealState, Phase

DATA = Path(__file__).resolve().parent.parent / "data" / "engine" / "positions.txt"
CASES = [line.split(" | ") for line in DATA.read_text(encoding="utf-8").splitlines()
         if line.strip() and not line.startswith("#")]


def legal(state: DealState) -> set[str]:
    phase = state.phase
    if phase is Phase.AUCTION:
        return {str(c) for c in state.legal_calls()}
    if phase is Phase.DEFENCE:
        return {w.value for w in state.legal_defence()}
    if phase is Phase.PLAY:
        return {str(c) for c in state.legal_cards()}
    raise AssertionError(f"unexpected phase {phase.name}: {state.text()}")


def test_the_data_file_cites_its_source() -> None:
    assert DATA.read_text(encoding="utf-8").startswith("# Source: ../shared/rules/")
    assert len(CASES) >= 15


@pytest.mark.parametrize(("position", "actions"), CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_position(position: str, actions: str) -> None:
    state = DealState.from_text(position)
    assert state.text() == position.rstrip()
    assert legal(state) == set(actions.split()), state.text()
