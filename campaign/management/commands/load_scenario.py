"""manage.py load_scenario PATH_OR_KEY [--name NAME] [--gm USERNAME]"""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaign.play.scenarios import (
    ScenarioError,
    create_campaign,
    load_scenario_file,
    shipped_scenario,
)


class Command(BaseCommand):
    help = "Create a campaign from a scenario file, or from a shipped scenario key (eia-1805)."

    def add_arguments(self, parser):
        parser.add_argument("scenario", help="A scenario .json file, or a shipped scenario key.")
        parser.add_argument("--name", help="Campaign name (default: the scenario's name).")
        parser.add_argument("--gm", help="Username of the game master (default: none).")

    def handle(self, *args, scenario, name, gm, **options):
        path = Path(scenario)
        gm_user = None
        if gm:
            try:
                gm_user = get_user_model().objects.get_by_natural_key(gm)
            except get_user_model().DoesNotExist:
                raise CommandError(f"No user {gm!r}.") from None
        try:
            data = (
                load_scenario_file(path) if path.suffix == ".json" else shipped_scenario(scenario)
            )
            campaign = create_campaign(
                scenario_key=path.stem, name=name or data["name"], gm=gm_user, data=data
            )
        except ScenarioError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"Created campaign {campaign.pk} “{campaign.name}” from {path.stem}: "
            f"{campaign.get_absolute_url()}"
        )
