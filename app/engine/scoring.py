"""Hand scoring for every game (STD-13, BOAT-6, KNOCK-5..7, CONT-7..12, QUEEN-3, PHOM-8..14,
GERMAN-11, NOWRANG-7, OPT-HIDDEN-2, OPT-BLOCK-4, OPT-WIN-2) and game end (GEN-15)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from . import solver
from .cards import JOKER, standard_pack, suit_of
from .rules import GameRules
from .state import HandResult, State


def hand_count(cards: list[str], rules: GameRules) -> int:
    """The value of cards left in a hand (GEN-16, with OPT-ATC and OPT-VALUES applied)."""
    return sum(rules.values.of(c) for c in cards)


def _revealed(st: State) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(h) for h in st.hands)


def _deadwood(cards: list[str], rules: GameRules) -> tuple[int, dict[str, Any]]:
    """GEN-12: the server's best arrangement of a revealed hand and its deadwood count."""
    best = solver.best_arrangement(cards, rules.meld, rules.values.of)
    return best.deadwood_value, {"melds": [list(m) for m in best.melds],
                                 "deadwood": list(best.deadwood)}


def _tally(st: State, winner: int | None) -> list[int]:
    scores = [0] * st.players
    if winner is not None:
        scores[winner] = 1
    return scores


def went_out_result(st: State, winner: int, doubled: bool) -> HandResult:
    """The hand ended because ``winner`` went out or declared; score it by the game's rule."""
    return st.rules.game.scoring.went_out(st, winner, doubled)


class WinnerTakesHands:
    """STD-13, KALUKI-8, DOUBLE-7: the winner scores the cards left in the other hands.

    A scoring rule is a named part of a game's definition (``GameDef.scoring``): ``owed`` says
    what each other player owes a winner who went out, ``settle`` turns that into score changes.
    """

    each_hand_a_game = False  # NOWRANG-7: a hand won is the game won (``GameRules`` resolves it)
    # What a point of this scoring is worth to a player, in card points: the analysis grades a
    # loss by it (docs/analysis.md; ``unit_of`` adds the match's options).
    unit = 1.0

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Scoring.{self.name.upper()}"

    def went_out(self, st: State, winner: int, doubled: bool) -> HandResult:
        detail: dict[str, Any] = {}
        owed = self.owed(st, winner, doubled, detail)
        detail["owed"] = [owed.get(s) for s in range(st.players)]  # the result explains itself
        settler = Scoring.TALLY if st.rules.each_hand_a_game else self  # OPT-WIN-2, NOWRANG-7
        owed, scores = settler.settle(owed, winner, st.players)
        payments = tuple((s, winner, p) for s, p in owed.items() if p > 0)
        return HandResult(winner, "went_out", tuple(scores), _revealed(st), detail, payments)

    def owed(self, st: State, winner: int, doubled: bool,
             detail: dict[str, Any]) -> dict[int, int]:
        """What each other player owes ``winner``; ``detail`` gathers what explains it."""
        if doubled:  # OPT-HIDDEN-2
            detail["going_rummy"] = True
        return {s: hand_count(st.hands[s], st.rules) * (2 if doubled else 1)
                for s in range(st.players) if s != winner}

    def settle(self, owed: dict[int, int], winner: int,
               players: int) -> tuple[dict[int, int], list[int]]:
        """The payments and the hand's score changes: the winner takes what is owed."""
        scores = [0] * players
        scores[winner] = sum(owed.values())
        return owed, scores

    def stakes(self, st: State, winner: int, held: Sequence[solver.Arrangement]) -> list[int]:
        """The hand's score changes were ``winner`` to go out now, each other seat keeping only
        the deadwood of its best arrangement ``held[seat]`` (the melds it holds would be laid
        before the end): what a hand in progress stands to win or lose, in the unit of the hand's
        own result, options included (PROTOCOL.md §10 *One unit*)."""
        owed = self.owed_now(st, winner, held)
        settler = Scoring.TALLY if st.rules.each_hand_a_game else self  # OPT-WIN-2, NOWRANG-7
        return settler.settle(owed, winner, st.players)[1]

    def owed_now(self, st: State, winner: int,
                 held: Sequence[solver.Arrangement]) -> dict[int, int]:
        """What each other seat would owe ``winner`` (``stakes``): its deadwood, doubled while
        the winner has put nothing on the table (OPT-HIDDEN-2: it may still go rummy)."""
        double = 2 if st.rules.options.going_rummy and not st.tabled[winner] else 1
        return {s: held[s].deadwood_value * double for s in range(st.players) if s != winner}

    def best(self, totals: list[int]) -> int:
        """GEN-15: the winning game total after a fixed number of hands: the highest."""
        return max(totals)

    def better(self, total: int, other: int) -> bool:
        """Is game total ``total`` ahead of ``other`` (finishing ranks)?"""
        return total > other


class WinnerTakesDeadwood(WinnerTakesHands):
    """BOAT-6: the winner scores the other hands' deadwood in their best arrangements."""

    def owed(self, st: State, winner: int, doubled: bool,
             detail: dict[str, Any]) -> dict[int, int]:
        owed: dict[int, int] = {}
        arrangements: list[dict[str, Any] | None] = [None] * st.players  # by seat
        for s in range(st.players):
            if s != winner:
                owed[s], arrangements[s] = _deadwood(st.hands[s], st.rules)
        detail["arrangements"] = arrangements
        return owed


class KnockScoring(WinnerTakesHands):
    """KNOCK-5..7: a knock is scored by :func:`knock_result`; going out scores the hands."""

    def owed_now(self, st: State, winner: int,
                 held: Sequence[solver.Arrangement]) -> dict[int, int]:
        """A knock now, throwing the costliest unmatched card (KNOCK-4): the differences of
        deadwood, and 25 each at 0 (KNOCK-6, KNOCK-7)."""
        left = held[winner]
        low = left.deadwood_value - max(map(st.rules.values.of, left.deadwood), default=0)
        bonus = 25 if low == 0 else 0
        return {s: max(0, held[s].deadwood_value - low) + bonus
                for s in range(st.players) if s != winner}


class QueenCity(WinnerTakesHands):
    """QUEEN-3: every other player owes the value of the winner's own melds."""

    def owed(self, st: State, winner: int, doubled: bool,
             detail: dict[str, Any]) -> dict[int, int]:
        own = sum(st.rules.values.of(p.stands_for) for m in st.melds if m.owner == winner
                  for p in m.cards)
        return {s: own for s in range(st.players) if s != winner}

    def owed_now(self, st: State, winner: int,
                 held: Sequence[solver.Arrangement]) -> dict[int, int]:
        """QUEEN-3: the value of the melds the winner holds."""
        own = sum(st.rules.values.of(stands) for m in held[winner].melds
                  for _, stands, _ in _entries(m))
        return {s: own for s in range(st.players) if s != winner}


class Continental(WinnerTakesHands):
    """CONT-7, CONT-10..12: every other player pays the winner; zero-sum."""

    unit = 0.25  # a hand pays a few chips a seat

    def owed(self, st: State, winner: int, doubled: bool,
             detail: dict[str, Any]) -> dict[int, int]:
        placed = [(p.card, p.stands_for, p.is_wild) for m in st.melds if m.owner == winner
                  for p in m.cards]
        quick = st.turns[winner] == 1 and st.drawn <= 1  # CONT-11: on its first turn
        pay, payment = _continental_payment(st, winner, placed, quick)
        detail.update(payment)
        return {s: pay for s in range(st.players) if s != winner}

    def owed_now(self, st: State, winner: int,
                 held: Sequence[solver.Arrangement]) -> dict[int, int]:
        """CONT-7, CONT-10..12: the payment for the melds the winner holds; the quick bonus
        only in the winner's first turn under way (a hand won later is won on a later turn)."""
        quick = st.turn == winner and st.turns[winner] == 1 and st.drawn <= 1
        pay, _ = _continental_payment(st, winner,
                                      [e for m in held[winner].melds for e in _entries(m)], quick)
        return {s: pay for s in range(st.players) if s != winner}

    def settle(self, owed: dict[int, int], winner: int,
               players: int) -> tuple[dict[int, int], list[int]]:
        owed, scores = super().settle(owed, winner, players)
        for s, points in owed.items():
            scores[s] = -points
        return owed, scores


class PhomScoring(WinnerTakesHands):
    """PHOM-8, PHOM-11, PHOM-14: Ù is paid 12 or 6 (:func:`_phom_u`); the showdown ranks
    the trash (:func:`phom_result`). With OPT-WIN-2 Ù counts the hands and is tallied."""

    unit = 0.25  # a hand pays a few chips (PHOM-8, PHOM-11)

    def went_out(self, st: State, winner: int, doubled: bool) -> HandResult:
        if st.rules.each_hand_a_game:
            return super().went_out(st, winner, doubled)
        return _phom_u(st, winner)

    def stakes(self, st: State, winner: int, held: Sequence[solver.Arrangement]) -> list[int]:
        """PHOM-11: the showdown with ``winner`` lowest and the others ranked by their trash
        (a seat with no meld held nor shown pays as móm), on top of the chips already paid in
        the hand (PHOM-14), as the hand's result counts them."""
        if st.rules.each_hand_a_game:
            return super().stakes(st, winner, held)
        others = sorted((s for s in range(st.players) if s != winner),
                        key=lambda s: held[s].deadwood_value)
        scores = list(st.hand_scores)
        for place, seat in enumerate(others, start=1):
            mom = not held[seat].melds and not any(m.owner == seat for m in st.melds)
            pay = 4 if mom else place
            scores[seat] -= pay
            scores[winner] += pay
        return scores


class Penalty(WinnerTakesHands):
    """GERMAN-11: the cards left in each hand are penalty points; the losers' totals rise."""

    def settle(self, owed: dict[int, int], winner: int,
               players: int) -> tuple[dict[int, int], list[int]]:
        scores = [0] * players
        for s, points in owed.items():
            scores[s] = points
        return owed, scores

    def best(self, totals: list[int]) -> int:
        """GERMAN-12: penalty points: the lowest total wins."""
        return min(totals)

    def better(self, total: int, other: int) -> bool:
        return total < other


class Tally(WinnerTakesHands):
    """NOWRANG-7, OPT-WIN-2: a hand won counts one; each other player owes one. A game
    scored so is won in one hand."""

    each_hand_a_game = True
    unit = 0.05  # a whole hand is one point

    def settle(self, owed: dict[int, int], winner: int,
               players: int) -> tuple[dict[int, int], list[int]]:
        scores = [0] * players
        scores[winner] = 1
        return dict.fromkeys(owed, 1), scores


class Scoring:
    """The scoring rules by name: a game's definition names one (``scoring=Scoring.KNOCK``)."""

    WINNER_TAKES_HANDS = WinnerTakesHands("winner_takes_hands")
    WINNER_TAKES_DEADWOOD = WinnerTakesDeadwood("winner_takes_deadwood")
    KNOCK = KnockScoring("knock")
    CONTINENTAL = Continental("continental")
    QUEEN_CITY = QueenCity("queen_city")
    PHOM = PhomScoring("phom")
    PENALTY = Penalty("penalty")
    TALLY = Tally("tally")


def _net_payments(scores: list[int] | tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Who pays whom for zero-sum score changes: losers pay winners in seat order."""
    debts = [[s, -v] for s, v in enumerate(scores) if v < 0]
    credits = [[s, v] for s, v in enumerate(scores) if v > 0]
    payments = []
    for debt in debts:
        for credit in credits:
            amount = min(debt[1], credit[1])
            if amount > 0:
                payments.append((debt[0], credit[0], amount))
                debt[1] -= amount
                credit[1] -= amount
    return tuple(payments)


def unit_of(rules: GameRules) -> float:
    """What a point of a hand's score is worth in one match, in card points of the game (the
    analysis grades every loss in it, PROTOCOL.md §10 *One unit*): its scoring's ``unit``, a
    hand won counting one under OPT-WIN-2; where every card counts one (OPT-VALUES) a point is
    a card, worth the pack's mean card value in the game's own values."""
    scoring = Scoring.TALLY if rules.each_hand_a_game else rules.game.scoring
    if scoring.each_hand_a_game or not rules.values.count_cards:
        return scoring.unit
    pack = standard_pack(*rules.pack_size())
    points = replace(rules.values, count_cards=False)
    return scoring.unit * sum(map(rules.values.of, pack)) / sum(map(points.of, pack))


def _entries(listed: Sequence[str]) -> list[tuple[str, str, bool]]:
    """A solver's meld listing (``"JK:5H"``: a wild standing for a card) as (card, the card it
    stands for, wild?)."""
    out = []
    for entry in listed:
        card, _, stands = entry.partition(":")
        out.append((card, stands or card, bool(stands) or card == JOKER))
    return out


def _continental_payment(st: State, winner: int, placed: Sequence[tuple[str, str, bool]],
                         quick: bool) -> tuple[int, dict[str, Any]]:
    """CONT-7, CONT-10..12: what each other player pays the winner for the cards ``placed``
    (card, the card it stands for, wild?); ``quick``: declared in its first turn (CONT-11)."""
    options = st.rules.options
    jokers = sum(1 for card, _, _ in placed if card == JOKER)
    twos = sum(1 for card, _, wild in placed if wild and card != JOKER)
    items = {"win": 1, "jokers": 2 * jokers}
    if options.twos_wild:
        items["twos"] = twos
    if options.quick_meld_bonus and quick:
        items["quick"] = 10 if st.drawn == 0 else 7
    if options.special_bonus:
        if not any(wild for _, _, wild in placed):
            items["no_wilds"] = 10
        if len({suit_of(stands) for _, stands, _ in placed}) == 1:
            items["one_suit"] = 10
    return sum(items.values()), {"payment": items}


def _phom_u(st: State, winner: int) -> HandResult:
    """PHOM-8, PHOM-14: Ù is paid 12 (ten cards melded) or 6 by every other player."""
    melded = sum(len(m.cards) for m in st.melds if m.owner == winner)
    amount = 12 if melded == 10 else 6
    n = st.players
    scores = list(st.hand_scores)
    predecessor = (winner - 1) % n
    if st.rules.options.discard_penalties and st.takes[winner] >= 3:
        scores[predecessor] -= amount * (n - 1)
        scores[winner] += amount * (n - 1)
    else:
        for s in range(n):
            if s != winner:
                scores[s] -= amount
                scores[winner] += amount
    return HandResult(winner, "went_out", tuple(scores), _revealed(st), {"u": amount},
                      _net_payments(scores))


def phom_result(st: State) -> HandResult:
    """PHOM-11: the lowest trash among players who showed a meld wins; payments by rank."""
    n = st.players
    order = [(st.dealer + k) % n for k in range(1, n + 1)]  # play order, the dealer last
    trash = [hand_count(h, st.rules) for h in st.hands]
    mom = [not any(m.owner == s for m in st.melds) for s in range(n)]
    ranked = sorted((s for s in order if not mom[s]), key=lambda s: (trash[s], order.index(s)))
    scores = list(st.hand_scores)
    if ranked:
        winner = ranked[0]
        for place, seat in enumerate(ranked[1:], start=1):
            scores[seat] -= place
            scores[winner] += place
    else:  # every player is móm: the lowest total wins
        winner = min(order, key=lambda s: (trash[s], order.index(s)))
    places: list[int | None] = [None] * n  # PHOM-11: 1 the winner, 2 pays 1, …; None: móm
    for place, seat in enumerate(ranked, start=1):
        places[seat] = place
    for seat in range(n):
        if mom[seat] and seat != winner:
            scores[seat] -= 4
            scores[winner] += 4
    return HandResult(winner, "showdown", tuple(scores), _revealed(st),
                      {"trash": trash, "mom": mom, "places": places}, _net_payments(scores))


def knock_result(st: State, knocker: int) -> HandResult:
    """KNOCK-5..7: lowest deadwood wins the differences; undercut knocker pays 10; rum +25."""
    rules = st.rules
    n = st.players
    counts: list[int] = []
    arrangements: list[dict[str, Any]] = []  # by seat
    for seat in range(n):
        count, arrangement = _deadwood(st.hands[seat], rules)
        counts.append(count)
        arrangements.append(arrangement)
    low = min(counts)
    others_low = [s for s in range(n) if s != knocker and counts[s] == low]
    if counts[knocker] == low and (not others_low or low == 0):
        winners = [knocker]  # KNOCK-6 (a), and (b)'s exception for a rum knocker
    else:
        winners = others_low  # KNOCK-6 (b), (c); several are joint winners
    pot = sum(counts[s] - low for s in range(n) if s not in winners)
    scores = [0] * n
    if counts[knocker] > low:
        pot += 10
        scores[knocker] -= 10  # the undercut knocker pays the 10
    if low == 0:
        pot += 25 * (n - 1)  # the rum bonus
    for seat in winners:
        scores[seat] += pot // len(winners)
    winner = winners[0] if len(winners) == 1 else None
    owed = {s: counts[s] - low + (25 if low == 0 else 0) for s in range(n) if s not in winners}
    if counts[knocker] > low:
        owed[knocker] += 10
    if rules.each_hand_a_game:
        scores = _tally(st, winner)
        owed = {s: 1 for s in range(n) if s != winner} if winner is not None else {}
    return HandResult(winner, "knock", tuple(scores), _revealed(st),
                      {"counts": counts, "knocker": knocker, "arrangements": arrangements},
                      _split(owed, winners))


def _split(owed: dict[int, int], winners: list[int]) -> tuple[tuple[int, int, int], ...]:
    """Each payer's debt split among joint winners by integer division (remainder lost)."""
    return tuple((s, w, points // len(winners)) for s, points in owed.items()
                 for w in winners if points // len(winners) > 0)


def exhausted_result(st: State) -> HandResult:
    """A hand ended because the stock ran out too often: no winner, no score."""
    return HandResult(None, "exhausted", tuple([0] * st.players), _revealed(st))


def block_result(st: State, ender: int) -> HandResult:
    """OPT-BLOCK-3/4: the lowest count wins the differences; tied winners split, remainder lost."""
    counts = [hand_count(h, st.rules) for h in st.hands]
    low = min(counts)
    winners = [s for s, c in enumerate(counts) if c == low]
    pot = sum(c - low for c in counts)
    single = winners[0] if len(winners) == 1 else None
    scores = [0] * st.players
    owed = {s: c - low for s, c in enumerate(counts) if s not in winners}
    if st.rules.each_hand_a_game:
        scores = _tally(st, single)
        owed = {s: 1 for s in range(st.players) if s != single} if single is not None else {}
    else:
        for seat in winners:
            scores[seat] = pot // len(winners)
    return HandResult(single, "blocked", tuple(scores), _revealed(st),
                      {"counts": counts, "ended_by": ender}, _split(owed, winners))


def game_result(st: State, result: HandResult) -> tuple[bool, int | None]:
    """Whether the game is over after ``result`` has been added to the totals, and who won."""
    rules = st.rules
    if rules.each_hand_a_game:  # OPT-WIN-2, NOWRANG-7
        return True, result.winner
    totals = st.totals
    if rules.hands is not None:  # a fixed number of hands (CONT-8, PHOM-12, GERMAN-12)
        if st.hand_no + 1 < rules.hands:
            return False, None
        best = rules.game.scoring.best(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        return True, leaders[0] if len(leaders) == 1 else None
    top = max(totals)
    leaders = [s for s, t in enumerate(totals) if t == top]
    if rules.target is not None and top >= rules.target and len(leaders) == 1:
        return True, leaders[0]  # GEN-15: a tie at the top plays on
    return False, None

