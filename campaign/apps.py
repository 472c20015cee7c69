from django.apps import AppConfig
from django.conf import settings

from rules import engine


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        engine.install(settings.COURIER_RULESETS)
