"""Scenario tests for the game win criteria, OPT-WIN-1..4 (RULES.md §3.2), on Standard Rummy.

Quick deal (3 players): the first player melds 2H 3H 4H and 9C 9D 9S 9H and goes out by
discarding 5H; the other hands hold 45 (AH 6S 7D 8S JC QS 3C) and 55 (6C 7C 8C JD QD KD 4S),
so the winner scores exactly 100.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.errors import InvalidOptions, RuleError
from app.engine.game import next_dealer
from app.engine.games import match_rules
from app.engine.matchlog import InvalidMatchLog
from app.engine.replay import run_replay
from app.engine.state import Phase, State
from tests.engine.helpers import act, rejected, stacked

H45 = ["AH", "6S", "7D", "8S", "JC", "QS", "3C"]
H55 = ["6C", "7C", "8C", "JD", "QD", "KD", "4S"]
OUT = ["2H", "3H", "4H", "9C", "9D", "9S", "5H"]
DRAW = {"type": "draw", "source": "stock"}
GO_OUT = ({"type": "meld", "melds": [["2H", "3H", "4H"], ["9C", "9D", "9S", "9H"]]},
          {"type": "discard", "card": "5H"})


def first_player_wins(options: dict[str, Any], state: State | None = None,
                      dealer: int = 0) -> State:
    """The seat to the dealer's left goes out at once and scores 100 (or 1 card-count: 14)."""
    first = (dealer + 1) % 3
    hands = [H45, H45, H45]
    hands[first] = OUT
    hands[(first + 1) % 3] = H55
    hands[(first + 2) % 3] = H45
    st = stacked("standard", hands, options=options, discard=["2C"], stock_top=["9H"],
                 dealer=dealer, state=state)
    return act(st, first, DRAW, *GO_OUT)


def second_player_wins(options: dict[str, Any], state: State | None = None) -> State:
    """Dealer 0: seat 1 draws and discards KC, then seat 2 goes out and scores 100."""
    hands = [H55, H45, OUT]
    st = stacked("standard", hands, options=options, discard=["2C"], stock_top=["KC", "9H"],
                 state=state)
    st = act(st, 1, DRAW, {"type": "discard", "card": "KC"})
    return act(st, 2, DRAW, *GO_OUT)


# --- OPT-WIN-1: target score ---------------------------------------------------------------

@pytest.mark.parametrize(("options", "target"), [
    ({}, 100),
    ({"target_score": None}, 100),
    ({"card_count_scoring": True}, 25),
    ({"complete_rummy": True}, 200),
    ({"complete_rummy": True, "card_count_scoring": True}, 25),
    ({"target_score": 50}, 50),
    ({"target_score": 500, "card_count_scoring": True}, 500),
    ({"target_score": 1, "complete_rummy": True}, 1),
])
def test_opt_win_1_target_resolution(options: dict[str, Any], target: int) -> None:
    """OPT-WIN-1: target_score replaces the target; null means 25 / 200 / 100."""
    assert match_rules("standard", options, 3).target == target


@pytest.mark.parametrize("value", [0, -5, "100", 99.5, True])
def test_opt_win_1_bad_target_rejected(value: object) -> None:
    """OPT-WIN-1: target_score is an integer >= 1 or null."""
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {"target_score": value}, 3)
    assert info.value.code == "bad_option_value"


def test_opt_win_1_default_target_100_reached() -> None:
    """OPT-WIN-1, STD-14: with the default target, 100 points end the game."""
    st = first_player_wins({})
    assert st.results[-1].scores == (0, 100, 0)
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1


def test_opt_win_1_higher_target_not_reached() -> None:
    """OPT-WIN-1: with target_score 101 the same 100 points do not end the game."""
    st = first_player_wins({"target_score": 101})
    assert st.results[-1].scores == (0, 100, 0) and st.totals == [0, 100, 0]
    assert st.phase is Phase.HAND_OVER and st.game_winner is None
    # The second hand (dealer 1, seat 2 goes out for 100 points) does not reach 101 either,
    # and the third (dealer 2, seat 0 goes out) brings seat 0 to 100: still not over.
    st = first_player_wins({}, state=st, dealer=next_dealer(st))
    assert st.dealer == 1 and st.totals == [0, 100, 100]
    assert st.phase is Phase.HAND_OVER
    st = first_player_wins({}, state=st, dealer=next_dealer(st))
    assert st.dealer == 2 and st.totals == [100, 100, 100]
    assert st.phase is Phase.HAND_OVER and st.game_winner is None


def test_opt_win_1_lower_target_reached() -> None:
    """OPT-WIN-1: target_score 50 is passed by 100 points."""
    st = first_player_wins({"target_score": 50})
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1 and st.totals == [0, 100, 0]
    with pytest.raises(RuleError) as info:
        first_player_wins({}, state=st, dealer=next_dealer(st))
    assert info.value.code == "game_over"


def test_opt_win_1_card_count_default_25() -> None:
    """OPT-WIN-1, OPT-VALUES: 14 cards left (7 + 7) is 14 points, below the default 25."""
    st = first_player_wins({"card_count_scoring": True})
    assert st.results[-1].scores == (0, 14, 0)
    assert st.phase is Phase.HAND_OVER
    st = first_player_wins({}, state=st, dealer=0)  # seat 1 again: 28 >= 25
    assert st.totals == [0, 28, 0]
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1


def test_opt_win_1_explicit_target_with_card_count() -> None:
    """OPT-WIN-1: an explicit target_score overrides the card-count default of 25."""
    st = first_player_wins({"card_count_scoring": True, "target_score": 10})
    assert st.results[-1].scores == (0, 14, 0)
    assert st.phase is Phase.GAME_OVER and st.game_winner == 1


# --- OPT-WIN-2: each hand its own game -----------------------------------------------------

def test_opt_win_2_each_hand_is_a_game() -> None:
    """OPT-WIN-2: +1 for the hand's winner, 0 for the others, and the game is over."""
    st = second_player_wins({"each_hand_own_game": True})
    result = st.results[-1]
    assert result.winner == 2 and result.reason == "went_out"
    assert result.scores == (0, 0, 1)
    assert st.totals == [0, 0, 1]
    assert st.phase is Phase.GAME_OVER and st.game_winner == 2
    assert match_rules("standard", {"each_hand_own_game": True}, 3).target is None
    rejected(st, 0, DRAW, "hand_over")


def test_opt_win_2_winner_deals_the_next_hand() -> None:
    """OPT-WIN-2: a next hand can still be dealt, and the previous winner (seat 2) deals."""
    st = second_player_wins({"each_hand_own_game": True})
    dealer = next_dealer(st)
    assert dealer == 2  # not seat 1, the normal rotation
    st = first_player_wins({}, state=st, dealer=dealer)  # seat 0 plays first and wins
    assert st.dealer == 2 and st.hand_no == 1
    assert st.results[-1].winner == 0 and st.results[-1].scores == (1, 0, 0)
    assert st.totals == [1, 0, 1]  # a tally of games won
    assert st.phase is Phase.GAME_OVER and st.game_winner == 0
    assert next_dealer(st) == 0


def test_opt_win_2_without_option_points_and_rotation() -> None:
    """OPT-WIN-2 (control): without it the winner scores points and the deal rotates."""
    st = second_player_wins({"target_score": 200})
    assert st.results[-1].scores == (0, 0, 100)
    assert st.phase is Phase.HAND_OVER
    assert next_dealer(st) == 1


def test_opt_win_2_without_option_no_hand_after_game_over() -> None:
    """OPT-WIN-2 (control): a normal game that is over cannot deal another hand."""
    st = second_player_wins({})
    assert st.phase is Phase.GAME_OVER and st.game_winner == 2
    with pytest.raises(RuleError) as info:
        first_player_wins({}, state=st, dealer=1)
    assert info.value.code == "game_over"


def test_opt_win_2_replay_winner_deals_by_default() -> None:
    """OPT-WIN-2, PROTOCOL §4: a log's hand without ``dealer`` is dealt by the last winner."""
    from app.engine.cards import standard_pack

    def deal(hands: list[list[str]], stock_top: list[str]) -> dict[str, Any]:
        rest = standard_pack()
        for card in [c for h in hands for c in h] + ["2C"] + stock_top:
            rest.remove(card)
        return {"hands": hands, "stock": stock_top + rest, "discard": ["2C"]}

    log = {
        "game": "standard", "options": {"each_hand_own_game": True}, "players": 3,
        "hands": [
            {"dealer": 0, "deal": deal([H55, H45, OUT], ["KC", "9H"]), "actions": [
                {"seat": 1, "action": DRAW},
                {"seat": 1, "action": {"type": "discard", "card": "KC"}},
                {"seat": 2, "action": DRAW},
                {"seat": 2, "action": GO_OUT[0]},
                {"seat": 2, "action": GO_OUT[1]},
            ]},
            # No dealer given: seat 2 (the winner) deals, so seat 0 plays first.
            {"deal": deal([OUT, H55, H45], ["9H"]), "actions": [
                {"seat": 0, "action": DRAW},
                {"seat": 0, "action": GO_OUT[0]},
                {"seat": 0, "action": GO_OUT[1]},
            ]},
        ],
    }
    out = run_replay(log)
    assert out["ok"] is True
    assert [h["scores"] for h in out["hands"]] == [[0, 0, 1], [1, 0, 0]]
    assert out["game_over"] is True and out["game_winner"] == 0
    assert out["state"]["dealer"] == 2


# --- OPT-WIN-3: incompatible options -------------------------------------------------------

@pytest.mark.parametrize("target", [1, 100, 200])
def test_opt_win_3_each_hand_with_target_rejected(target: int) -> None:
    """OPT-WIN-3: each_hand_own_game with a non-null target_score is refused."""
    with pytest.raises(InvalidOptions) as info:
        match_rules("standard", {"each_hand_own_game": True, "target_score": target}, 3)
    assert info.value.code == "conflicting_options"


def test_opt_win_3_each_hand_with_null_target_accepted() -> None:
    """OPT-WIN-3: a null target_score is compatible with each_hand_own_game."""
    rules = match_rules("standard", {"each_hand_own_game": True, "target_score": None}, 3)
    assert rules.options.each_hand_own_game is True
    assert match_rules("standard", {"each_hand_own_game": False, "target_score": 50},
                       3).target == 50


def test_opt_win_3_replay_rejects_conflicting_log() -> None:
    """OPT-WIN-3, PROTOCOL §2: a match log with the conflict is not a valid log."""
    log = {"game": "standard", "players": 3, "hands": [],
           "options": {"each_hand_own_game": True, "target_score": 100}}
    with pytest.raises(InvalidMatchLog):
        run_replay(log)


# --- OPT-WIN-4: hands without a single winner ---------------------------------------------

# Six players, six cards each, dealer 0 (seat 1 plays first); the stock holds 15 cards.
# Counts: seat 0 60, seat 1 13, seat 2 60, seat 3 13 (12 with 3C), seat 4 51, seat 5 39.
def block_hands(seat3_last: str) -> list[list[str]]:
    return [
        ["KC", "KD", "KH", "QC", "QD", "QH"],
        ["AC", "AD", "2C", "2D", "3S", "4S"],
        ["JC", "JD", "JH", "TC", "TD", "TH"],
        ["AH", "AS", "2H", "2S", "3H", seat3_last],
        ["9C", "9D", "9H", "8C", "8D", "8H"],
        ["7C", "7D", "7H", "6C", "6D", "6H"],
    ]


def blocked(options: dict[str, Any], seat3_last: str) -> State:
    """Every player draws the stock card and discards it until the stock is empty; then
    seat 4 declines the discard (draws from the empty stock), which ends the hand."""
    st = stacked("standard", block_hands(seat3_last), options={"block_rummy": True, **options},
                 discard=["5C"])
    while st.stock:
        seat = st.turn
        assert seat is not None
        st = act(st, seat, DRAW)
        st = act(st, seat, {"type": "discard", "card": st.hands[seat][-1]})
    assert st.turn == 4
    return act(st, 4, DRAW)


def test_opt_win_4_block_tie_has_no_winner() -> None:
    """OPT-WIN-4: seats 1 and 3 tie at 13: no winner, no point, game over without a winner,
    and the next hand is dealt by the next dealer in rotation (seat 1)."""
    st = blocked({"each_hand_own_game": True}, "4H")
    result = st.results[-1]
    assert result.reason == "blocked" and result.winner is None
    assert result.scores == (0, 0, 0, 0, 0, 0)
    assert st.totals == [0] * 6
    assert st.phase is Phase.GAME_OVER and st.game_winner is None
    assert next_dealer(st) == 1
    rejected(st, 5, DRAW, "hand_over")


def test_opt_win_4_block_single_winner_deals() -> None:
    """OPT-WIN-4 (contrast), OPT-WIN-2: seat 3 alone lowest (12) wins the game and deals."""
    st = blocked({"each_hand_own_game": True}, "3C")
    result = st.results[-1]
    assert result.winner == 3 and result.scores == (0, 0, 0, 1, 0, 0)
    assert st.phase is Phase.GAME_OVER and st.game_winner == 3
    assert next_dealer(st) == 3


def test_opt_win_4_block_tie_without_own_game_splits_points() -> None:
    """OPT-BLOCK-4 (context for OPT-WIN-4): 47 + 47 + 38 + 26 = 158, 79 each for the tie."""
    st = blocked({}, "4H")
    result = st.results[-1]
    assert result.winner is None
    assert result.scores == (0, 79, 0, 79, 0, 0)
    assert st.phase is Phase.HAND_OVER and st.game_winner is None
    assert next_dealer(st) == 1
