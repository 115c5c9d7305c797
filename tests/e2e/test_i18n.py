"""Every visible string comes from the translation files, in all five languages."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from app.fairplay.score import CHIP_FLOW, SHARED_ADDRESS, SOFT_PLAY
from tests.conftest import REPO_ROOT

from .conftest import screenshot, sign_in_as_guest

LANGS = ["en", "es", "da", "nl", "fi"]
I18N = REPO_ROOT / "static" / "i18n"
KEY_LIKE = re.compile(r"^[a-z_]+(\.[a-zA-Z_0-9]+)+$")

# Every text node, aria-label, placeholder, title and option text on the page.
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const s = walker.currentNode.textContent.trim();
    if (s) out.push(s);
  }
  for (const el of document.querySelectorAll('[aria-label],[placeholder],[title]')) {
    for (const a of ['aria-label', 'placeholder', 'title']) {
      const v = el.getAttribute(a);
      if (v) out.push(v.trim());
    }
  }
  return out;
}"""


def by_suit(code: str) -> tuple[int, int]:
    return (9, 9) if code == "JK" else ("CDHS".index(code[1]), "A23456789TJQK".index(code[0]))


def load(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def test_all_languages_have_the_same_keys() -> None:
    english = set(load("en"))
    for lang in LANGS[1:]:
        keys = set(load(lang))
        assert keys == english, (lang, sorted(keys ^ english))
        assert all(v.strip() for v in load(lang).values()), lang


def test_the_fair_play_reasons_are_the_reviews() -> None:
    """The admin's fair-play page has words for each reason the review gives (PROTOCOL.md §9,
    app/fairplay/score.py) and for no other (every language has the same keys, above)."""
    prefix = "admin.fair_reason."
    labels = {key.removeprefix(prefix) for key in load("en") if key.startswith(prefix)}
    assert labels == {CHIP_FLOW, SOFT_PLAY, SHARED_ADDRESS}


def untranslated(page: Any, lang: str) -> list[str]:
    texts = page.evaluate(VISIBLE_TEXTS)
    keys = set(load(lang))
    return [s for s in texts if s in keys or KEY_LIKE.match(s)]


def test_every_language_shows_no_raw_keys(new_page: Any) -> None:
    page = new_page(locale="fi-FI")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "fi")  # the browser's language
    assert not untranslated(page, "fi")
    sign_in_as_guest(page, "Polyglot")
    for lang in LANGS:
        page.goto("/#/")
        page.select_option("[data-testid=lang]", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("h1")).to_have_text(load(lang)["lobby.title"])
        assert not untranslated(page, lang), lang
        page.click("[data-testid=host-room]")
        expect(page.locator(".game-card").first).to_contain_text(load(lang)["game.standard.name"])
        expect(page.locator("label[for=opt-call_rummy]")).to_have_text(
            load(lang)["opt.call_rummy.label"])
        assert not untranslated(page, lang), lang
        page.click(".game-card:has(input[value=continental])")
        expect(page.locator("#opt-twos_wild")).to_be_attached()
        assert not untranslated(page, lang), lang
        page.click("[data-testid=create-room]")
        page.wait_for_selector("[data-testid=seats]")
        assert not untranslated(page, lang), lang
        page.click("[data-testid=add-bots]")
        page.click("[data-testid=start]")
        page.wait_for_selector("[data-testid=hand] button.card")
        assert not untranslated(page, lang), lang
        hand = page.locator("[data-testid=hand] button.card").evaluate_all(
            "els => els.map((e) => e.dataset.card)")
        assert hand == sorted(hand, key=by_suit), hand  # sorted on the deal, jokers last
        label = page.locator("[data-testid=hand] button.card").first.get_attribute("aria-label")
        assert label and not KEY_LIKE.match(label)
        if lang == "es":
            screenshot(page, "table-es.png")
    page.select_option("[data-testid=lang]", "en")
