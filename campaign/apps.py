from django.apps import AppConfig
from django.conf import settings

from rules import engine


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        """Install the site's rulesets (before the admin registers their tables), and
        connect the worker's tasks to the lifecycle's signal (campaign/tasks.py, which
        needs the models: it is imported once they are loaded)."""
        engine.install(settings.COURIER_RULESETS)  # first: modules below read the registry
        from campaign import tasks  # noqa: F401
