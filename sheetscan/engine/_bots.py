"""Bots: deterministic for a seed, quick, and sensible enough that their pulkas look like real ones.

They bid from an estimate of their tricks with the talon to come (`_eval`), call a misère only with a
hand that cannot be caught, whist when their expected defence tricks reach their share of the duty, and
play to win tricks or to shed them as the contract needs. They see their own cards, the cards already
played, which cards are still out (not who holds them) and the suits a player has shown he lacks; misère
catchers, whose hands lie open, also see each other's cards.
"""

from __future__ import annotations

import random

from sheetscan.engine._bits import FULL_DECK, SUIT_MASKS, card_text, indices
from sheetscan.engine._deal import HERE, MISERE_RANK, PASS, DealState
from sheetscan.engine._eval import calibrated, estimate_contract, estimate_defence, misere_bad
from sheetscan.engine._outcome import Phase
from sheetscan.rules import LADDER, Defence, Play

__all__ = ["Bots", "play_deal"]

_RANK = {(c.level, -1 if c.trump is None else int(c.trump)): i for i, c in enumerate(LADDER)}
_STRAINS = (0, 1, 2, 3, -1)
# Expected tricks each defender should bring to say «вист» (the duty 4/2/1/1/1 of 000, shared).
_NEED = {6: 1.6, 7: 1.0, 8: 0.9, 9: 0.9, 10: 0.9}
_DUTY = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _above(index: int) -> int:
    """Bits of the cards above `index` in its own suit."""
    return SUIT_MASKS[index >> 3] & ~((1 << (index + 1)) - 1)


def _below(index: int) -> int:
    """Bits of the cards below `index` in its own suit."""
    return SUIT_MASKS[index >> 3] & ((1 << index) - 1)


class Bots:
    """Bots for every seat of a deal. `act(deal)` makes one move for the player to act."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        """The bots' own random numbers: a little boldness per player and deal, so games vary."""
        self._plans: dict[int, tuple[int, bool]] = {}
        self._declare = (-1, -1)

    def new_deal(self) -> None:
        """Forget the plans made for the previous deal."""
        self._plans.clear()

    # ---------------------------------------------------------------------------------- auction
    def _plan(self, deal: DealState, seat: int) -> tuple[int, bool]:
        """(highest ladder place the player will bid, whether he calls a misère)."""
        key = deal.initial_hands[seat]
        plan = self._plans.get(key)
        if plan is None:
            hand = deal.initial_hands[seat]
            raw, strain = max((estimate_contract(hand, s), s) for s in _STRAINS)
            best = calibrated(raw)
            # The talon adds most of a trick on average (the best ten of twelve); a small jitter makes
            # players differ.
            level = min(10, int(best + 0.9 + self.rng.uniform(-0.35, 0.35)))
            top = _RANK[(level, strain)] if level >= 6 else -1
            misere = misere_bad(hand) <= 2 and raw < 4.0
            plan = (top, misere)
            self._plans[key] = plan
        return plan

    def choose_call(self, deal: DealState) -> int:
        """A call code for the player to speak (PASS, HERE or a ladder place)."""
        codes = deal._call_codes()
        top, misere = self._plan(deal, deal.turn)
        if misere and MISERE_RANK in codes:
            return MISERE_RANK
        if HERE in codes and deal.bid <= top:
            return HERE
        bids = [c for c in codes if c >= 0 and c != MISERE_RANK and c <= top]
        return bids[0] if bids else PASS

    # ---------------------------------------------------------------------------- talon, contract
    def choose_discard(self, deal: DealState) -> tuple[int, int]:
        """(discard mask, contract place) for the declarer holding twelve cards."""
        hand = deal.hands[deal.declarer]
        if deal.bid == MISERE_RANK:
            for _ in range(2):
                # Put away the card whose removal leaves the fewest catchable cards, the highest on ties.
                hand &= ~(1 << min((misere_bad(hand & ~(1 << i)), -(i & 7), i) for i in indices(hand))[2])
            return deal.hands[deal.declarer] & ~hand, MISERE_RANK
        best: tuple[float, int, int] | None = None
        for strain in _STRAINS:
            lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]

            def value(i: int, strain: int = strain, lengths: list[int] = lengths) -> int:
                suit, rank = i >> 3, i & 7
                if suit == strain:
                    return 1000 + rank
                return rank + 4 * lengths[suit] + (60 if rank == 7 else 0) + (25 if rank == 6 and
                                                                                lengths[suit] > 1 else 0)

            a, b = sorted(indices(hand), key=value)[:2]
            kept = hand & ~(1 << a) & ~(1 << b)
            choice = _contract_in(kept, strain, deal.bid)
            if choice is not None and (best is None or choice[0] > best[0]):
                best = (choice[0], (1 << a) | (1 << b), choice[1])
        assert best is not None  # no-trump always has a level ≥ the bid
        return best[1], best[2]

    def choose_contract(self, deal: DealState) -> int:
        """The ladder place of the contract to name with the ten cards kept."""
        if deal.bid == MISERE_RANK:
            return MISERE_RANK
        hand = deal.hands[deal.declarer]
        choices = [c for c in (_contract_in(hand, s, deal.bid) for s in _STRAINS) if c is not None]
        return max(choices)[1]

    # ------------------------------------------------------------------------------------ defence
    def choose_defence(self, deal: DealState) -> Defence:
        """Whist, pass or полвиста for the defender to speak."""
        allowed = tuple(deal.legal_defence())
        if len(allowed) == 1:
            return allowed[0]
        seat = deal.turn
        contract = LADDER[deal.contract]
        if deal.n == 4 and seat == deal.dealer:
            return Defence.PASS  # Decision: bots never use the dealer's late whist
        if len(deal.words) >= 2:
            return Defence.PASS  # a return whist or «пас > пас > вист» after having passed: keep the pass
        trump = -1 if contract.trump is None else int(contract.trump)
        estimate = 0.72 * estimate_defence(deal.hands[seat], trump) + 0.15  # fitted on the bots' own play
        need = _NEED[contract.level]
        if deal.words and deal.words[0][1] is Defence.WHIST and contract.level >= 8:
            need += 0.5  # the partner already whists for the one trick the duty asks
        if estimate >= need:
            return Defence.WHIST
        return Defence.HALF if Defence.HALF in allowed else Defence.PASS

    def choose_play(self, deal: DealState) -> Play:
        """The lone whister plays open unless he alone holds the duty (then hiding the cards pays)."""
        contract = LADDER[deal.contract]
        trump = -1 if contract.trump is None else int(contract.trump)
        strong = estimate_defence(deal.hands[deal.whister], trump) >= _DUTY[contract.level] + 0.5
        return Play.CLOSED if strong or Play.OPEN not in deal.legal_plays() else Play.OPEN

    # --------------------------------------------------------------------------------------- play
    def choose_card(self, deal: DealState) -> int:
        """The bit index of the card to play for the player to play."""
        seat = deal.turn
        hand = deal.hands[seat]
        legal = deal.legal_mask()
        if legal & (legal - 1) == 0:
            return _low(legal)
        others = 0
        for s, h in enumerate(deal.hands):
            if s != seat:
                others |= h
        if deal.declarer < 0:
            return _avoid(deal, legal, hand, others)
        if deal.contract == MISERE_RANK:
            if seat == deal.declarer:
                return _avoid(deal, legal, hand, others)
            return _catch(deal, legal, hand)
        return _take(deal, seat, legal, hand, others)

    # ----------------------------------------------------------------------------------- driving
    def act(self, deal: DealState) -> None:
        """Make one move for whoever is to act."""
        phase = deal.phase
        if phase is Phase.PLAY:
            deal.play_index(self.choose_card(deal))
        elif phase is Phase.AUCTION:
            deal._call(self.choose_call(deal))
        elif phase is Phase.DISCARD:
            mask, rank = self.choose_discard(deal)
            deal._discard(mask, "".join(card_text(i) for i in indices(mask)))
            self._declare = (deal.hands[deal.declarer], rank)
        elif phase is Phase.DECLARE:
            kept, rank = self._declare
            if kept != deal.hands[deal.declarer]:  # someone else discarded: decide afresh
                rank = self.choose_contract(deal)
            deal.push_contract(LADDER[rank])
        elif phase is Phase.DEFENCE:
            deal.push_defence(self.choose_defence(deal))
        elif phase is Phase.CHOOSE_PLAY:
            deal.push_play(self.choose_play(deal))


def play_deal(deal: DealState, bots: Bots) -> DealState:
    """Let the bots play `deal` to its end; returns it."""
    bots.new_deal()
    while deal.phase is not Phase.OVER:
        bots.act(deal)
    return deal


def _contract_in(hand: int, strain: int, bid: int) -> tuple[float, int] | None:
    """(expected tricks over the level, ladder place) of the best contract in `strain` not below `bid`:
    the lowest level allowed, raised when the hand is sure of more; None if no level is allowed."""
    level = next((lv for lv in range(6, 11) if _RANK[(lv, strain)] >= bid), 11)
    if level > 10:
        return None
    estimate = calibrated(estimate_contract(hand, strain))
    if estimate >= level + 1.0:
        level = min(10, max(level, int(estimate)))
    return estimate - level, _RANK[(level, strain)]


def _trick_winner(deal: DealState) -> tuple[int, int]:
    """(seat, card) winning the trick so far; (-1, -1) when nothing of the lead suit is down yet."""
    suit, trump = deal.lead_suit, deal.trump
    best, best_key, best_card = -1, -1, -1
    for seat, index in deal.trick:
        s = index >> 3
        key = 100 + index if s == trump else index if s == suit else -1
        if key > best_key:
            best, best_key, best_card = seat, key, index
    return best, best_card


def _avoid(deal: DealState, legal: int, hand: int, others: int) -> int:
    """Raspasy, and the misère declarer: take as few tricks as possible."""
    suit = deal.lead_suit
    if suit >= 0 and legal & SUIT_MASKS[suit]:
        _, card = _trick_winner(deal)
        if card >= 0:
            under = legal & _below(card)
            if under:
                return _high(under)  # the highest card that still loses
        # Forced to win (or first to a talon-led suit): win with the highest when last, else go low.
        return _high(legal) if len(deal.trick) == 2 else _low(legal)
    if suit >= 0 or deal.trick:
        # Void: throw the most dangerous card, the highest rank (longer suits are safer, keep them).
        return max(indices(legal), key=lambda i: (i & 7, -(hand & SUIT_MASKS[i >> 3]).bit_count()))
    # Leading: a low card the others must beat, if there is one; else the lowest card.
    best, best_key = -1, (99, 99)
    for s in range(4):
        mine = legal & SUIT_MASKS[s]
        if not mine:
            continue
        low = _low(mine)
        theirs = others & SUIT_MASKS[s]
        risk = 0 if theirs and not theirs & _below(low) else 1 if theirs else 2
        key = (risk, low & 7)
        if key < best_key:
            best, best_key = low, key
    return best


def _catch(deal: DealState, legal: int, hand: int) -> int:
    """A misère catcher: make the declarer take a trick."""
    declarer = deal.declarer
    # The catchers see each other's open cards: the declarer holds what they do not see and was not played
    # (his two discarded cards among them), less the suits he has shown he lacks.
    target = FULL_DECK & ~deal.played
    for seat in deal.defenders:
        target &= ~deal.hands[seat]
    for suit in range(4):
        if deal.voids[declarer] >> suit & 1:
            target &= ~SUIT_MASKS[suit]
    if not deal.trick:
        best, best_gap = _low(legal), -99
        for s in range(4):
            mine = legal & SUIT_MASKS[s]
            theirs = target & SUIT_MASKS[s]
            if mine and theirs:
                gap = (_low(theirs) & 7) - (_low(mine) & 7)
                if gap > best_gap:
                    best, best_gap = _low(mine), gap
        return best
    winner, card = _trick_winner(deal)
    suit = deal.lead_suit
    following = bool(legal & SUIT_MASKS[suit]) if suit >= 0 else False
    if winner == declarer and following:
        under = legal & _below(card)
        return _high(under) if under else _low(legal)
    if following:
        return _low(legal)
    return max(indices(legal), key=lambda i: i & 7)  # void: throw a high card, keep the low ones to lead


def _take(deal: DealState, seat: int, legal: int, hand: int, others: int) -> int:
    """A trick contract: the declarer and the defenders each try to win tricks."""
    trump = deal.trump
    trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
    declarer = deal.declarer
    if not deal.trick:
        if seat == declarer and trump >= 0:
            mine, theirs = hand & trump_mask, others & trump_mask
            if mine and theirs and (_high(mine) > _high(theirs) or
                                    mine.bit_count() >= theirs.bit_count() + 2):
                return _high(mine) if _high(mine) > _high(theirs) else _lead_from(mine, others)
        # Who could ruff a suit: the opponents seen void in it, while trumps are still out.
        opponents = [s for s in deal.order if s != declarer] if seat == declarer else [declarer]
        ruffers = 0
        if trump >= 0 and others & trump_mask:
            for s in opponents:
                ruffers |= deal.voids[s]
        boss, boss_len = -1, -99
        longest, longest_len = -1, -99
        for s in range(4):
            mine = hand & SUIT_MASKS[s]
            if not mine:
                continue
            length = mine.bit_count() - (4 if s == trump else 0)
            if ruffers >> s & 1 and s != trump:
                length -= 8  # leading into a ruff wastes the card
            if not others & _above(_high(mine)) and length > boss_len and not ruffers >> s & 1:
                boss, boss_len = _high(mine), length
            if length > longest_len:
                longest, longest_len = _lead_from(mine, others), length
        return boss if boss >= 0 else longest
    winner, card = _trick_winner(deal)
    partners = winner != declarer and seat != declarer
    last = len(deal.trick) == 2
    suit = deal.lead_suit
    if card >> 3 == trump:
        wins = legal & trump_mask & _above(card)
    else:
        wins = (legal & _above(card)) | (legal & trump_mask if not legal & SUIT_MASKS[suit] else 0)
    if partners and (last or not others & _above(card)):
        return _shed(legal & ~wins or legal, hand)
    if wins:
        if last:
            plain = wins & ~trump_mask
            return _low(plain) if plain else _low(wins)
        bosses = [i for i in indices(wins) if not others & _above(i)]
        if bosses:
            return bosses[0]
        if not legal & SUIT_MASKS[suit]:
            return _low(wins)  # ruff low
    return _shed(legal, hand)


def _lead_from(mine: int, others: int) -> int:
    """The card to lead from a suit without a sure winner: the top of touching honours (K from KQ: it
    drives the ace out and keeps the queen), else the lowest card."""
    top = _high(mine)
    rest = mine & ~(1 << top)
    if rest and top & 7 >= 4:  # an honour (J or higher) …
        second = _high(rest)
        between = ((1 << top) - 1) & ~((1 << (second + 1)) - 1)
        if not others & between:  # … touching the next card we hold
            return top
    return _low(mine)


def _shed(legal: int, hand: int) -> int:
    """The cheapest card: the lowest rank, from the shortest suit on ties."""
    return min(indices(legal), key=lambda i: (i & 7, (hand & SUIT_MASKS[i >> 3]).bit_count()))

