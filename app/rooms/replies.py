"""The answers a room remembers for client ids, so a repeated id is answered as before.

Bounded (issue 9): an acknowledged id is kept while its hand or the next one is in play (a client
retrying after a reconnect is at most that far behind); a rejected id only among the last few
rejections, since repeating a rejected action is harmless (it is judged again).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

Key = tuple[str, str | int]
Reply = dict[str, Any]

REJECTED_KEPT = 64
HANDS_KEPT = 2


class Replies:
    def __init__(self) -> None:
        self._acked: dict[Key, tuple[int, Reply]] = {}
        self._rejected: OrderedDict[Key, Reply] = OrderedDict()

    def get(self, key: Key) -> Reply | None:
        found = self._acked.get(key)
        if found is not None:
            return found[1]
        return self._rejected.get(key)

    def acked(self, key: Key, hand_no: int, reply: Reply) -> None:
        self._acked[key] = (hand_no, reply)

    def rejected(self, key: Key, reply: Reply) -> None:
        self._rejected[key] = reply
        self._rejected.move_to_end(key)
        while len(self._rejected) > REJECTED_KEPT:
            self._rejected.popitem(last=False)

    def new_hand(self, hand_no: int) -> None:
        """Forget acknowledged ids of hands before the last ``HANDS_KEPT``."""
        oldest = hand_no - HANDS_KEPT + 1
        self._acked = {k: v for k, v in self._acked.items() if v[0] >= oldest}


def outcome(reply: Reply) -> str:
    """How an action's reply reads in a log line: applied at its seq, or the refusal's code."""
    if reply["type"] == "ack":
        return f"applied (seq {reply['seq']})"
    return f"refused ({reply['code']})"
