"""What a user's preferences page reads."""

from __future__ import annotations

from django.db.models import QuerySet

from campaign.models import Campaign, Profile


def profile_of(user) -> Profile:
    """The user's profile, made with its defaults on first use."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def campaigns_of(user) -> QuerySet[Campaign]:
    """The campaigns the user holds a seat in, by name."""
    return Campaign.objects.filter(seats__user=user).distinct().order_by("name")
