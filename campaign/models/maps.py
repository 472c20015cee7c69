"""A campaign's own drawn map: built from its areas' points when the GM has moved some
(``manage.py build_map --campaign``); without one, the campaign draws its scenario's."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign.models.core import Campaign


class CampaignMap(models.Model):
    """The built map of one campaign (the document campaign/maps/build.py makes)."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="drawn_map")
    document = models.JSONField(help_text=_("The shapes and the names' places, as built."))
    built_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("campaign map")

    def __str__(self) -> str:
        return f"{self.campaign}: map built {self.built_at:%Y-%m-%d %H:%M}"
