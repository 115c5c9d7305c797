"""The room's chat: each line stored before anyone is shown it, and the recent lines that a
(re)connecting client and a rematch room are given. A line is not shown to the players who
blocked its speaker (PROTOCOL.md §9): the store names them as it stores the line."""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

from app.refusals import Code, Refusal
from app.services import outage

from .connections import RECENT
from .store import MatchStore, RoomRecord

log = logging.getLogger(__name__)


class ChatLog:
    def __init__(self, record: RoomRecord, store: MatchStore) -> None:
        self.record = record
        self.store = store
        # Each line, and the players not shown it (those who blocked its speaker).
        self.lines: deque[tuple[dict[str, Any], frozenset[str]]] = deque(maxlen=RECENT)

    async def say(self, seat: int | None, player_id: str, name: str, text: str
                  ) -> tuple[dict[str, Any], frozenset[str]]:
        """Store a line and return its message and the players not shown it. Spectators may
        chat only where the host allowed it; a player whose chat is muted is refused
        (``chat_muted``, by the store); a line that cannot be stored is refused
        (``storage_unavailable``)."""
        if seat is None and not self.record.settings.spectator_chat:
            raise Refusal(Code.SPECTATORS_CANNOT_CHAT,
                            "only seated players may chat in this room (the host did not "
                            "allow spectators to chat)")
        try:
            hidden = await self.store.add_chat(self.record, self.record.match_id, seat,
                                               player_id, name, text)
        except Exception as exc:
            if not outage.is_storage_outage(exc):
                raise
            log.warning("room %s: could not store a chat line: %r", self.record.id, exc)
            raise Refusal(outage.CODE, "the chat line could not be stored: " + outage.MESSAGE
                            ) from None
        line = {"type": "chat", "seat": seat, "name": name, "text": text}
        self.lines.append((line, hidden))
        return line, hidden

    def recent(self, viewer: str | None = None) -> list[dict[str, Any]]:
        """The recent lines, without those ``viewer`` is not shown."""
        return [line for line, hidden in self.lines if viewer not in hidden]

    def restore(self, lines: list[dict[str, Any]]) -> None:
        """The recent lines of a room rebuilt from its log."""
        self.lines.extend((line, frozenset()) for line in lines)

    async def carry(self, lines: list[dict[str, Any]]) -> None:
        """A rematch room starts with the chat of the room it follows: each line stored as
        this room's (with no seat, since the seats are new), so a restart keeps it too."""
        for line in lines[-RECENT:]:
            name, text = str(line["name"]), str(line["text"])
            await self.store.add_chat(self.record, None, None, None, name, text)
            self.lines.append(({"type": "chat", "seat": None, "name": name, "text": text},
                               frozenset()))
