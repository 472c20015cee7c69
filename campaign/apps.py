from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self):
        """Connect the worker's tasks to the lifecycle's signal (campaign/tasks.py, which
        needs the models: it is imported once they are loaded)."""
        from campaign import tasks  # noqa: F401
