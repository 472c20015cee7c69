"""The footer's words come through the catalogs (the pseudo-locale shows every one of
them accented), with a note that asks the translators for "play-by-web" in their own
language's words; Russian pages say it in Russian."""

from __future__ import annotations

import pytest
from django.test import Client

from tests import pseudo

pytestmark = pytest.mark.django_db
LOBBY = "/lobby/"


def footer(html: str) -> str:
    found = html.split('<footer class="site">', 1)[1].split("</p>", 1)[0]
    return " ".join(found.replace("<p>", "").split())


def page_in(language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    return client.get(LOBBY).content.decode()


def test_the_footer_comes_through_the_catalogs(settings):
    settings.LANGUAGES = [*settings.LANGUAGES, (pseudo.CODE, pseudo.NAME)]
    with pseudo.installed():
        said = footer(page_in(pseudo.CODE))
    assert said.startswith(pseudo.OPEN) and not pseudo.escapes(said), said


def test_the_footer_asks_the_translators_for_their_own_words(settings):
    source = (settings.BASE_DIR / "templates" / "base.html").read_text(encoding="utf-8")
    note, _, rest = source.partition('{% translate "Courier runs play-by-web campaigns.')
    assert "Translators:" in note.rsplit("\n", 2)[-2] and rest


def test_a_russian_page_says_play_by_web_in_russian():
    said = footer(page_in("ru"))
    assert "play-by-web" not in said and "Courier" in said
