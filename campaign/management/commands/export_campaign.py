"""manage.py export_campaign ID [-o FILE]"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.records.archive import dumps, export_campaign


class Command(BaseCommand):
    help = (
        "Write a whole campaign as a JSON archive (format courier-campaign, version 2; see "
        "the README's “Export and import”), to standard output or a file. It holds every "
        "power's hidden state: keep it to the GM."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int, help="The campaign's id.")
        parser.add_argument("-o", "--output", help="Write to this file instead of stdout.")

    def handle(self, *args, campaign_id, output, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"No campaign #{campaign_id}.")
        text = dumps(export_campaign(campaign))
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"{output}: cannot be written ({error.strerror}).") from error
        self.stderr.write(f"Campaign #{campaign.pk} “{campaign.name}” written to {output}.")
