"""The conventions the engine needs beyond the scoring `Options`: how the auction, whisting and play go.

`Conventions.for_variant(variant, players)` derives them from a variant's `Options` (полвиста,
Stalingrad, checked 10) and a small per-variant table below; any field can be overridden. Each field
cites where its rule comes from or says `Decision:` and why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sheetscan.errors import InvalidInputError
from sheetscan.rules import Variant, find_variant

__all__ = ["Conventions"]


@dataclass(frozen=True)
class Conventions:
    """How a deal is bid, whisted and played. Text form: the non-default `key=value` pairs joined by `,`.

    Fixed by the rules rather than a field: the first hand (left of the dealer) calls first and leads the
    first trick (003 «Розыгрыш»: «первый ход всегда делает игрок, сидящий слева от сдатчика»); a
    declaration below the winning bid is refused with `IllegalMove` (000 «Правила торговли»: «партнёры
    должны указать ему на недопустимость его действий и предложить сделать заказ в соответствии с
    правилами»). Decision: the «без всех» penalty for a player who insists is not modelled, because the
    game record has no way to say so and the engine's own players never insist.
    """

    players: int = 3
    """3 or 4 at the table; with 4 the dealer sits out (000, «История игры, количество игроков»)."""
    jump_bids: bool = False
    """Bids may skip steps of the ladder. 000, «Правила торговли»: «Назначения … нужно делать
    последовательно, не прыгая … через ступеньки»; so off by default."""
    here: bool = True
    """«Здесь»/«мои»: with two left, the earlier hand may hold the other's bid (003, «Торговля за прикуп»)."""
    here_passes: bool = True
    """003: «Если он это право при первой же возможности не использовал, то сказать «здесь» может второй
    игрок» — the right passes to the other player when its holder raises instead."""
    kabal_misere: bool = True
    """Misère only as a first call, and no trick bid after one's own misère (000 «Мизер кабальный»,
    003 «Торговля за прикуп»). Decision: 003's «если был объявлен мизер, то после него нельзя объявить
    игру на взятки» binds the misère's caller; the others may still overcall with a 9, as 000 says."""
    misere_overcall: int = 9
    """Lowest level that overcalls a misère. 000, «Правила розыгрыша мизера»: «перебить это назначение
    может только девятерная игра»."""
    half_whist: bool = False
    """Полвиста on 6 and 7 (the variant's `half_whist` option; 003, «Вистование»)."""
    return_whist: bool = True
    """After полвиста the passer may take the whist back (003: «возвратный вист»)."""
    dealer_whist: bool = True
    """With four players the dealer may whist last after the defenders passed or went for полвиста.
    003: «При игре вчетвером право вернуть вист принадлежит также и сдатчику … в последнюю очередь»,
    «На восьмерной и более старших играх после двух пасов право завистовать сохраняется только у
    сдатчика». Decision: after pass-pass on 6 and 7 the dealer may whist too, as «Питер» (000: «Сдававший
    может вернуть вист на любой игре») allows."""
    pass_pass_whist: bool = False
    """«Пас > пас > вист» on 8 and 9: the first defender may whist after both passed (000, «Питер»)."""
    stalingrad: bool = False
    """6♠ must be whisted by both (the variant's `stalingrad` option; 002, «Сталинград»)."""
    ten_checked: bool = False
    """A 10 is checked, not whisted, and not played out (the variant's `ten_checked`; 003, «Вистование»)."""
    raspasy_talon_leads: bool = True
    """On raspasy the two talon cards, opened one by one, set the suit of the first two tricks, and the
    first hand leads the first three tricks (003, «Розыгрыш»; 004 Сочинка/Ленинградка «прикуп на
    распасовке: открывается … при игре втроем показывает масть хода»). Off in Rostov (004: «не
    открывается никогда»; 002: «карты прикупа не показываются»). Decision: never with four players,
    where 004 gives the talon to the dealer instead."""
    open_whist: bool = True
    """A lone whister may play open, choosing before the first card (003 «Розыгрыш»: «игра на его выбор
    может осуществляться как втёмную … так и всветлую»); off: only closed."""
    open_after_declarer_lead: bool = False
    """Open whist: the defenders' cards go face up before the first card (003, the Code's comment: «открыть
    карты уже перед его первым ходом»), or, as in a misère, only after the declarer's first card when he
    leads (002: «если первый ход принадлежит первой руке, то карты … открываются только после первого
    хода»; Rostov)."""

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise InvalidInputError(f"players: {self.players!r}; Preferans is played by 3 or 4 here")

    @classmethod
    def for_variant(cls, variant: str | Variant, players: int = 3,
                    options: Mapping[str, Any] | None = None, **overrides: Any) -> Conventions:
        """The conventions of a variant (with the game's option overrides) for 3 or 4 players."""
        found = variant if isinstance(variant, Variant) else find_variant(variant)
        opts = found.options.replace(options or {})
        base: dict[str, Any] = {
            "players": players,
            "half_whist": opts.half_whist,
            "stalingrad": opts.stalingrad,
            "ten_checked": opts.ten_checked,
            **_VARIANT_TABLE.get(found.name, {}),
        }
        if players == 4:
            base["raspasy_talon_leads"] = False
        base.update(overrides)
        return cls(**base)

    def __str__(self) -> str:
        """The fields that differ from the defaults, `key=value` joined by `,` (`-` when none)."""
        changed = [f"{f.name}={_show(getattr(self, f.name))}" for f in dataclasses.fields(self)
                   if getattr(self, f.name) != f.default]
        return ",".join(changed) or "-"

    @classmethod
    def from_text(cls, text: str) -> Conventions:
        """Read the text form written by `str()`; unknown keys or values raise `InvalidInputError`."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for part in filter(None, text.strip("-").split(",")):
            key, _, raw = part.partition("=")
            if key not in fields:
                raise InvalidInputError(f"unknown convention {key!r}; known: {', '.join(fields)}")
            default = fields[key].default
            if isinstance(default, bool):
                if raw not in ("1", "0"):
                    raise InvalidInputError(f"convention {key}: expected 1 or 0, got {raw!r}")
                values[key] = raw == "1"
            elif isinstance(default, int):
                values[key] = int(raw)
            else:
                values[key] = raw
        return cls(**values)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


# Engine-only differences between the variants (data, not branches on names: STYLE.md §3).
_VARIANT_TABLE: dict[str, dict[str, Any]] = {
    # 004 Ростовка «прикуп на распасовке: не открывается никогда»; 002 «При распасах карты прикупа не
    # показываются и не участвуют в розыгрыше».
    "rostov": {"raspasy_talon_leads": False, "open_after_declarer_lead": True},
    # 000 «Питер»: «Пас > пас > вист на восьмерной и девятерной – допускаются».
    "piter": {"pass_pass_whist": True},
}
