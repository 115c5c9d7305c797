"""Shared helpers for engine scenario tests: stacked deals, acting, and asserting rejections."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.cards import standard_pack
from app.engine.deal import stacked_deal
from app.engine.errors import RuleError
from app.engine.game import apply, new_match, start_hand
from app.engine.games import match_rules
from app.engine.state import State

DRAW_STOCK = {"type": "draw", "source": "stock"}
DRAW_DISCARD = {"type": "draw", "source": "discard"}


def discard(card: str) -> dict[str, str]:
    return {"type": "discard", "card": card}


def melds(*listings: str) -> dict[str, Any]:
    """A meld action from space-separated listings: ``melds("AS 2S 3S", "KD KC KH")``."""
    return {"type": "meld", "melds": [m.split() for m in listings]}


def lay_off(index: int, cards: str) -> dict[str, Any]:
    return {"type": "lay_off", "meld": index, "cards": cards.split()}


def swap(index: int, card: str) -> dict[str, Any]:
    return {"type": "swap_joker", "meld": index, "card": card}


def shown(st: State, index: int) -> str:
    """Meld ``index`` on the table as a listing, wilds with their designations."""
    return " ".join(str(p) for p in st.melds[index].cards)


def stacked(game: str, hands: list[list[str]], *, options: dict[str, Any] | None = None,
            discard: list[str] | None = None, stock_top: list[str] | None = None,
            dealer: int = 0, state: State | None = None) -> State:
    """A state at the start of a hand dealt exactly as given.

    ``stock_top`` lists the first stock cards (top first); the rest of the game's pack follows
    in pack order, so a scenario only spells out the cards it uses. With ``state`` the hand is
    dealt as the next hand of that match.
    """
    players = len(hands)
    rules = state.rules if state is not None else match_rules(game, options or {}, players)
    decks, jokers = rules.pack_size()
    rest = standard_pack(decks, jokers)
    used = [c for h in hands for c in h] + (discard or []) + (stock_top or [])
    for card in used:
        rest.remove(card)
    deal = stacked_deal(rules, dealer, {"hands": hands, "stock": (stock_top or []) + rest,
                                        "discard": discard or []})
    return start_hand(state if state is not None else new_match(rules), deal, dealer)


def act(st: State, seat: int, *actions: dict[str, Any]) -> State:
    """Apply several actions of one seat in order."""
    for action in actions:
        st, _ = apply(st, seat, action)
    return st


def rejected(st: State, seat: int, action: Any, code: str) -> RuleError:
    """Assert that ``action`` is rejected with ``code`` and that the state is unchanged."""
    before = st.to_json()
    with pytest.raises(RuleError) as info:
        apply(st, seat, action)
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value}"
    assert st.to_json() == before
    return info.value
