"""Verifiable deals (PROTOCOL.md §7; docs/fairness.md): fixed vectors and match logs by seeds.

The vectors below were computed once by ``fair_reference.py`` (§7 written again from the text,
without the engine); each test checks that the reference still gives them and that the engine
gives the same. Deal sizes come from RULES.md, not from the engine: STD-2 (7 cards each with three
players, an upcard), KALUKI-1/2 (two packs and four jokers, 15 each, an upcard) and PHOM-2 (9
each and one more for the dealer's left, no upcard).
"""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from app.engine.errors import InvalidSeed
from app.engine.fairdeal import (
    DealSeeds,
    StreamShuffler,
    byte_stream,
    commitment,
    deck_seed,
    parse_client_seed,
    parse_client_seeds,
    parse_server_seed,
    seeded_deal,
    uniform_below,
)
from app.engine.games import match_rules
from app.engine.matchlog import InvalidMatchLog, MatchLog
from app.engine.replay import run_replay

from . import fair_reference as ref
from .players import play_match


def codes(text: str) -> list[str]:
    return text.split()


SERVER_SEED = "ee07ff1e303bdb8f86f8bf1a930efa366c6c68705a422c1996b1c4eb31c59687"
COMMITMENT = "2ac8bfc2c80d97053402da3cb8014c6105bfe9e40023beed6e43a2d928390242"
CLIENT_SEEDS = ["ann-7f3K", "Bob_2024"]
DECK_SEED = "e0428dd2ded59dcc8c9fe3d318d74e9a96a0619df1ee382625542456eee07566"
# The first 40 bytes: all of block 0 and the start of block 1.
FIRST_BYTES = ("35541524ac77cd8d0ef50a8be4e849c84d386dc8893bdf63736a52b3208495a5"
               "fdb9ce0ec3a3990a")
ONE_PACK = codes(
    "5H 8S KS 7C QD 2D 8H 4C JD 5C KH AH 6D QH 3S 7H 5D 9S TC QS 9D 9H 6S QC 3C 4D AS 2H 8D JC "
    "TS 7D 3D 6H TD 2C KC 3H 8C AD 6C TH AC 4S JS 7S 9C 2S 4H 5S KD JH")
TWO_PACKS_FOUR_JOKERS = codes(
    "QS 9C 4C JC 7H 6C AH AH 8D 8S 7S 4H TC KD 6S 6C 4D 8S QD 7D JS 7H 5D 4S QS JK KS 9H 8H 6D "
    "9D 5H 2H KH 7C 3H QD 8C AS JK 5D TD KC TC TH 2S TH 3S 2H JH 3C 9H KC 3S KS 6S 6D 4H 9C 8H "
    "QC JH QH 7D 3D 5C 2D JD AD 3H TS QC KD 9D JS 5C 2D 9S 7S 3D 3C AC 8D 4C JC 5H AS 6H TD 9S "
    "2C 2C 4S AC 6H AD 4D 8C JK 7C KH JD 2S TS 5S 5S QH JK")
# (game, players, dealer, client seeds, packs, jokers, sizes, upcard; the first player's hand
# and the upcard as the reference derived them).
GAMES = [
    ("standard", 3, 2, CLIENT_SEEDS + [""], 1, 0, [7, 7, 7], True,
     "8C 3H 7H TH 6C KH TD", ["3S"]),
    ("kaluki", 4, 1, CLIENT_SEEDS + ["", "cy"], 2, 4, [15] * 4, True,
     "2D 5S 3C 2S QC JK 4D 4C JC JD 8H 8D 9C TC AD", ["6C"]),
    ("phom", 4, 3, CLIENT_SEEDS + ["", "cy"], 1, 0, [10, 9, 9, 9], False,
     "5C 7D 6S 4C 4H 8D 5S 3S TH 3D", []),
]

REPO_ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = REPO_ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable


def test_the_commitment_hashes_the_bytes_not_the_text() -> None:
    """§7.1. The SHA-256 of 32 zero bytes is a published constant."""
    zero = "00" * 32
    assert commitment(zero) == ref.commitment(zero) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925")
    assert commitment(SERVER_SEED) == ref.commitment(SERVER_SEED) == COMMITMENT
    assert hashlib.sha256(SERVER_SEED.encode()).hexdigest() != COMMITMENT


def test_deck_seed_from_two_client_seeds() -> None:
    """§7.3: seat order matters, and a seat without a seed still adds its newline."""
    assert ref.deck_seed(SERVER_SEED, CLIENT_SEEDS).hex() == DECK_SEED
    assert deck_seed(SERVER_SEED, CLIENT_SEEDS).hex() == DECK_SEED
    assert deck_seed(SERVER_SEED, CLIENT_SEEDS[::-1]).hex() != DECK_SEED
    assert deck_seed(SERVER_SEED, ["", ""]) == hashlib.sha256(
        bytes.fromhex(SERVER_SEED) + b"\n\n").digest()


def test_the_first_stream_bytes() -> None:
    """§7.5: blocks for counters 0, 1, … concatenated."""
    seed = bytes.fromhex(DECK_SEED)
    assert ref.Stream(seed).take(40).hex() == FIRST_BYTES
    assert b"".join(islice(byte_stream(seed), 2))[:40].hex() == FIRST_BYTES


@pytest.mark.parametrize(("decks", "jokers", "expected"), [
    (1, 0, ONE_PACK), (2, 4, TWO_PACKS_FOUR_JOKERS)])
def test_shuffled_order(decks: int, jokers: int, expected: list[str]) -> None:
    """§7.4 and §7.6: one pack, and two packs with four jokers."""
    seed = bytes.fromhex(DECK_SEED)
    assert ref.shuffle(ref.pack(decks, jokers), seed) == expected
    order = ref.pack(decks, jokers)
    StreamShuffler(seed).shuffle(order)
    assert order == expected


@pytest.mark.parametrize(
    ("game", "players", "dealer", "seeds", "decks", "jokers", "sizes", "upcard", "first",
     "discard"), GAMES)
def test_deal_for_three_games(game: str, players: int, dealer: int, seeds: list[str],
                              decks: int, jokers: int, sizes: list[int], upcard: bool,
                              first: str, discard: list[str]) -> None:
    """§7.7: from the dealer's left one card at a time, then the upcard, then the stock."""
    expected = ref.derive(SERVER_SEED, seeds, decks, jokers, dealer, sizes, upcard)
    assert expected["hands"][(dealer + 1) % players] == first.split()
    assert expected["discard"] == discard
    deal = seeded_deal(match_rules(game, {}, players), dealer, SERVER_SEED, seeds)
    assert deal.to_json() == expected


def test_rejection_sampling() -> None:
    """§7.6: a word at or above 2³² − (2³² mod m) is skipped. With m = 3 that is 2³² − 1 only."""
    assert uniform_below(iter([2**32 - 1, 2**32 - 1, 5]), 3) == 2
    assert uniform_below(iter([2**32 - 2]), 3) == (2**32 - 2) % 3
    assert uniform_below(iter([2**32 - 1]), 2) == 1  # 2³² mod 2 = 0: nothing is skipped
    with pytest.raises(StopIteration):
        uniform_below(iter([2**32 - 1]), 3)


def test_seed_forms() -> None:
    """§7.1, §7.2: 64 hex characters (printed lower case); 1–64 of A-Z a-z 0-9 _ -."""
    assert parse_server_seed(SERVER_SEED.upper()) == SERVER_SEED
    assert commitment(SERVER_SEED.upper()) == COMMITMENT
    assert parse_client_seed("a" * 64) == "a" * 64
    for bad in ("", "a" * 65, "a b", "é", "a\n", 7, None):
        with pytest.raises(InvalidSeed) as info:
            parse_client_seed(bad)
        assert info.value.code == "bad_seed"
    for bad_server in (SERVER_SEED[:-1], SERVER_SEED + "0", "g" + SERVER_SEED[1:], 1):
        with pytest.raises(InvalidSeed):
            parse_server_seed(bad_server)
    assert parse_client_seeds(["", "x"], 2) == ("", "x")
    for bad_list in (["x"], ["x", "y", "z"], "xy", [None, "y"]):
        with pytest.raises(InvalidSeed):
            parse_client_seeds(bad_list, 2)


def test_deal_seeds_value() -> None:
    seeds = DealSeeds.of(SERVER_SEED, CLIENT_SEEDS, 2)
    assert seeds.commitment == COMMITMENT
    assert seeds.to_json() == {"server_seed": SERVER_SEED, "client_seeds": CLIENT_SEEDS}
    rules = match_rules("standard", {}, 2)
    assert seeds.deal(rules, 1) == seeded_deal(rules, 1, SERVER_SEED, CLIENT_SEEDS)
    with pytest.raises(InvalidSeed):
        DealSeeds.of(SERVER_SEED, CLIENT_SEEDS, 3)


def hand_seeds(h: int) -> DealSeeds:
    """A fresh server seed per hand, and seat 1 without a seed in odd hands."""
    server = hashlib.sha256(f"server {h}".encode()).hexdigest()
    return DealSeeds(server, ("ann", "" if h % 2 else f"bob-{h}", f"cy_{h}"))


def played_log(game: str = "standard", seed: int = 4) -> dict[str, Any]:
    """A whole match of three seats dealt by seeds, logged as a live room does: deal and seeds."""
    st, log = play_match(game, {}, 3, seed, max_hands=4, seeds=hand_seeds)
    assert st.hand_no >= 1 and st.results
    return log.to_json()


def without(log: dict[str, Any], *keys: str) -> dict[str, Any]:
    out = copy.deepcopy(log)
    for hand in out["hands"]:
        for key in keys:
            del hand[key]
    return out


@pytest.mark.parametrize(("game", "seed"), [("standard", 4), ("phom", 2)])
def test_replay_by_seeds_equals_replay_by_deals(game: str, seed: int) -> None:
    """PROTOCOL.md §4, §7: a hand given by server_seed and client_seeds replays as its deal."""
    log = played_log(game, seed)
    by_seeds = without(log, "deal")
    by_deals = without(log, "server_seed", "client_seeds")
    expected = run_replay(by_deals)
    assert expected["ok"] and expected["hands"][0]["ended"]
    assert run_replay(by_seeds) == expected
    assert run_replay(log) == expected
    assert MatchLog.parse(by_seeds).to_json() == by_seeds
    assert MatchLog.parse(log).to_json() == log


def test_the_replay_command_accepts_hands_given_by_seeds(tmp_path: Path) -> None:
    log = played_log()
    path = tmp_path / "seeds.json"
    path.write_text(json.dumps(without(log, "deal")))
    done = subprocess.run(  # noqa: S603 - fixed argv, our own interpreter
        [PYTHON, "-m", "app", "replay", str(path)], cwd=REPO_ROOT, capture_output=True,
        text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == run_replay(without(log, "server_seed", "client_seeds"))


def test_a_deal_its_seeds_do_not_give_is_refused() -> None:
    """A log with a deal beside its seeds proves itself: two swapped cards make it invalid."""
    log = played_log()
    hand = log["hands"][1]["deal"]["hands"]
    hand[0][0], hand[1][0] = hand[1][0], hand[0][0]
    parsed = MatchLog.parse(log)  # still exactly the pack: found when the fold deals it
    with pytest.raises(InvalidMatchLog, match=r"hands\[1\]\.deal is not the deal its "):
        run_replay(parsed)
    log = played_log()
    log["hands"][0]["client_seeds"][0] = "anne"
    with pytest.raises(InvalidMatchLog, match=r"hands\[0\]\.deal is not the deal its "):
        run_replay(log)


@pytest.mark.parametrize(("edit", "fragment"), [
    (lambda h: h.update(server_seed=h["server_seed"][:-2]), r"hands\[0\]\.server_seed"),
    (lambda h: h.update(client_seeds=["a", "b"]), r"hands\[0\]\.client_seeds"),
    (lambda h: h.update(client_seeds=["a", "b c", ""]), r"hands\[0\]\.client_seeds"),
    (lambda h: h.pop("client_seeds"), "go together"),
    (lambda h: h.pop("server_seed"), "go together"),
    (lambda h: h.update(seed=3), "exactly one"),
])
def test_bad_seeds_make_the_log_invalid(edit: Any, fragment: str) -> None:
    log = without(played_log(), "deal")
    edit(log["hands"][0])
    with pytest.raises(InvalidMatchLog, match=fragment):
        MatchLog.parse(log)
