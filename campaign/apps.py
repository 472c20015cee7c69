from django.apps import AppConfig
from django.conf import settings
from django.core.management import call_command
from django.db.models.signals import post_migrate, post_save

from rules import engine


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        """Install the site's rulesets (before the admin registers their tables), and
        connect the worker's tasks to the lifecycle's signal (campaign/jobs/tasks.py, which
        needs the models: it is imported once they are loaded), login throttling to
        failed logins, the press's mail to each message written, the answers by mail
        that the sending service's webhook receives, forgetting a browser's device when it
        logs out, and the clock's reminders to what users choose."""
        engine.install(settings.COURIER_RULESETS)  # first: modules below read the registry
        from anymail.signals import inbound
        from django.contrib.auth.signals import user_logged_out

        from campaign.jobs import mail_replies, tasks  # noqa: F401
        from campaign.models import Message
        from campaign.notify import push, reminders
        from campaign.press import press_mail  # noqa: F401
        from courier import throttling  # noqa: F401  (counts each client's failed logins)

        post_migrate.connect(create_cache_table, sender=self)
        post_save.connect(press_mail.message_saved, sender=Message)
        inbound.connect(mail_replies.inbound_received)
        user_logged_out.connect(push.logged_out)
        reminders.watch_choices()


def create_cache_table(using: str = "default", **kwargs) -> None:
    """After every migrate, the database cache's table (courier/cache.py), if the site
    uses one and it is missing."""
    call_command("createcachetable", database=using, verbosity=0)
