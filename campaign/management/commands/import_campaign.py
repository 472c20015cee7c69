"""manage.py import_campaign FILE [--gm USERNAME] [--name NAME]"""

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaign.archive import ArchiveError, import_campaign


class Command(BaseCommand):
    help = (
        "Create a new campaign from a JSON archive written by export_campaign (or the GM's "
        "download). Seats go to the users of the same names on this server; the others "
        "stay open with fresh invitation links. Nothing is created if anything is wrong."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The archive (.json); - reads standard input.")
        parser.add_argument("--gm", help="Username of the user who becomes its game master.")
        parser.add_argument(
            "--name", help="A name instead of the archive's (to import a second copy)."
        )

    def handle(self, *args, file, gm, name, **options):
        gm_user = None
        if gm:
            User = get_user_model()
            try:
                gm_user = User.objects.get_by_natural_key(gm)
            except User.DoesNotExist:
                raise CommandError(f"No user {gm!r}.") from None
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not UTF-8 text"
            raise CommandError(f"{file}: cannot be read ({reason}).") from error
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{Path(file).name} is not valid JSON (line {error.lineno}, column "
                f"{error.colno}: {error.msg})."
            ) from error
        try:
            campaign = import_campaign(data, gm=gm_user, name=name)
        except ArchiveError as error:
            raise CommandError(f"{Path(file).name}: {error}") from error
        self.stdout.write(
            f"Imported campaign #{campaign.pk} “{campaign.name}” ({campaign.ruleset}, "
            f"{campaign.turn_label}): {campaign.get_absolute_url()}"
        )
