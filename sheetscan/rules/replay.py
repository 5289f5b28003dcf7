"""Replaying a game record onto a sheet, deal by deal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from sheetscan.errors import SheetscanError
from sheetscan.rules._score import DealScore
from sheetscan.rules.closing import PulkaWrite, game_over, write_pulka
from sheetscan.rules.game import Deal, GameConfig, GameRecord
from sheetscan.rules.options import PulkaClose
from sheetscan.rules.raspasy import next_raspasy_run
from sheetscan.rules.scoring import score_deal
from sheetscan.rules.sheet import Sheet, Zone

__all__ = ["ReplayedDeal", "replay", "replay_deals"]


@dataclass(frozen=True)
class ReplayedDeal:
    """One deal of a replay and what it wrote."""

    number: int
    """1 for the first deal."""
    deal: Deal
    """The deal as recorded."""
    written: DealScore
    """What it wrote on the sheet, after any help moved pulka points on."""
    raspasy_index: int
    """For a raspasy, how many raspasy of the same run came before it (picks the progression's price)."""
    closed: bool
    """Whether the pulka was closed after this deal."""


def replay_deals(record: GameRecord) -> Iterator[ReplayedDeal]:
    """Score each deal in order, carrying the raspasy run and the pulka totals (for help) along.

    Errors are re-raised with the deal's number and text form in front, e.g.
    "deal 7 (Vera deals, Anna plays 7h, …): tricks add up to 11, not 10 …".
    """
    config = record.config
    pulka: Counter[str] = Counter()
    run = 0
    helps = config.options.help and config.options.pulka_close is PulkaClose.EACH
    for number, deal in enumerate(record.deals, start=1):
        try:
            score = score_deal(deal, config, raspasy_index=run)
            written = score
            if helps and any(pulka[name] + points > config.pulka for name, points in score.pulka.items()):
                written = _with_help(score, pulka, config)
        except SheetscanError as error:
            raise type(error)(f"deal {number} ({deal}): {error}") from None
        pulka.update(written.pulka)
        index = run
        run = next_raspasy_run(run, deal, score, config)
        yield ReplayedDeal(number, deal, written, index, game_over(pulka, config))


def _with_help(score: DealScore, pulka: Counter[str], config: GameConfig) -> DealScore:
    """The deal's entries once points beyond a closed pulka have gone to others' pulkas."""
    moved = PulkaWrite()
    for name in config.players:
        if score.pulka.get(name):
            write_pulka(pulka, name, score.pulka[name], config, moved)
    whists = Counter(score.whists)
    whists.update(moved.whists)
    return DealScore(dict(moved.pulka), score.gora, dict(whists), score.made, score.whisted)


def replay(record: GameRecord) -> Sheet:
    """The sheet a game record produces: every zone's running totals, one number per deal that wrote."""
    config = record.config
    players = config.players
    pulka: dict[str, list[int]] = {name: [] for name in players}
    gora: dict[str, list[int]] = {name: [] for name in players}
    whists: dict[str, dict[str, list[int]]] = {
        name: {on: [] for on in players if on != name} for name in players
    }

    def add(column: list[int], amount: int) -> None:
        column.append((column[-1] if column else 0) + amount)

    for step in replay_deals(record):
        for name, points in step.written.pulka.items():
            add(pulka[name], points)
        for name, points in step.written.gora.items():
            add(gora[name], points)
        for (writer, on), count in step.written.whists.items():
            add(whists[writer][on], count)
    zones = {
        name: Zone(tuple(pulka[name]), tuple(gora[name]), {on: tuple(v) for on, v in whists[name].items()})
        for name in players
    }
    return Sheet(config.variant, players, config.pulka, zones, config.options)
