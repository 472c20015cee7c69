"""The admin: every piece of campaign state is editable here too (scenarios are sample data).
A change made here bumps its campaign's version, as a change made through the pages does,
so that the pages kept for the old version (campaign/state/world_cache.py, the map) go."""

from django.apps import apps
from django.contrib import admin
from django.db import models as django_models
from django.db.models import F

from campaign import models
from campaign.models.core import new_state_stamp
from campaign.people.forms import AdminLoginForm
from rules.engine import registry

# The admin's login, throttled per client address as the site's (courier/throttling.py).
admin.site.login_form = AdminLoginForm


def campaign_ids(objects) -> set[int]:
    """The campaigns the objects belong to: their own, or their power's or area's."""
    ids = set()
    for obj in objects:
        if isinstance(obj, models.Campaign):
            ids.add(obj.pk)
        elif getattr(obj, "campaign_id", None) is not None:
            ids.add(obj.campaign_id)
        else:
            for field in obj._meta.concrete_fields:
                if field.is_relation and field.related_model in (models.Power, models.Area):
                    related = getattr(obj, field.name)
                    if related is not None:
                        ids.add(related.campaign_id)
    return ids


def bump(ids: set[int]) -> None:
    if ids:
        models.Campaign.objects.filter(pk__in=ids).update(
            version=F("version") + 1,
            state_version=F("state_version") + 1,
            state_stamp=new_state_stamp(),
        )


class StateAdmin(admin.ModelAdmin):
    """An admin whose saves and deletions bump their campaign's version."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)  # after the object's own save
        bump(campaign_ids([form.instance]))

    def delete_model(self, request, obj):
        ids = campaign_ids([obj])
        super().delete_model(request, obj)
        bump(ids)

    def delete_queryset(self, request, queryset):
        ids = campaign_ids(queryset)
        super().delete_queryset(request, queryset)
        bump(ids)


class PowerInline(admin.TabularInline):
    model = models.Power
    extra = 0
    fields = ["key", "name", "color", "sort"]


class SeatInline(admin.TabularInline):
    model = models.Seat
    extra = 0
    fields = ["role", "power", "user", "invite_token"]
    readonly_fields = ["invite_token"]


@admin.register(models.Campaign)
class CampaignAdmin(StateAdmin):
    list_display = ["name", "ruleset", "scenario", "turn", "dice_mode", "created_at"]
    list_filter = ["ruleset"]
    search_fields = ["name"]
    inlines = [PowerInline, SeatInline]
    # the versions only go up, by the services and the saves here (StateAdmin): a version
    # typed back would name pages and Worlds kept for another state
    readonly_fields = ["phase", "version", "state_version"]
    # a webhook address typed without a scheme is https, as on the GM's schedule form
    formfield_overrides = {django_models.URLField: {"assume_scheme": "https"}}


@admin.register(models.Area)
class AreaAdmin(StateAdmin):
    list_display = ["name", "campaign", "kind", "controller", "home_power"]
    list_filter = ["campaign", "kind"]
    search_fields = ["name", "key"]


@admin.register(models.Phase)
class PhaseAdmin(StateAdmin):
    list_display = ["campaign", "turn", "position", "key", "status", "deadline", "resolved_at"]
    list_filter = ["campaign", "status"]
    readonly_fields = ["seed", "seed_hash"]


@admin.register(models.Event)
class EventAdmin(StateAdmin):
    list_display = ["campaign", "turn", "kind", "rule", "text", "actor", "created_at"]
    list_filter = ["campaign", "kind"]
    search_fields = ["text"]


@admin.register(models.RollRecord)
class RollRecordAdmin(StateAdmin):
    list_display = ["campaign", "phase", "index", "rule", "purpose", "faces", "total", "outcome"]
    list_filter = ["campaign", "rule"]


@admin.register(models.Channel)
class ChannelAdmin(StateAdmin):
    list_display = ["key", "campaign", "kind", "created_at"]
    list_filter = ["campaign", "kind"]
    filter_horizontal = ["members"]


@admin.register(models.Message)
class MessageAdmin(StateAdmin):
    list_display = ["campaign", "channel", "power", "author", "turn", "phase", "created_at"]
    list_filter = ["campaign"]
    search_fields = ["text"]
    raw_id_fields = ["channel", "author", "power", "phase"]


@admin.register(models.ReadMarker)
class ReadMarkerAdmin(StateAdmin):
    list_display = ["user", "channel", "last_read"]
    raw_id_fields = ["user", "channel"]


@admin.register(models.SeatRequest)
class SeatRequestAdmin(StateAdmin):
    list_display = ["campaign", "power", "user", "status", "created_at", "answered_at"]
    list_filter = ["status", "campaign"]
    raw_id_fields = ["campaign", "power", "user"]


@admin.register(models.NewGmRequest)
class NewGmRequestAdmin(StateAdmin):
    """Players' requests for a new GM of a campaign whose GMs are quiet
    (campaign/people/gm_team.py): an admin makes a user GM in the campaign's seats (a seat with
    the role "Game master")."""

    list_display = ["campaign", "user", "created_at"]
    list_filter = ["campaign"]
    raw_id_fields = ["campaign", "user"]


@admin.register(models.Handover)
class HandoverAdmin(StateAdmin):
    """Offers of a campaign from one of its GMs to another user (campaign/people/gm_team.py)."""

    list_display = ["campaign", "from_user", "to_user", "status", "created_at", "answered_at"]
    list_filter = ["status"]
    raw_id_fields = ["campaign", "from_user", "to_user"]
    readonly_fields = ["token"]


@admin.register(models.Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    """When the clock and the task worker were last seen running (campaign/jobs/heartbeat.py):
    written by them alone, read here."""

    list_display = ["name", "seen_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# Everything else (orders, relations, adjacency, history, profiles, and each ruleset's
# state tables, in the app whose label is the ruleset's key) with the admin's plain
# forms, so a ruleset's new table is editable here without naming it.
for label in ("campaign", *registry()):
    for model in apps.get_app_config(label).get_models():
        if not admin.site.is_registered(model):
            admin.site.register(model, StateAdmin)
