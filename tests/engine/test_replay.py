"""Match logs and `replay` (PROTOCOL.md §4, §6; docs/engine.md "Replay").

Scenario: Standard Rummy, 2 players, target 200. In each hand the first player holds two five-card
runs, draws KH and goes out by discarding it; the other holds ten court cards (100 points).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import shuffled_deal
from app.engine.games import match_rules
from app.engine.matchlog import InvalidMatchLog
from app.engine.replay import replay_steps, run_replay

REPO_ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = REPO_ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable

RUNS = ["AC", "2C", "3C", "4C", "5C", "6D", "7D", "8D", "9D", "TD"]
COURT = ["KC", "KD", "KS", "QC", "QD", "QH", "QS", "JC", "JD", "JH"]   # 100 points


def full_deal(hands: list[list[str]], discard: list[str], stock_top: list[str]) -> dict[str, Any]:
    """A `deal` object: the given cards, the rest of the pack in pack order under stock_top."""
    rest = standard_pack()
    for card in [c for h in hands for c in h] + discard + stock_top:
        rest.remove(card)
    return {"hands": [list(h) for h in hands], "stock": stock_top + rest,
            "discard": list(discard)}


def winning_hand(winner: int, dealer: int | None = None) -> dict[str, Any]:
    """``winner`` plays first (he sits at the dealer's left) and goes out at once."""
    hands = [COURT, RUNS] if winner == 1 else [RUNS, COURT]
    hand: dict[str, Any] = {
        "deal": full_deal(hands, ["9S"], ["KH"]),
        "actions": [
            {"seat": winner, "action": {"type": "draw", "source": "stock"}},
            {"seat": winner, "action": {"type": "meld", "melds": [RUNS[:5], RUNS[5:]]}},
            {"seat": winner, "action": {"type": "discard", "card": "KH"}},
        ],
    }
    if dealer is not None:
        hand["dealer"] = dealer
    return hand


def match_log(*hands: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"game": "standard", "options": options if options is not None else
            {"target_score": 200}, "players": 2, "hands": list(hands)}


def three_hands() -> dict[str, Any]:
    """Dealers 0, 1, 0 (GEN-6 default rotation): seat 1, seat 0, seat 1 go out."""
    return match_log(winning_hand(1), winning_hand(0), winning_hand(1))


# --- run_replay -----------------------------------------------------------------------------

def test_several_hands_scores_totals_and_game_winner() -> None:
    """STD-13, STD-15, GEN-15: three hands, 100 points each; seat 1 reaches 200 and wins."""
    out = run_replay(three_hands())
    assert out["ok"] is True and out["rejected"] is None
    assert out["hands"] == [
        {"ended": True, "winner": 1, "reason": "went_out", "scores": [0, 100]},
        {"ended": True, "winner": 0, "reason": "went_out", "scores": [100, 0]},
        {"ended": True, "winner": 1, "reason": "went_out", "scores": [0, 100]},
    ]
    assert out["totals"] == [100, 200]
    assert out["game_over"] is True and out["game_winner"] == 1
    assert out["state"]["phase"] == "game_over" and out["state"]["dealer"] == 0
    json.dumps(out)   # the output is plain JSON


def test_game_not_over_before_the_target() -> None:
    """GEN-15: after two hands (100 : 100) the game at 200 goes on."""
    out = run_replay(match_log(winning_hand(1), winning_hand(0)))
    assert out["totals"] == [100, 100]
    assert out["game_over"] is False and out["game_winner"] is None


def test_default_target_ends_the_game_after_one_hand() -> None:
    """STD-14: with no options the target is 100: one hand of 100 points ends the game."""
    out = run_replay(match_log(winning_hand(1), options={}))
    assert out["game_over"] is True and out["game_winner"] == 1 and out["totals"] == [0, 100]


def test_explicit_dealer() -> None:
    """PROTOCOL.md §4: a log may name the dealer; dealer 1 makes seat 0 play first."""
    out = run_replay(match_log(winning_hand(0, dealer=1)))
    assert out["hands"][0]["winner"] == 0 and out["state"]["dealer"] == 1


def test_first_rejected_action_stops_the_replay() -> None:
    """PROTOCOL.md §4: `rejected` names the first refused action; state is just before it."""
    log = three_hands()
    log["hands"][1]["actions"][1] = {"seat": 0, "action": {"type": "discard", "card": "8H"}}
    out = run_replay(log)
    assert out["ok"] is False
    rejected = out["rejected"]
    assert {k: rejected[k] for k in ("hand", "index", "code")} == {
        "hand": 1, "index": 1, "code": "card_not_in_hand"}
    assert isinstance(rejected["message"], str) and rejected["message"]
    assert out["hands"] == [
        {"ended": True, "winner": 1, "reason": "went_out", "scores": [0, 100]},
        {"ended": False, "winner": None, "reason": None, "scores": [0, 0]},
    ]
    assert out["totals"] == [0, 100]
    assert out["game_over"] is False and out["game_winner"] is None
    state = out["state"]
    # Just before the rejected discard: hand 1, seat 0 has drawn KH and holds 11 cards.
    assert state["hand_no"] == 1 and state["phase"] == "play" and state["turn"] == 0
    assert state["hands"][0] == RUNS + ["KH"] and state["discard"] == ["9S"]


def test_rejected_first_action_of_a_hand() -> None:
    """PROTOCOL.md §4: a turn out of order is rejected at index 0."""
    log = match_log(winning_hand(1))
    log["hands"][0]["actions"][0]["seat"] = 0
    out = run_replay(log)
    assert out["rejected"]["hand"] == 0 and out["rejected"]["index"] == 0
    assert out["rejected"]["code"] == "not_your_turn"
    assert out["state"]["phase"] == "draw" and out["state"]["hands"] == [COURT, RUNS]


def test_malformed_action_is_a_rejection_not_an_invalid_log() -> None:
    """PROTOCOL.md §3/§4: a malformed action is rejected (exit 0), not an invalid log."""
    log = match_log(winning_hand(1))
    log["hands"][0]["actions"][0]["action"] = {"type": "fly"}
    out = run_replay(log)
    assert out["rejected"]["code"] == "unknown_action" and out["ok"] is False


def seed_log(*seeds: int) -> dict[str, Any]:
    return {"game": "standard", "options": {}, "players": 3,
            "hands": [{"seed": s, "actions": []} for s in seeds]}


def test_seed_gives_a_deterministic_deal() -> None:
    """PROTOCOL.md §4: the same seed always gives the same deal (random.Random(seed))."""
    a = run_replay(seed_log(42))
    b = run_replay(seed_log(42))
    assert a == b
    expected = shuffled_deal(match_rules("standard", {}, 3), 0, random.Random(42))
    assert a["state"]["hands"] == [list(h) for h in expected.hands]
    assert a["state"]["stock"] == list(expected.stock)
    assert a["state"]["discard"] == list(expected.discard)
    assert [len(h) for h in a["state"]["hands"]] == [7, 7, 7] and len(a["state"]["stock"]) == 30
    c = run_replay(seed_log(43))
    assert c["state"]["hands"] != a["state"]["hands"]


def test_seeded_hand_with_actions() -> None:
    """A seeded hand replays actions: seat 1 draws the stock top and discards it."""
    deal = shuffled_deal(match_rules("standard", {}, 3), 0, random.Random(7))
    top = deal.stock[0]
    log = seed_log(7)
    log["hands"][0]["actions"] = [
        {"seat": 1, "action": {"type": "draw", "source": "stock"}},
        {"seat": 1, "action": {"type": "discard", "card": top}},
        {"seat": 2, "action": {"type": "draw", "source": "discard"}},
    ]
    out = run_replay(log)
    assert out["ok"] is True
    assert out["state"]["hands"][2][-1] == top and out["state"]["turn"] == 2
    assert out["hands"] == [{"ended": False, "winner": None, "reason": None,
                             "scores": [0, 0, 0]}]


def test_mixed_seeded_and_stacked_hands() -> None:
    """A log may mix stacked and seeded hands; the seeded hand is dealt by seat 1 (GEN-6)."""
    log = match_log(winning_hand(1), {"seed": 5, "actions": []})
    out = run_replay(log)
    rules = match_rules("standard", {"target_score": 200}, 2)
    expected = shuffled_deal(rules, 1, random.Random(5))
    assert out["state"]["hands"] == [list(h) for h in expected.hands]
    assert out["state"]["dealer"] == 1 and out["state"]["turn"] == 0
    assert out["hands"][1]["ended"] is False and out["totals"] == [0, 100]


# --- invalid logs ---------------------------------------------------------------------------

def invalid(log: object, fragment: str = "") -> str:
    with pytest.raises(InvalidMatchLog) as info:
        run_replay(log)
    message = str(info.value)
    assert fragment.lower() in message.lower(), message
    return message


@pytest.mark.parametrize("log", [[], "standard", None, 3, [{"game": "standard"}]])
def test_not_an_object(log: object) -> None:
    """PROTOCOL.md §4: a match log is a JSON object."""
    invalid(log)


def test_deal_missing_a_card() -> None:
    """PROTOCOL.md §4: deal must be exactly the pack: one stock card missing."""
    log = match_log(winning_hand(1))
    log["hands"][0]["deal"]["stock"].pop()
    invalid(log, "pack")


def test_deal_with_a_duplicated_card() -> None:
    """PROTOCOL.md §4: deal must be exactly the pack: a card twice (and one missing)."""
    log = match_log(winning_hand(1))
    stock = log["hands"][0]["deal"]["stock"]
    stock[-1] = stock[0]
    invalid(log, "pack")


def test_deal_with_an_extra_card() -> None:
    """PROTOCOL.md §4: deal must be exactly the pack: 53 cards."""
    log = match_log(winning_hand(1))
    log["hands"][0]["deal"]["stock"].append("AS")
    invalid(log, "pack")


def test_deal_with_wrong_hand_sizes() -> None:
    """STD-2: with 2 players each hand holds 10 cards."""
    log = match_log(winning_hand(1))
    deal = log["hands"][0]["deal"]
    deal["stock"].insert(0, deal["hands"][0].pop())
    invalid(log, "hands")


def test_deal_without_upcard() -> None:
    """STD-3: the discard pile holds exactly the upcard."""
    log = match_log(winning_hand(1))
    deal = log["hands"][0]["deal"]
    deal["stock"].append(deal["discard"].pop())
    invalid(log)


@pytest.mark.parametrize("options, fragment", [
    ({"wild_jokers": True}, "unknown_option"),
    ({"hands": 3}, "option_not_allowed"),
    ({"going_rummy": "yes"}, "bad_option_value"),
    ({"complete_rummy": True, "going_rummy": True}, "conflicting_options"),
])
def test_invalid_options(options: dict[str, Any], fragment: str) -> None:
    """PROTOCOL.md §2: options are checked before a replay starts."""
    invalid(match_log(winning_hand(1), options=options), fragment)


def test_unknown_game_and_bad_players() -> None:
    """PROTOCOL.md §2: unknown game, bad player count."""
    log = match_log(winning_hand(1))
    invalid(log | {"game": "gin"}, "unknown_game")
    invalid(log | {"players": 7}, "bad_players")


def test_both_deal_and_seed() -> None:
    """PROTOCOL.md §4: a hand gives `deal` or `seed`, not both (nor neither)."""
    log = match_log(winning_hand(1))
    log["hands"][0]["seed"] = 1
    invalid(log)
    del log["hands"][0]["seed"]
    del log["hands"][0]["deal"]
    invalid(log)


def test_hand_after_the_game_is_over() -> None:
    """docs/engine.md: a hand after the game is over makes the log invalid."""
    log = three_hands()
    log["hands"].append(winning_hand(0))
    invalid(log)


def test_hand_before_the_previous_one_ended() -> None:
    """PROTOCOL.md §4: hands follow one another."""
    log = three_hands()
    log["hands"][0]["actions"].pop()
    invalid(log)


def test_invalid_log_in_a_later_hand_is_still_invalid() -> None:
    """The whole file is refused when any hand's deal is not the pack."""
    log = three_hands()
    log["hands"][2]["deal"]["stock"].pop()
    invalid(log, "pack")


# --- the CLI --------------------------------------------------------------------------------

def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [PYTHON, "-m", "app", "replay", *args], cwd=REPO_ROOT, input=stdin,
        capture_output=True, text=True, timeout=60, check=False)


def test_cli_replay_file(tmp_path: Path) -> None:
    """PROTOCOL.md §4/§6: `python -m app replay FILE` prints the JSON object, exit 0."""
    log = three_hands()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(log))
    done = cli(str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == json.loads(json.dumps(run_replay(copy.deepcopy(log))))
    assert out["totals"] == [100, 200] and out["game_winner"] == 1


def test_cli_replay_stdin_with_a_rejected_action() -> None:
    """PROTOCOL.md §4: `-` reads standard input; a rejected action still exits 0."""
    log = three_hands()
    log["hands"][0]["actions"][2]["action"]["card"] = "KS"
    done = cli("-", stdin=json.dumps(log))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] is False
    assert out["rejected"]["hand"] == 0 and out["rejected"]["index"] == 2
    assert out["rejected"]["code"] == "card_not_in_hand"


def test_cli_invalid_match_log(tmp_path: Path) -> None:
    """PROTOCOL.md §4: exit 1 with the reason on standard error for an invalid log."""
    log = match_log(winning_hand(1))
    log["hands"][0]["deal"]["stock"].pop()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log))
    done = cli(str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert "pack" in done.stderr
    done = cli("-", stdin=json.dumps({"game": "standard", "options": {"x": 1}, "players": 2,
                                      "hands": []}))
    assert done.returncode == 1 and "unknown_option" in done.stderr


def test_cli_invalid_json(tmp_path: Path) -> None:
    """PROTOCOL.md §4: a file that is not JSON is not a valid match log: exit 1."""
    path = tmp_path / "broken.json"
    path.write_text('{"game": "standard",')
    done = cli(str(path))
    assert done.returncode == 1 and done.stdout == "" and done.stderr.strip()
    done = cli("-", stdin="not json")
    assert done.returncode == 1 and done.stdout == "" and done.stderr.strip()


def test_cli_missing_file(tmp_path: Path) -> None:
    """PROTOCOL.md §4: an unreadable file: exit 1 with a reason."""
    done = cli(str(tmp_path / "nope.json"))
    assert done.returncode == 1 and done.stderr.strip()


def test_replay_output_is_plain_json_for_every_scoring() -> None:
    """PROTOCOL §4: the output is one JSON object; results of every game serialise (the server
    and the CLI use orjson, which refuses non-string keys)."""
    import orjson

    from app.bots import make_bot
    from app.bots.selfplay import play_match
    from app.engine.games import match_rules

    for game, players in (("knock", 3), ("boat_house", 3), ("phom", 4), ("continental", 3)):
        rules = match_rules(game, {}, players)
        bots = [make_bot("sensible", seat) for seat in range(players)]
        _, log = play_match(rules, bots, seed=5, max_hands=1)
        out = run_replay(orjson.loads(orjson.dumps(log.to_json())))
        assert out["ok"], (game, out["rejected"])
        assert orjson.loads(orjson.dumps(out))["totals"] == out["totals"]


def test_replay_steps_give_every_state_of_the_log() -> None:
    """The admin replay: one state after each deal and after each action, ending as run_replay."""
    log = three_hands()
    steps = replay_steps(log)
    assert len(steps) == sum(1 + len(h["actions"]) for h in log["hands"])
    assert [s["hand"] for s in steps if s["index"] is None] == [0, 1, 2]
    assert steps[-1]["state"] == run_replay(log)["state"]
    seqs = [s["state"]["seq"] for s in steps if s["index"] is not None]
    assert seqs == list(range(1, len(seqs) + 1))  # one applied action per step
    first_action = steps[1]
    assert first_action["action"] == log["hands"][0]["actions"][0]["action"]


def test_replay_steps_stop_at_a_rejected_action() -> None:
    log = three_hands()
    log["hands"][0]["actions"].insert(0, {"seat": 0, "action": {"type": "discard", "card": "2C"}})
    steps = replay_steps(log)
    assert steps[-1]["error"]["code"] in ("not_your_turn", "must_draw_first")
    assert len(steps) == 2
