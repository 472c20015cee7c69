"""The pseudo-locale (tests/pseudo.py) marks what the catalogs write and finds what
they did not."""

import re

from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from tests import pseudo


def test_every_message_is_marked_and_accented_and_still_formats():
    with pseudo.installed(), translation.override(pseudo.CODE):
        assert gettext("Log out") == "⟦Ĺóğ óúţ⟧"
        assert pgettext("language switcher", "Change") == "⟦Çĥáñğé⟧"
        many = ngettext("%(count)s block", "%(count)s blocks", 3) % {"count": 3}
        assert many == "⟦3 ƀĺóçķš⟧"
        assert gettext("<b>%(power)s</b> &amp; {name}") == "⟦<b>%(power)s</b> &amp; {name}⟧"
        assert translation.get_language() == pseudo.CODE
    assert gettext("Log out") == "Log out"


def test_the_check_finds_letters_no_catalog_wrote():
    allowed = pseudo.allowing(["France", "Old Castile"])
    text = "⟦Ĺóğ⟧ France holds Old Castile: 12 × ⟦ƀý⟧ army Ελλάδα"
    assert pseudo.escapes(text, allowed) == ["holds", "army", "Ελλάδα"]
    assert pseudo.escapes("Frances", allowed) == ["Frances"]  # a value counts whole only


def test_what_a_page_shows_is_its_text_and_the_attributes_a_browser_shows():
    html = (
        '<title>T</title><script>var x = "code";</script><p title="Tip">Body</p>'
        '<input type="submit" value="Go"><input type="text" value="typed">'
        '<button hx-confirm="Sure?">B</button><img alt="Alt" src="x.png">'
    )
    assert pseudo.shown(html) == ["T", "Tip", "Body", "Go", "Sure?", "B", "Alt"]


def test_code_and_what_declares_another_language_are_not_read():
    html = (
        '<html lang="en-xa"><p>Seen <code>spaces.lyon</code> <pre><b>x</b> y</pre>'
        '<q lang="ru">Цитата <i>тоже</i></q> <span lang="en-xa">Same</span><br>End</p></html>'
    )
    assert pseudo.shown(html) == ["Seen ", "Same", "End"]


def test_a_link_is_taken_out_whole_before_a_code_inside_it():
    """A signed token may hold what reads as a code ("-D3-"): the link goes first."""
    link = re.compile(r"http://x/off/[\w:-]+/")
    code = re.compile(r"(?<![\w/])[A-E][1-6](?!\w)")
    text = "⟦Ţúŕñ: http://x/off/WzQ4:1xaFJi:dewOPZ-D3-Q4lZ/⟧"
    assert pseudo.escapes(text, link, code) == []
    assert pseudo.escapes(text, code, link) != []  # the other way round, the link breaks
