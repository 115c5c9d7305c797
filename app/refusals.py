"""Every refusal the server can give, declared once: its wire code, HTTP status, whose fault it is
and the client's message key; and `Refusal`, the one exception that carries a code.

A leaf module (nothing from `app`), so that the pure engine raises refusals too. `Code` is a
`StrEnum`: ``Code.NOT_YOUR_TURN == "not_your_turn"``, and the wire carries the string unchanged.
``python -m app.refusals`` prints the table of docs/server.md.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path

I18N = Path(__file__).resolve().parent.parent / "static" / "i18n"
TABLE_BEGIN = "<!-- refusals: begin (python -m app.refusals) -->"
TABLE_END = "<!-- refusals: end -->"


class Fault(StrEnum):
    """Whose doing a refusal is: the player may change the request; the server's passes."""

    PLAYER = "player"
    SERVER = "server"


class Code(StrEnum):
    """A refusal's code, with its HTTP status (400 unless named) and fault (the player's unless
    named); the client words it from the i18n key ``message_key``."""

    status: int
    fault: Fault

    def __new__(cls, value: str, status: int = 400, fault: Fault = Fault.PLAYER) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status = status
        member.fault = fault
        return member

    @property
    def message_key(self) -> str:
        return f"err.{self.value}"

    ALREADY_AUTHENTICATED = "already_authenticated", 409
    ALREADY_CALLED = "already_called"
    ALREADY_DREW = "already_drew"
    ALREADY_REGISTERED = "already_registered", 409
    ALREADY_SHOWN = "already_shown"
    ALREADY_WAITING = "already_waiting", 409
    AUTH_FAILED = "auth_failed", 401
    AUTH_REQUIRED = "auth_required", 401
    BAD_ARRIVAL_SECONDS = "bad_arrival_seconds"
    BAD_CARD = "bad_card"
    BAD_COUNT = "bad_count"
    BAD_DEAL = "bad_deal"
    BAD_ENTRY = "bad_entry"
    BAD_FIELD = "bad_field"
    BAD_GRACE_SECONDS = "bad_grace_seconds"
    BAD_LEVEL = "bad_level"
    BAD_MESSAGE = "bad_message"
    BAD_OPTION_VALUE = "bad_option_value"
    BAD_OPTIONS = "bad_options"
    BAD_PLAYERS = "bad_players"
    BAD_PRIZES = "bad_prizes"
    BAD_SEAT = "bad_seat"
    BAD_SEED = "bad_seed"
    BAD_STAKE = "bad_stake"
    BAD_TABLE_SEATS = "bad_table_seats"
    BAD_TURN_SECONDS = "bad_turn_seconds"
    BLOCKED = "blocked", 403
    BODY_TOO_LARGE = "body_too_large", 413
    BREAKS_LOCKED_MELD = "breaks_locked_meld"
    CALL_WINDOW_CLOSED = "call_window_closed"
    CANNOT_BORROW = "cannot_borrow"
    CANNOT_CALL_OWN_DISCARD = "cannot_call_own_discard"
    CANNOT_DECLARE = "cannot_declare"
    CANNOT_DISCARD_TAKEN_CARD = "cannot_discard_taken_card"
    CANNOT_LAY_OFF_OWN = "cannot_lay_off_own"
    CANNOT_REPORT_SELF = "cannot_report_self"
    CANNOT_USE_DISCARD = "cannot_use_discard"
    CARD_LOCKED = "card_locked"
    CARD_NOT_AVAILABLE = "card_not_available"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARD_NOT_IN_MELD = "card_not_in_meld"
    CARD_REQUIRED = "card_required"
    CHAT_MUTED = "chat_muted", 403
    CHAT_TOO_LONG = "chat_too_long"
    CONFLICTING_OPTIONS = "conflicting_options"
    DEALS_NOT_ALLOWED = "deals_not_allowed"
    DECLARE_INCOMPLETE = "declare_incomplete"
    DESIGNATION_REQUIRED = "designation_required"
    DISCARD_EMPTY = "discard_empty"
    FORBIDDEN = "forbidden", 403
    GAME_OVER = "game_over"
    HAND_OVER = "hand_over"
    INITIAL_MELD_TOO_LOW = "initial_meld_too_low"
    INSUFFICIENT_CHIPS = "insufficient_chips", 409
    INTERNAL_ERROR = "internal_error", 500, Fault.SERVER
    INVALID_CREDENTIALS = "invalid_credentials", 401
    INVALID_INPUT = "invalid_input", 422
    INVALID_MELD = "invalid_meld"
    INVALID_NAME = "invalid_name"
    INVALID_USERNAME = "invalid_username"
    INVITE_REQUIRED = "invite_required", 403
    JOKER_MUST_BE_PLAYED = "joker_must_be_played"
    JOKER_UNPLAYABLE = "joker_unplayable"
    LOCKED_CARD_NOT_SHOWN = "locked_card_not_shown"
    LOGGED_OUT = "logged_out", 401
    MALFORMED_ACTION = "malformed_action"
    MALFORMED_JSON = "malformed_json"
    MATCH_IN_PROGRESS = "match_in_progress", 409
    MATCH_NOT_OVER = "match_not_over", 409
    MELD_LEFT_IN_HAND = "meld_left_in_hand"
    MESSAGE_TOO_LARGE = "message_too_large", 413
    METHOD_NOT_ALLOWED = "method_not_allowed", 405
    MISSING_FIELD = "missing_field"
    MUST_DISCARD = "must_discard"
    MUST_DRAW_FIRST = "must_draw_first"
    MUST_KEEP_DISCARD = "must_keep_discard"
    MUST_MELD_FIRST = "must_meld_first"
    MUST_SHOW = "must_show"
    MUST_USE_TAKEN_CARD = "must_use_taken_card"
    NAME_TAKEN = "name_taken", 409
    NO_DISCARDABLE_CARD = "no_discardable_card"
    NO_JOKER_FOR_CARD = "no_joker_for_card"
    NO_MATCH = "no_match", 409
    NO_NEXT_DEAL = "no_next_deal"
    NO_SUCH_MELD = "no_such_meld"
    NO_SUCH_ROOM = "no_such_room", 404
    NO_SUCH_TOURNAMENT = "no_such_tournament", 404
    NOT_A_GUEST = "not_a_guest", 409
    NOT_AUTHENTICATED = "not_authenticated", 401
    NOT_FOUND = "not_found", 404
    NOT_CREATOR = "not_creator", 403
    NOT_HOST = "not_host", 403
    NOT_IN_THIS_GAME = "not_in_this_game"
    NOT_LAST_TURN = "not_last_turn"
    NOT_READY = "not_ready", 503, Fault.SERVER
    NOT_REGISTERED = "not_registered", 409
    NOT_SEATED = "not_seated", 409
    NOT_YOUR_MATCH = "not_your_match", 403
    NOT_YOUR_MELD = "not_your_meld"
    NOT_YOUR_TURN = "not_your_turn"
    NUL_CHARACTER = "nul_character"
    ONE_MELD_PER_TURN = "one_meld_per_turn"
    OPTION_NOT_ALLOWED = "option_not_allowed"
    PRIVATE_MATCH = "private_match", 403
    QUICK_SEAT_HUMANS_ONLY = "quick_seat_humans_only", 409
    RATE_LIMITED = "rate_limited", 429
    RATED_ROOM_HUMANS_ONLY = "rated_room_humans_only", 409
    ROOM_FULL = "room_full", 409
    ROOM_STARTED = "room_started", 409
    SAME_ADDRESS = "same_address", 403
    SEATED_IN_MATCH = "seated_in_match", 403
    SEATS_EMPTY = "seats_empty", 409
    SPECTATORS_CANNOT_CHAT = "spectators_cannot_chat"
    STAKE_NEEDS_BUY_IN = "stake_needs_buy_in"
    STOCK_EMPTY = "stock_empty"
    STORAGE_ERROR = "storage_error", 500, Fault.SERVER
    STORAGE_UNAVAILABLE = "storage_unavailable", 503, Fault.SERVER
    SUSPENDED = "suspended", 403
    SWAP_TOO_LATE = "swap_too_late"
    TOO_MANY_ATTEMPTS = "too_many_attempts", 429
    TOO_MANY_REPORTS = "too_many_reports", 429
    TOO_MANY_SOCKETS = "too_many_sockets", 429
    TOO_MANY_WAITING_ROOMS = "too_many_waiting_rooms", 409
    TOPUP_HAS_CHIPS = "topup_has_chips", 409
    TOPUP_TOO_SOON = "topup_too_soon", 409
    TOURNAMENT_FULL = "tournament_full", 409
    TOURNAMENT_STARTED = "tournament_started", 409
    TOURNAMENT_TABLE = "tournament_table", 409
    TRY_AGAIN = "try_again", 503, Fault.SERVER
    TWO_LOCKED_IN_MELD = "two_locked_in_meld"
    UNKNOWN_ACCOUNT = "unknown_account", 404
    UNKNOWN_ACTION = "unknown_action"
    UNKNOWN_GAME = "unknown_game", 404
    UNKNOWN_OPTION = "unknown_option"
    UNKNOWN_TYPE = "unknown_type"
    USERNAME_TAKEN = "username_taken", 409
    WEAK_PASSWORD = "weak_password"  # noqa: S105 - a code, not a password
    WRONG_PATTERN = "wrong_pattern"
    WRONG_PHASE = "wrong_phase"


class Refusal(Exception):
    """A request refused, with nothing changed. ``fields`` holds the figures a client words the
    refusal with (the card, the meld, the points needed, the options of a conflict,
    ``retry_after``): they travel beside code and message. ``client_id`` is the id of the
    refused websocket message, where the refusal is made before the message is understood."""

    code: Code

    def __init__(self, code: Code, message: str, fields: dict[str, object] | None = None,
                 client_id: str | int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields: dict[str, object] = fields or {}
        self.client_id = client_id

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value!r}, {self.message!r})"

    def reply(self, client_id: str | int | None = None) -> dict[str, object]:
        """The websocket ``error`` message (PROTOCOL.md §5) answering ``client_id`` (else the
        refusal's own): the fields, then the four fixed ones, which a field never overrides;
        the message cut to ``MAX_MESSAGE``."""
        message = self.message
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE - 1] + "…"
        return {**self.fields, "type": "error",
                "id": self.client_id if client_id is None else client_id,
                "code": self.code.value, "message": message}


class FixedRefusal(Refusal):
    """A refusal type of one code, named by the class (``except InsufficientChips``)."""

    def __init__(self, message: str, fields: dict[str, object] | None = None) -> None:
        super().__init__(type(self).code, message, fields)


# An error message never carries more than this much of what the client sent (issue 9: a
# refusal must not echo 16 KB of input back, nor keep it in memory).
MAX_MESSAGE = 200


def table() -> str:
    """The markdown table of every code (docs/server.md), with its English message."""
    english = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    rows = ["| code | status | fault | message (en) |", "|---|---|---|---|"]
    rows += [f"| `{code.value}` | {code.status} | {code.fault.value} | "
             f"{english[code.message_key]} |" for code in Code]
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
