"""What the mail settings read: the campaigns that mail a user, and their choices."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from campaign.models import Campaign, MailChoice


def mailing_campaigns(user) -> QuerySet[Campaign]:
    """The campaigns that mail ``user``: those they hold a seat in or asked a seat of."""
    return Campaign.objects.filter(Q(seats__user=user) | Q(seat_requests__user=user)).distinct()


def mail_choice(user_id: int, campaign_id: int) -> MailChoice:
    """The user's choice of the campaign's mail: the saved one, else the default (unsaved)."""
    return MailChoice.of(user_id, campaign_id)
