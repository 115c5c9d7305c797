"""Refusals in every language speak to players (no rule IDs, codes or card codes); the table
announces turns, titles the tab on the player's turn, and an unknown room leads back."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import assert_accessible, sign_in_as_guest
from .test_i18n import LANGS, load

ENGINE_SPEAK = re.compile(r"[A-Z]{2,}-[A-Z0-9]+|\b[a-z]+_[a-z_]+\b|\b[2-9TJQKA][CDHS]\b|\(\w+\)$")
PLURAL = """async ([n]) => (await import('/i18n.js')).t('table.cards_n', { n })"""


def errors_of(lang: str) -> set[str]:
    return {v for k, v in load(lang).items() if k.startswith("err.")}


def test_refusals_are_translated_in_every_language(new_page: Any) -> None:
    page = new_page()
    sign_in_as_guest(page, "Lingua")
    page.click("[data-testid=host-room]")
    page.check("#opt-call_rummy")
    page.check("#opt-complete_rummy")
    for lang in LANGS:  # the server says "… cannot be combined with … (OPT-COMPLETE-4)"
        page.select_option("[data-testid=lang]", lang)
        page.click("[data-testid=create-room]")
        error = page.locator("[data-testid=host-error]")
        words = load(lang)
        expect(error).to_have_text(words["err.conflicting_options_named"].format(
            option=words["opt.complete_rummy.label"], others=words["opt.call_rummy.label"]))
        assert not ENGINE_SPEAK.search(error.inner_text()), (lang, error.inner_text())
        one, many = page.evaluate(PLURAL, [1]), page.evaluate(PLURAL, [5])
        assert one == load(lang)["table.cards_n.one"].replace("{n}", "1"), (lang, one)
        assert many == load(lang)["table.cards_n"].replace("{n}", "5"), (lang, many)

    page.select_option("[data-testid=lang]", "en")
    assert_accessible(page)  # the host form, with its error
    page.uncheck("#opt-complete_rummy")
    page.click("[data-testid=create-room]")
    page.click("[data-testid=add-bots]")
    page.click("[data-testid=start]")
    # The computer plays first; then the turn is announced and the tab's title says so.
    expect(page.locator("[data-action=draw]")).to_be_enabled()
    live = page.locator("[data-testid=live]")  # what the computer did, then whose turn it is
    expect(live).to_contain_text(re.compile(r"Bot \d discarded .+\. Your turn — draw a card"))
    expect(page).to_have_title(re.compile("^Your turn!"))
    assert_accessible(page)
    page.check("[data-testid=pref-sound]")  # kept in this browser
    assert page.evaluate("JSON.parse(localStorage.getItem('rummy.prefs')).sound") is True
    hand = page.locator("[data-testid=hand] button.card")
    for lang in LANGS:  # a card dropped on the discard pile before drawing: refused
        page.select_option("[data-testid=lang]", lang)
        page.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
        hand.first.drag_to(page.locator("[data-testid=discard]"))
        toast = page.locator(".toast-error").last
        expect(toast).to_be_visible()
        text = toast.inner_text()
        assert text in errors_of(lang), (lang, text)
        assert not ENGINE_SPEAK.search(text), (lang, text)
    page.select_option("[data-testid=lang]", "en")

    page.goto("/#/room/no-such-room")
    expect(page.locator("[data-testid=conn-closed]")).to_have_text("This room does not exist.")
    expect(page.locator(".loading")).to_have_count(0)  # no endless "Connecting…"
    assert_accessible(page)
    page.click("[data-testid=back-lobby]")
    expect(page.locator("[data-testid=host-room]")).to_be_visible()
