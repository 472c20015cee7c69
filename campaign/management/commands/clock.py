"""manage.py clock: every CLOCK_INTERVAL_SECONDS, hand the worker the check of deadlines
and reminders (campaign.jobs.tasks.tick), and every press_mail.DIGEST_CHECK_SECONDS the press
digests (campaign.jobs.tasks.send_press_digests). Run it beside `manage.py db_worker`.
Each tick also records that the clock runs (campaign/jobs/heartbeat.py), one query."""

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from campaign.jobs import heartbeat
from campaign.jobs.tasks import send_press_digests, tick
from campaign.press import press_mail


class Command(BaseCommand):
    help = "Enqueue the check of due deadlines and reminders at a fixed interval."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Enqueue one check and exit.")

    def handle(self, *args, once: bool = False, **options):
        interval = settings.CLOCK_INTERVAL_SECONDS
        digests_due = time.monotonic() + press_mail.DIGEST_CHECK_SECONDS
        while True:
            heartbeat.beat(heartbeat.CLOCK)
            tick.enqueue()
            if time.monotonic() >= digests_due:
                send_press_digests.enqueue()
                digests_due = time.monotonic() + press_mail.DIGEST_CHECK_SECONDS
            if once:
                return
            time.sleep(interval)
