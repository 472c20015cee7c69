"""manage.py demo: demo accounts and one seated, started demo campaign per ruleset
(idempotent). Each starts as its last seat is taken (Campaign.StartWhen.SEATS), so that a
first phase that waits for nobody is resolved by the worker once the command commits."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign.core.changes import locked_campaign
from campaign.models import Campaign, Seat
from campaign.play import lifecycle, tenures
from campaign.play.scenarios import available_scenarios, create_campaign
from campaign.play.scheduling import STANDARD_PACE, pace_hours
from rules.engine import registry

PASSWORD = "courier-demo"
DEMO_MAIL_DOMAIN = "demo.courier.localhost"
GM_USERNAME = "gm"


class Command(BaseCommand):
    help = (
        f"Create the demo accounts ({GM_USERNAME} and one per power, password {PASSWORD}) and "
        "a demo campaign of each ruleset's first shipped scenario, with every seat taken. "
        "Running it again changes nothing."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        gm = self._user(GM_USERNAME)
        lines = []
        rulesets = set()
        for info in available_scenarios():
            if info.ruleset in rulesets:
                continue
            rulesets.add(info.ruleset)
            name = f"Demo — {info.name}"
            campaign = Campaign.objects.filter(scenario=info.key, name=name).first()
            if campaign is None:
                campaign = create_campaign(
                    scenario_key=info.key,
                    name=name,
                    gm=gm,
                    deadline_hours=pace_hours(registry()[info.ruleset], STANDARD_PACE),
                    start_when=Campaign.StartWhen.SEATS,
                )
            seats = list(
                campaign.seats.filter(role=Seat.Role.PLAYER).select_related("power", "user")
            )
            free = [seat for seat in seats if seat.user is None]
            for seat in free:
                seat.user = self._user(seat.power.key)
                tenures.begin(campaign, seat.power, seat.user)
            Seat.objects.bulk_update(free, ["user"])
            locked = locked_campaign(campaign.pk)
            locked.bump_version()  # its seats changed: the pages, the clock's reminders
            # every seat is taken: it starts, and a phase that waits for nobody resolves
            lifecycle.settle(locked)
            lines.append(f"{campaign.name}: {campaign.get_absolute_url()}")
            lines += [f"  {s.user.get_username()} plays {s.power.name}" for s in seats]
            lines.append(f"  {GM_USERNAME} is the game master")
        self.stdout.write(f"Demo accounts, password “{PASSWORD}”:")
        self.stdout.write("\n".join(lines))

    def _user(self, username: str):
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(PASSWORD)
            user.email = f"{username}@{DEMO_MAIL_DOMAIN}"  # read in the outbox, /outbox/
            user.save(update_fields=["password", "email"])
        return user
