"""The variants as data: Sochi, Leningrad, Rostov and the tournament convention "Питер".

A `Variant` is a price table, the whisting duties, a preset of `Options` and a few flags; scoring code
reads these fields and never the variant's name (STYLE.md §3). Sources:
- Сочинка, Ленинградка, Ростовка: ../shared/rules/004_245209cfcabb2668.txt, the tables «Запись в пульку
  и в гору …» and the «Основные характеристики» lists of each section;
- the duties and the ladder prices: ../shared/rules/000_bb055394086558d5.txt, «Виды и стоимость игр»,
  «Правила преферанса для вистующих»;
- "Питер": 000_bb055394086558d5.txt, «Регламент турнира», «Базовая конвенция турнира – Питер».
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from sheetscan.errors import InvalidInputError
from sheetscan.rules.cards import Contract
from sheetscan.rules.options import (
    ConsolationTo,
    Options,
    PulkaClose,
    RaspasyScoring,
    RaspasyZero,
    Responsibility,
    WhistStyle,
)

__all__ = ["VARIANTS", "PriceRow", "UnknownVariantError", "Variant", "find_variant"]


class UnknownVariantError(InvalidInputError):
    """A variant name that is none of the known names or aliases (a `ValueError`)."""


@dataclass(frozen=True)
class PriceRow:
    """One row of a variant's scoring table: what a contract is worth."""

    level: int
    """The contract level 6–10, or 0 for the misère."""
    pulka: int
    """Points the declarer writes to his pulka when the contract is made («Выполнен»)."""
    whist: int
    """Whists a whister writes on the declarer per trick he took («Взятка на висте»)."""
    undertrick: int
    """Gora points per undertrick for the declarer («Недобранная взятка на игре»); misère: per trick."""
    duty: int
    """Tricks the defenders must take together (000: 6→4, 7→2, 8→1, 9→1, 10→1; misère none)."""

    def whister_shortfall(self, responsibility: Responsibility) -> int:
        """Gora points per trick a whister failed to take («Недобранная взятка на висте»)."""
        if responsibility is Responsibility.FULL:
            return self.undertrick
        return self.undertrick // 2


def _table(
    pulka: tuple[int, ...], whist: tuple[int, ...], undertrick: tuple[int, ...]
) -> tuple[PriceRow, ...]:
    """Rows for 6, 7, 8, 9, 10 and the misère (given last), with the duties of 000."""
    levels = (6, 7, 8, 9, 10, 0)
    duties = (4, 2, 1, 1, 1, 0)
    return tuple(
        PriceRow(level, p, w, u, d) for level, p, w, u, d in zip(levels, pulka, whist, undertrick, duties,
                                                                  strict=True)
    )


@dataclass(frozen=True)
class Variant:
    """A Preferans variant: its scoring table and its preset conventions."""

    name: str
    """Canonical name, as written in the files' `"variant"` field."""
    title: str
    """The Russian name players use."""
    aliases: tuple[str, ...]
    """Other names `find_variant` accepts (Russian and English), lower case."""
    prices: tuple[PriceRow, ...]
    """The scoring table, one row per contract level and the misère."""
    options: Options
    """The variant's preset of the house conventions."""
    exit_needs_made: bool = False
    """A game ends a run of raspasy only if it was made («Несыгранная игра – не выход из распасов»)."""
    exit_needs_whist: bool = False
    """A game ends a run of raspasy only if someone whisted («Невистованная игра — не выход»)."""
    based_on: str | None = None
    """The variant this one is a preset of (its price table is that variant's)."""
    source: str = ""
    """Where the rules of this variant are written."""

    @functools.cached_property
    def _rows(self) -> dict[int, PriceRow]:
        return {row.level: row for row in self.prices}

    def row(self, contract: Contract) -> PriceRow:
        """The price row of a contract (its level, or the misère)."""
        try:
            return self._rows[contract.level]
        except KeyError:
            raise InvalidInputError(f"variant {self.name} has no price for contract {contract}") from None

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical name and every alias."""
        return (self.name, *self.aliases)


_CLASSIC_TABLE = _table(
    pulka=(2, 4, 6, 8, 10, 10), whist=(2, 4, 6, 8, 10, 0), undertrick=(2, 4, 6, 8, 10, 10)
)
# 004 «Ленинградка»: «стоимость игры в ленинградке удвоенная: висты и очки в гору пишутся вдвойне».
_LENINGRAD_TABLE = _table(
    pulka=(2, 4, 6, 8, 10, 10), whist=(4, 8, 12, 16, 20, 0), undertrick=(4, 8, 12, 16, 20, 20)
)

SOCHI = Variant(
    name="sochi",
    title="Сочинка",
    aliases=("сочи", "сочинка", "сочинский", "сочинский преферанс", "sochinka"),
    prices=_CLASSIC_TABLE,
    options=Options(
        whist_style=WhistStyle.GREEDY,
        whist_responsibility=Responsibility.FULL,
        consolation="price",
        consolation_to=ConsolationTo.DEFENDERS,
        raspasy_scoring=RaspasyScoring.GORA,
        raspasy_progression=(1, 2, 3),
        raspasy_zero=RaspasyZero.PULKA,
        # Decision: 004 names no exit rule for Sochi, so any contract ends a run of raspasy.
        raspasy_exit=(6,),
        # Decision: полвиста belongs to the gentleman conventions (000), not to greedy Sochi.
        half_whist=False,
        stalingrad=False,
        # 000: «Все игры на взятки разыгрываются в случае, если завистованы. Не составляет исключения и
        # десятерная игра.»
        ten_checked=False,
        pulka_close=PulkaClose.EACH,
        help=True,
        pulka_point_whists=10,
        gora_point_whists=10,
        amnesty=False,
    ),
    source="004_245209cfcabb2668.txt, «СОЧИНКА (СОЧИ)»",
)

LENINGRAD = Variant(
    name="leningrad",
    title="Ленинградка",
    aliases=("ленинград", "ленинградка", "ленинградский", "ленинградский преферанс", "leningradka", "spb"),
    prices=_LENINGRAD_TABLE,
    options=Options(
        whist_style=WhistStyle.GENTLEMAN,
        whist_responsibility=Responsibility.HALF,
        consolation="price",
        consolation_to=ConsolationTo.DEFENDERS,
        raspasy_scoring=RaspasyScoring.GORA,
        raspasy_progression=(2, 4, 6),
        raspasy_zero=RaspasyZero.PULKA,
        # Decision: 004 gives no exit rule for Leningrad; 6-7-7 is FORMATS.md's example and the usual one.
        raspasy_exit=(6, 7, 7),
        # 000: gentleman whist, «характерен для ленинградки», includes уйти за полвиста.
        half_whist=True,
        stalingrad=False,
        ten_checked=False,
        pulka_close=PulkaClose.SUM,
        help=False,
        # 004: the one short of (or over) the average writes the doubled difference to (off) the gora,
        # i.e. 2 gora points = 20 whists per pulka point.
        pulka_point_whists=20,
        gora_point_whists=10,
        amnesty=True,
    ),
    source="004_245209cfcabb2668.txt, «ЛЕНИНГРАДКА (ЛЕНИНГРАД)»",
)

ROSTOV = Variant(
    name="rostov",
    title="Ростовка",
    aliases=("ростов", "ростовка", "ростовский", "москва", "московская", "московская пулька", "moscow",
             "rostovka"),
    prices=_CLASSIC_TABLE,
    options=Options(
        whist_style=WhistStyle.GENTLEMAN,
        whist_responsibility=Responsibility.HALF,
        consolation=10,
        consolation_to=ConsolationTo.DEFENDERS,
        raspasy_scoring=RaspasyScoring.WHISTS,
        # 004: «распасовка не прогрессирует»; the price 1 is the pulka point for no tricks, and the
        # whists are 5 × that price per trick.
        raspasy_progression=(1,),
        raspasy_whists_per_trick=5,
        raspasy_zero=RaspasyZero.PULKA,
        raspasy_exit=(6,),
        # Decision: 004's Rostov does not mention полвиста; 002 lists it as an option, so it is off.
        half_whist=False,
        stalingrad=False,
        ten_checked=False,
        pulka_close=PulkaClose.EACH,
        help=True,
        pulka_point_whists=10,
        gora_point_whists=10,
        amnesty=False,
    ),
    source="004_245209cfcabb2668.txt, «РОСТОВКА (РОСТОВ, МОСКОВСКАЯ ПУЛЬКА)»; 002_53535f5528b8fe67.txt",
)

PITER = Variant(
    name="piter",
    title="Питер",
    # Decision: «питер» names the tournament convention of 000 (a preset of leningrad), as issue 2 asks;
    # plain Leningrad is reached by «ленинград», «ленинградка».
    aliases=("питер", "peter", "питер турнир", "piter tournament"),
    prices=_LENINGRAD_TABLE,
    # A preset of Leningrad: only what 000's convention changes.
    options=replace(
        LENINGRAD.options,
        # Decision: 000 says «Консоляцию обычно пишут все игроки, включая сдающего», and the Питер
        # tables are of four; so the dealer writes consolation too.
        consolation_to=ConsolationTo.ALL,
        raspasy_progression=(2, 4, 6, 6),
        raspasy_exit=(7,),
        ten_checked=True,
    ),
    # Decision: «На восьмерной и девятерной играх второй вист – ответственный» is read as the Code's rule
    # (003: on 8, 9, 10 the second whister answers for the shortfall), which scoring applies in every
    # variant, at the variant's half responsibility.
    # Not modelled (no field in FORMATS.md): leaving «без трёх» without whists, the misère shared with the
    # dealer, misère without talon. (The dealer returning the whist is scored for every variant.)
    exit_needs_made=True,
    exit_needs_whist=True,
    based_on="leningrad",
    source="000_bb055394086558d5.txt, «Регламент турнира», «Базовая конвенция турнира – Питер»",
)

VARIANTS: tuple[Variant, ...] = (SOCHI, LENINGRAD, ROSTOV, PITER)
"""Every known variant, canonical name first in `names`."""


def _key(name: str) -> str:
    return " ".join(name.strip().lower().replace("ё", "е").replace("-", " ").replace("_", " ").split())


def find_variant(name: str) -> Variant:
    """The variant called `name` (canonical name or alias, any case, Russian or English).

    Raises `UnknownVariantError` (a `ValueError`) naming the known variants.
    """
    if isinstance(name, str):
        key = _key(name)
        for variant in VARIANTS:
            if key in (_key(n) for n in variant.names):
                return variant
    known = "; ".join(f"{v.name} ({', '.join(v.aliases)})" for v in VARIANTS)
    raise UnknownVariantError(f"unknown variant {name!r}; the known variants are: {known}")
