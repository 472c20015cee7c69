"""A real-browser walk of a player's mail, on a phone (375 px wide, Chromium), in Russian:
the GM resolves an Empires in Arms phase, the worker mails the player (kept in the
development outbox, campaign/notify/outbox.py); the player reads the "phase resolved" mail in
his outbox, follows its unsubscribe link, is asked first, turns that kind off, and finds
it unchecked on the campaign's mail settings page, the other kinds still on. Then he sets
his reminders before a deadline to "8, 4, 1" in his preferences, and "0, 500" is refused
with the field's message, changing nothing.

The pages are found by stable selectors (URLs, form actions, input names, button types),
not by their words: the Russian catalog does not translate every new string yet. The
words the walk does read (the saved message, the refusal, the kind of mail) are taken
from the catalogs as the page writes them.
"""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from campaign.models import MailChoice, MailKind, PressMail, Profile
from campaign.notify import outbox
from campaign.notify.mail_tokens import unsubscribe_target
from campaign.people.forms import ProfileForm
from campaign.play import services
from tests.browser.connections import one_connection
from tests.browser.phone import reveal
from tests.browser.test_main_loop import Tab, log_in
from tests.factories import PASSWORD, make_eia_campaign, seat_users
from tests.services.test_scheduling import resolutions, run_worker

LANGUAGE = "ru"
PHONE = {"width": 375, "height": 812}
ADDRESS = "player@example.org"
OTHER_KINDS = ("your_turn", "reminders", "lobby")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_a_player_turns_one_mail_off_from_his_outbox_and_sets_his_reminders(
    live_server, browser, artifacts, settings, tmp_path
):
    settings.EMAIL_BACKEND = "campaign.notify.outbox.OutboxBackend"
    settings.MAIL_OUTBOX_DIR = tmp_path
    settings.SITE_URL = live_server.url  # the links the mails carry lead to this server
    assert settings.MAIL_OUTBOX, "the outbox's pages are mounted only in development"
    with one_connection(live_server):
        campaign = make_eia_campaign()
        users = seat_users(campaign)
        player = users["player"]
        player.email = ADDRESS
        player.save(update_fields=["email"])
        Profile.objects.update_or_create(user=player, defaults={"language": LANGUAGE})

        # The GM resolves the open phase; the worker mails the player what it did.
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
        )
        sent = run_worker()
        mailed = [value for name, value in sent if name == "deliver_mail"]
        assert mailed and set(mailed) == {"sent"}, sent
        assert not resolutions(sent)  # nothing else to resolve: the next phase awaits orders
        mail_id, link = kept_mail_of_kind(tmp_path, MailKind.RESOLVED)
        assert unsubscribe_target(link.rsplit("/mail/off/", 1)[1].strip("/")) == (
            player.pk,
            campaign.pk,
            MailKind.RESOLVED,
        )

        tab = Tab(browser, live_server.url, "player")
        tab.page.set_viewport_size(PHONE)
        log_in(tab, player.username, PASSWORD)  # before logging in: the browser's English
        expect(reveal(tab.page, "header form[action='/accounts/logout/']")).to_be_visible()
        page = tab.page

        # 1. His outbox lists the mail; he opens it and follows its unsubscribe link.
        tab.goto("/outbox/")
        in_russian(page)
        listed = page.locator(f'main a[href="/outbox/{mail_id}/"]')
        expect(listed).to_contain_text(campaign.name)
        shot(tab, artifacts, "mail_walk_1_outbox")
        listed.click()
        tab.htmx_loaded()
        expect(page.locator("main h1")).to_contain_text(campaign.name)
        expect(page.locator("main pre.mail-text")).to_contain_text(f"/campaigns/{campaign.pk}/")
        unsubscribe = page.locator(f'main a[href="{link}"]')
        expect(unsubscribe).to_have_count(1)
        shot(tab, artifacts, "mail_walk_2_mail")
        unsubscribe.click()
        tab.htmx_loaded()

        # It asks first: which mail, from which campaign, and a button to turn it off.
        in_russian(page)
        with translation.override(LANGUAGE):
            kind = str(MailKind.RESOLVED.label)
        question = page.locator("main section.panel")
        expect(question).to_contain_text(campaign.name)
        expect(question).to_contain_text(kind)
        button = page.locator('main form[method=post][action*="/mail/off/"] button[type=submit]')
        expect(button).to_be_visible()
        assert MailChoice.of(player.pk, campaign.pk).resolved  # opening it changed nothing
        shot(tab, artifacts, "mail_walk_3_unsubscribe_asks")
        button.click()
        tab.htmx_loaded()
        done = page.locator("main [role=status]")
        expect(done).to_contain_text(campaign.name)
        expect(done).to_contain_text(kind)
        expect(page.locator("main form[action*='/mail/off/']")).to_have_count(0)
        shot(tab, artifacts, "mail_walk_4_unsubscribe_done")

        choice = MailChoice.objects.get(user=player, campaign=campaign)
        assert not choice.resolved
        assert all(getattr(choice, other) for other in OTHER_KINDS)
        assert choice.press == PressMail.DIGEST

        # The campaign's mail settings page, linked from the answer, shows it off.
        settings_url = f"/campaigns/{campaign.pk}/mail/"
        page.locator(f'main a[href="{settings_url}"]').click()
        tab.htmx_loaded()
        assert page.url == live_server.url + settings_url
        in_russian(page)
        form = page.locator("main form[method=post]")
        expect(form.locator("input[name=resolved]")).not_to_be_checked()
        for other in OTHER_KINDS:
            expect(form.locator(f"input[name={other}]")).to_be_checked()
        expect(form.locator("input[name=press][value=digest]")).to_be_checked()
        shot(tab, artifacts, "mail_walk_5_mail_settings")

        # 2. His preferences: reminders 8, 4 and 1 hours before a deadline.
        tab.goto("/account/")
        in_russian(page)
        expect(page.locator(f'main a[href="{settings_url}"]')).to_contain_text(campaign.name)
        preferences = page.locator("main form[method=post]:has(input[name=reminder_hours])")
        hours = preferences.locator("input[name=reminder_hours]")
        expect(hours).to_have_value("24, 2")
        hours.fill("8, 4, 1")
        preferences.locator("button[type=submit]").click()
        tab.htmx_loaded()
        with translation.override(LANGUAGE):
            saved = gettext("Preferences saved.")
        expect(page.locator(".messages [class~=success]")).to_have_text(saved)
        expect(hours).to_have_value("8, 4, 1")
        profile = Profile.objects.get(user=player)
        assert profile.reminder_hours == [8, 4, 1]
        assert profile.language == LANGUAGE  # the rest of the form kept as it was
        assert get_user_model().objects.get(pk=player.pk).email == ADDRESS
        shot(tab, artifacts, "mail_walk_6_preferences_saved")

        # "0, 500": refused with the field's message, nothing saved.
        hours.fill("0, 500")
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            preferences.locator("button[type=submit]").click()
        assert answer.value.status == 422
        tab.htmx_loaded()
        refused = [p for p in tab.problems if p.startswith("422 POST")]
        assert refused == [f"422 POST {live_server.url}/account/"]  # the refusal itself
        tab.problems.remove(refused[0])
        expect(hours).to_have_value("0, 500")
        expect(hours).to_have_attribute("aria-invalid", "true")
        expect(preferences).to_contain_text(refusal("0, 500"))
        expect(page.locator(".messages")).to_have_count(0)
        assert Profile.objects.get(user=player).reminder_hours == [8, 4, 1]
        shot(tab, artifacts, "mail_walk_7_preferences_refused")

        tab.context.close()
    assert not tab.problems, tab.problems


def kept_mail_of_kind(directory: Path, kind: str) -> tuple[str, str]:
    """The outbox id and the unsubscribe link of the one kept mail of that kind."""
    found = []
    for path in sorted(directory.glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        for link in outbox.unsubscribe_links(message):
            token = link.rsplit("/mail/off/", 1)[1].strip("/")
            if unsubscribe_target(token)[2] == kind:
                assert message["To"] == ADDRESS
                found.append((path.name, link))
    assert len(found) == 1, found
    return found[0]


def refusal(value: str) -> str:
    """The reminder field's message for ``value``, in the walk's language."""
    field = ProfileForm.base_fields["reminder_hours"]
    with translation.override(LANGUAGE):
        try:
            field.clean(value)
        except forms.ValidationError as error:
            (message,) = error.messages
            return message
    raise AssertionError(f"{value!r} is accepted")


def in_russian(page) -> None:
    expect(page.locator("html")).to_have_attribute("lang", LANGUAGE)


def shot(tab: Tab, artifacts: Path, name: str) -> None:
    """A full-page screenshot, after checking that the page fits the phone's width (a
    table or preformatted text may scroll inside its box, the page may not)."""
    page = tab.page
    wider = page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            const out = [];
            if (document.documentElement.scrollWidth > width) out.push("the page scrolls sideways");
            for (const element of document.querySelectorAll("body *")) {
                const box = element.getBoundingClientRect();
                if (box.width === 0 || box.right <= width + 1) continue;
                let clipped = false;
                for (let up = element.parentElement; up; up = up.parentElement) {
                    const overflow = getComputedStyle(up).overflowX;
                    if (overflow !== "visible" && up !== document.body
                        && up !== document.documentElement) { clipped = true; break; }
                }
                if (!clipped) out.push(`${element.tagName.toLowerCase()}.${element.className}`);
            }
            return out;
        }"""
    )
    page.screenshot(path=artifacts / f"{name}.png", full_page=True)
    assert not wider, f"{name}: wider than {PHONE['width']} px: {wider}"
