"""manage.py replay ID"""

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.records.replay import replay


class Command(BaseCommand):
    help = (
        "Re-resolve every resolved phase of a campaign from the state it resolved from, with "
        "its revealed seed (or the GM-entered faces), its saved orders and its recorded "
        "decisions, and check that the rolls and the state come out as they did, up to the "
        "live state, each phase's recorded inputs (standing orders) included; the GM's edits "
        "are named. Changes nothing. Exit status 1 on a mismatch."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int, help="The campaign's id.")

    def handle(self, *args, campaign_id, **options):
        if not Campaign.objects.filter(pk=campaign_id).exists():
            raise CommandError(f"No campaign #{campaign_id}.")
        report = replay(campaign_id)
        for line in report.lines():
            self.stdout.write(line)
        if not report.match:
            raise CommandError(f"Replay mismatch: {report.difference}")
