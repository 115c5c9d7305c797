"""How a decision's samples are used (docs/analysis.md, "How a move is judged"): what the samples
cannot change is worked out once, what they can is taken over every card, so two runs with other
seeds grade alike (issue 37: at least 90 % of decisions)."""

from __future__ import annotations

import pytest

from app.analysis.evaluate import (
    completing_pairs,
    feed_chance,
    from_stock,
    on_top,
    outcome,
    outcomes_of,
    replayed,
    samples,
    stock_outcomes,
    turn_of,
    unseen,
    value,
)
from app.analysis.report import _Steady
from app.bots.registry import make_bot
from app.bots.selfplay import play_match
from app.bots.sensible import SensibleBot
from app.engine.game import apply
from app.engine.games import match_rules
from app.engine.matchlog import fold
from app.engine.moves import legal_actions
from app.engine.state import Phase, State
from app.engine.views import seat_view_of

BOT = SensibleBot(_Steady())


def positions(game: str, seed: int = 0) -> list[tuple[State, int]]:
    """The positions of one hand of sensible players where the seat to move chooses its
    draw or its discard."""
    rules = match_rules(game, {}, 2)
    _, log = play_match(rules, [make_bot("sensible", seed * 10 + s) for s in (0, 1)], seed, 1)
    return [(step.state, step.state.turn) for step in fold(log)
            if step.error is None and step.state.phase in (Phase.DRAW, Phase.PLAY)
            and not step.state.hand_over]


# Boat House: a take of the discard is followed by a second draw from the stock (BOAT-2).
@pytest.mark.parametrize("game", ["standard", "boat_house", "kaluki", "phom"])
def test_a_turn_worked_out_once_ends_as_in_each_sample(game: str):
    # The normal player's moves depend on the seat's view alone, the same in every sample, so
    # playing the turn worked out in the first sample in the others gives what playing it out
    # in each would (PROTOCOL.md §10: the values of the samples, not an estimate of them).
    checked = 0
    for st, seat in positions(game)[:24]:
        base = samples(seat_view_of(st, seat), st.rules, f"t:{checked}", 4)
        for action in list(dict.fromkeys(legal_actions(st, seat)))[:6]:
            if from_stock(action) or action.type == "call_rummy":
                continue
            moves, first = turn_of(base[0], seat, action, BOT)
            if any(from_stock(move) for move in moves[1:]):
                continue  # a second card (BOAT-2): the test below
            each = [outcome(turn_of(b, seat, action, BOT)[1], seat)[0] for b in base]
            ends = replayed(base, seat, moves, first)
            assert [value(end, seat) for end in ends] == each
            assert [v for v, _ in outcomes_of(base, seat, action, BOT)] == each
            checked += 1
    assert checked > 20


def test_boat_house_values_the_second_card_after_a_take_over_the_unseen_cards():
    # BOAT-2: taking the discard is followed by a draw from the stock, whose card is hidden:
    # it is valued as a draw from the stock is, over the unseen cards, not one per sample.
    st, seat = next((s, t) for s, t in positions("boat_house")
                    if s.phase is Phase.DRAW and s.discard)
    take = next(a for a in legal_actions(st, seat) if a.type == "draw" and not from_stock(a))
    base = samples(seat_view_of(st, seat), st.rules, "b", 8)
    taken = [apply(b, seat, take)[0] for b in base]
    assert taken[0].phase is Phase.DRAW_SECOND
    second = next(a for a in legal_actions(taken[0], seat) if from_stock(a))
    assert outcomes_of(base, seat, take, BOT) == stock_outcomes(taken, seat, second, BOT)


def test_a_stock_draw_is_valued_over_every_unseen_card():
    # Not one sampled card per sample: the cards are dealt round the samples from all the
    # unseen ones, each as often as it is unseen. With one sample per unseen card (all alike
    # here), the value is exactly the mean over the cards of drawing each.
    st, seat = next((s, t) for s, t in positions("standard") if s.phase is Phase.DRAW)
    world = samples(seat_view_of(st, seat), st.rules, "a", 1)[0]
    cards = sorted(unseen(world, seat).elements())
    draw = next(a for a in legal_actions(st, seat) if from_stock(a))
    outcomes = stock_outcomes([world] * len(cards), seat, draw, BOT)
    each = [outcome(turn_of(on_top(world, seat, card), seat, draw, BOT)[1], seat)[0]
            for card in cards]
    assert sum(v for v, _ in outcomes) / len(outcomes) == pytest.approx(sum(each) / len(each))
    assert len(set(each)) > 1  # the cards differ: a single sampled one would be noise


def test_the_chance_of_feeding_is_the_same_in_every_sample():
    # What decides how much a discard feeds the next player is read from the seat's view (the
    # unseen cards, what the next player took), not from the one hand a sample deals it.
    checked = 0
    for st, seat in positions("standard", 3):
        if st.phase is not Phase.PLAY:
            continue
        card = st.hands[seat][0]
        chances = set()
        for b in samples(seat_view_of(st, seat), st.rules, "f", 6):
            after, _ = apply(b, seat, next(a for a in legal_actions(b, seat)
                                          if a.type == "discard" and a.card == card))
            if after.hand_over:
                break
            chances.add(feed_chance(after, seat, after.turn))
        else:
            assert len(chances) == 1
            checked += 1
    assert checked > 5


def test_a_discard_feeds_for_sure_a_player_who_took_its_pair():
    # GEN-14: the cards a player took from the discard pile and still holds are known; a
    # discard that makes a set with two of them is a meld for it whatever else it holds.
    st, seat = next((s, t) for s, t in positions("standard") if s.phase is Phase.PLAY)
    st, taker = st.copy(), 1 - seat
    top = next(c for c in ("7H", "8H", "9H", "TH") if c in st.stock)
    pair = [top[0] + suit for suit in "CD"]
    for i, card in enumerate(pair):  # move the pair into the taker's hand, wherever it lies
        for cards in (st.stock, st.hands[seat], st.discard):
            if card in cards:
                cards[cards.index(card)] = st.hands[taker][i]
        if card not in st.hands[taker]:
            st.hands[taker][i] = card
    st.stock.remove(top)
    st.discard.append(top)
    st.known[taker], st.turn, st.phase = pair, taker, Phase.DRAW
    assert feed_chance(st, seat, taker) == 1.0
    st.known[taker] = []  # now only as likely as any two unseen cards
    assert 0.0 < feed_chance(st, seat, taker) < 0.5


@pytest.mark.parametrize(("game", "card", "pairs"), [
    ("standard", "AH", {("AC", "AD"), ("AC", "AS"), ("AD", "AS"), ("2H", "3H")}),  # ace low
    ("kaluki", "AH", {("AC", "AD"), ("AC", "AS"), ("AD", "AS"), ("2H", "3H"), ("QH", "KH")}),
    ("boat_house", "AH", {("AC", "AD"), ("AC", "AS"), ("AD", "AS"), ("2H", "3H"),
                          ("QH", "KH"), ("KH", "2H")}),  # around the corner (BOAT-4)
    ("nowrang", "7S", {("5S", "6S"), ("6S", "8S"), ("8S", "9S")}),  # runs only
])
def test_completing_pairs_follow_the_games_melds(game: str, card: str, pairs: set):
    assert set(completing_pairs(card, match_rules(game, {}, 2).meld)) == pairs
