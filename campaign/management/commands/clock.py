"""manage.py clock: every CLOCK_INTERVAL_SECONDS, hand the worker the check of deadlines
and reminders (campaign.tasks.tick). Run it beside `manage.py db_worker`."""

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from campaign.tasks import tick


class Command(BaseCommand):
    help = "Enqueue the check of due deadlines and reminders at a fixed interval."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Enqueue one check and exit.")

    def handle(self, *args, once: bool = False, **options):
        interval = settings.CLOCK_INTERVAL_SECONDS
        while True:
            tick.enqueue()
            if once:
                return
            time.sleep(interval)
