from django.apps import AppConfig
from django.conf import settings
from django.core.management import call_command
from django.db.models.signals import post_migrate

from rules import engine


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        """Install the site's rulesets (before the admin registers their tables), and
        connect the worker's tasks to the lifecycle's signal (campaign/tasks.py, which
        needs the models: it is imported once they are loaded) and login throttling to
        failed logins."""
        engine.install(settings.COURIER_RULESETS)  # first: modules below read the registry
        from campaign import tasks  # noqa: F401
        from courier import throttling  # noqa: F401  (counts each client's failed logins)

        post_migrate.connect(create_cache_table, sender=self)


def create_cache_table(using: str = "default", **kwargs) -> None:
    """After every migrate, the database cache's table (courier/cache.py), if the site
    uses one and it is missing."""
    call_command("createcachetable", database=using, verbosity=0)
