"""A real-browser walk of a player's ways out of Courier, on a phone (375 px, Chromium), in
Greek: his preferences list the phone he gets notices on; he makes his calendar's secret
address and downloads the calendar, which holds his campaign's deadline; he makes an API
token, which the page shows once, and a bot's request with it reads the orders he owes; a
new secret address makes the old one 404. The preferences fit the phone's width throughout.

Pages are found by stable selectors (form actions, input names, the download link), not
by their words.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import expect

from campaign.models import CalendarFeed, Profile, PushSubscription
from campaign.play import services
from tests.browser.connections import one_connection
from tests.browser.test_main_loop import Tab, log_in
from tests.factories import PASSWORD, make_eia_campaign, seat_users
from tests.push_receiver import Device, subscription_of, vapid_keys

PHONE = {"width": 375, "height": 812}


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 0, f"the page scrolls sideways by {width} px"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_a_player_downloads_his_calendar_and_a_bot_reads_his_orders_with_a_token(
    live_server, browser, artifacts, settings
):
    settings.SITE_URL = live_server.url
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_keys()
    with one_connection(live_server):
        campaign = make_eia_campaign()
        users = seat_users(campaign)
        player = users["player"]
        Profile.objects.update_or_create(user=player, defaults={"language": "el"})
        services.resolve_open_phase(  # the revolt step opens: France owes orders
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
        )
        campaign.refresh_from_db()
        deadline = (timezone.now() + timedelta(hours=30)).replace(microsecond=0)
        services.set_deadline(
            campaign_id=campaign.pk,
            phase_id=campaign.phase_id,
            deadline=deadline,
            actor=users["gm"],
        )
        tab = Tab(browser, live_server.url, "player")
        page = tab.page
        page.set_viewport_size(PHONE)
        PushSubscription.objects.create(
            user=player,
            device="Chrome · Android",
            **subscription_of(Device(), "https://fcm.googleapis.com/fcm/send/a-phone"),
        )
        log_in(tab, player.username, PASSWORD)
        page.goto("/account/")

        # His devices: the phone he turned notices on, its test and removal, the button.
        devices = page.locator("#devices")
        expect(devices.locator("form#push-subscribe button[type=submit]")).to_be_visible()
        expect(devices.locator("ul.devices li")).to_have_count(1)
        fits(page)
        devices.screenshot(path=str(artifacts / "reach-devices-375.png"))

        # The calendar: made, downloaded, read back.
        page.locator("#calendar form button[type=submit]").click()
        download_link = page.locator("#calendar a[download]")
        expect(download_link).to_be_visible()
        fits(page)
        with page.expect_download() as waiting:
            download_link.click()
        calendar = Calendar.from_ical(waiting.value.path().read_bytes())
        (event,) = calendar.walk("VEVENT")
        assert event.decoded("DTSTART") == deadline
        assert campaign.name in str(event["SUMMARY"])
        assert str(event["URL"]).startswith(f"{live_server.url}/campaigns/{campaign.pk}/")
        alarms = sorted(alarm.decoded("TRIGGER") for alarm in event.walk("VALARM"))
        assert alarms == [-timedelta(hours=24), -timedelta(hours=2)]
        page.locator("#calendar").screenshot(path=str(artifacts / "reach-calendar-375.png"))

        # An API token: shown once, and a bot's request with it reads what he owes.
        form = page.locator("#api-tokens form[action='/account/tokens/']")
        form.locator("input[name=name]").fill("my bot")
        form.locator("button[type=submit]").click()
        token = page.locator("#api-tokens code.hash").inner_text().strip()
        assert token.startswith("courier_")
        fits(page)
        page.locator("#api-tokens").screenshot(path=str(artifacts / "reach-token-375.png"))
        page.reload()
        expect(page.locator("#api-tokens code.hash")).to_have_count(0)  # shown once only

        bot = tab.context.request
        answer = bot.get("/api/orders-due", headers={"Authorization": f"Bearer {token}"})
        assert answer.status == 200, answer.text()
        due = answer.json()
        assert [(item["campaign_id"], item["deadline"]) for item in due] == [
            (campaign.pk, deadline.isoformat().replace("+00:00", "Z"))
        ]
        refused = bot.get("/api/orders-due", headers={"Authorization": "Bearer courier_forged"})
        assert refused.status == 401

        # A new secret address: the old one no longer answers.
        old = CalendarFeed.objects.get(user=player).secret
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#calendar form[data-confirm] button[type=submit]").click()
        expect(page.locator("#calendar a[download]")).to_be_visible()
        assert bot.get(f"/calendar/{old}.ics").status == 404
        assert tab.problems == [], tab.problems
