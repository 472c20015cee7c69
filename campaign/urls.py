from django.urls import path, register_converter

from campaign.views import (
    account,
    app_shell,
    archive,
    edits,
    ending,
    gm,
    mail,
    maps,
    orders,
    pages,
    seats,
    timeline,
    verify,
)
from campaign.views import away as away_views
from campaign.views import calendar as calendar_views
from campaign.views import disorder as disorder_views
from campaign.views import extensions as extension_views
from campaign.views import gm_orders as gm_orders_views
from campaign.views import gm_team as gm_team_views
from campaign.views import history as history_views
from campaign.views import lobby as lobby_views
from campaign.views import notes as notes_views
from campaign.views import people as people_views
from campaign.views import personal_data as personal_data_views
from campaign.views import press as press_views
from campaign.views import push as push_views
from campaign.views import tokens as token_views
from campaign.views import webhook as webhook_views
from campaign.views.area import area


class ChannelConverter:
    """A press channel's key: "public", "gm-<power>" or power keys joined by "+"."""

    regex = "[-a-zA-Z0-9_+]{1,800}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class IdConverter:
    """A database id: digits that fit a 64-bit column (longer ones are simply not found)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
register_converter(ChannelConverter, "channel")

app_name = "campaign"

urlpatterns = [
    path("", pages.campaign_list, name="list"),
    path("campaigns/new/", pages.new_campaign, name="new"),
    path("campaigns/<id:campaign_id>/", pages.campaign_detail, name="detail"),
    path("campaigns/<id:campaign_id>/orders/", orders.orders, name="orders"),
    path("campaigns/<id:campaign_id>/status/", pages.phase_status, name="status"),
    path("campaigns/<id:campaign_id>/area/<str:key>/", area, name="area"),
    path("campaigns/<id:campaign_id>/standing/", orders.standing_order, name="standing"),
    path("campaigns/<id:campaign_id>/decision/", orders.decision, name="decision"),
    path(
        "campaigns/<id:campaign_id>/ask/<slug:topic>/<id:item_id>/",
        pages.question,
        name="question",
    ),
    path("campaigns/<id:campaign_id>/gm/", gm.dashboard, name="gm"),
    path("campaigns/<id:campaign_id>/gm/start/", gm.start, name="start"),
    path("campaigns/<id:campaign_id>/gm/advance/", gm.advance, name="advance"),
    path("campaigns/<id:campaign_id>/gm/edit/<slug:key>/", edits.edit, name="edit"),
    path("campaigns/<id:campaign_id>/gm/edit/<slug:key>/item/", edits.edit_item, name="edit_item"),
    path(
        "campaigns/<id:campaign_id>/gm/edit/<slug:key>/panel/", edits.edit_panel, name="edit_panel"
    ),
    path("campaigns/<id:campaign_id>/gm/seats/<id:seat_id>/", gm.seat, name="seat"),
    path("campaigns/<id:campaign_id>/gm/options/", gm.options, name="options"),
    path("campaigns/<id:campaign_id>/gm/deadline/", gm.deadline, name="deadline"),
    path("campaigns/<id:campaign_id>/gm/observer/", gm.observer, name="observer"),
    path("campaigns/<id:campaign_id>/gm/clock/", gm.clock, name="clock"),
    path("campaigns/<id:campaign_id>/gm/plays/", gm.plays, name="plays"),
    path("campaigns/<id:campaign_id>/gm/schedule/", gm.schedule, name="schedule"),
    path(
        "campaigns/<id:campaign_id>/gm/webhook/test/", webhook_views.send_test, name="webhook_test"
    ),
    path("campaigns/<id:campaign_id>/gm/powers/<id:power_id>/absent/", gm.absent, name="absent"),
    path(
        "campaigns/<id:campaign_id>/gm/powers/<id:power_id>/disorder/",
        disorder_views.set_disorder,
        name="disorder",
    ),
    path("campaigns/<id:campaign_id>/away/", away_views.mark_away, name="away"),
    path(
        "campaigns/<id:campaign_id>/extend/",
        extension_views.take_extension,
        name="take_extension",
    ),
    path(
        "campaigns/<id:campaign_id>/gm/extensions/",
        extension_views.extension_rules,
        name="extension_rules",
    ),
    path(
        "campaigns/<id:campaign_id>/gm/seats/<id:seat_id>/away/refuse/",
        away_views.refuse_away,
        name="refuse_away",
    ),
    path("campaigns/<id:campaign_id>/gm/export/", archive.export, name="export"),
    path(
        "campaigns/<id:campaign_id>/gm/orders/<id:order_id>/<id:line>/",
        gm_orders_views.carry_out,
        name="carry_out",
    ),
    path("campaigns/<id:campaign_id>/gm/orders/done/", gm_orders_views.done, name="gm_order_done"),
    path(
        "campaigns/<id:campaign_id>/gm/orders/reveal/",
        gm_orders_views.reveal,
        name="gm_orders_reveal",
    ),
    path("lobby/", lobby_views.lobby_page, name="lobby"),
    path("lobby/<id:campaign_id>/ask/<id:power_id>/", lobby_views.ask, name="lobby_ask"),
    path("lobby/<id:campaign_id>/watch/", lobby_views.watch, name="lobby_watch"),
    path(
        "campaigns/<id:campaign_id>/gm/lobby/",
        lobby_views.lobby_settings,
        name="lobby_settings",
    ),
    path(
        "campaigns/<id:campaign_id>/gm/players/",
        lobby_views.player_rules,
        name="player_rules",
    ),
    path(
        "campaigns/<id:campaign_id>/gm/requests/<id:request_id>/",
        lobby_views.answer_request,
        name="seat_request",
    ),
    path("campaigns/<id:campaign_id>/gm/gms/add/", gm_team_views.add, name="gm_add"),
    path("campaigns/<id:campaign_id>/gm/gms/open/", gm_team_views.open_seat, name="gm_open"),
    path(
        "campaigns/<id:campaign_id>/gm/gms/<id:seat_id>/remove/",
        gm_team_views.remove,
        name="gm_remove",
    ),
    path("campaigns/<id:campaign_id>/gm/handover/", gm_team_views.offer, name="handover_offer"),
    path(
        "campaigns/<id:campaign_id>/gm/handover/withdraw/",
        gm_team_views.withdraw,
        name="handover_withdraw",
    ),
    path(
        "campaigns/<id:campaign_id>/gm-invitation/<str:token>/",
        gm_team_views.join,
        name="gm_join",
    ),
    path("campaigns/handover/<str:token>/", gm_team_views.handover, name="handover"),
    path("campaigns/<id:campaign_id>/new-gm/", gm_team_views.ask_for_new_gm, name="new_gm_request"),
    path("join/<str:token>/", seats.join, name="join"),
    path("signup/", seats.signup, name="signup"),
    path("account/", account.preferences, name="preferences"),
    path("account/away/", account.away, name="away_everywhere"),
    path("account/calendar/", calendar_views.rotate, name="calendar_rotate"),
    path("calendar/<str:secret>.ics", calendar_views.feed, name="calendar_feed"),
    path("account/devices/", push_views.subscribe, name="push_subscribe"),
    path("account/devices/<id:device_id>/test/", push_views.test_notice, name="push_test"),
    path("account/devices/<id:device_id>/remove/", push_views.remove, name="push_remove"),
    path("account/tokens/", token_views.token_make, name="token_make"),
    path("account/tokens/<id:token_id>/revoke/", token_views.token_revoke, name="token_revoke"),
    path("account/data/", personal_data_views.download, name="personal_data"),
    path("account/delete/", personal_data_views.delete_account, name="delete_account"),
    path("privacy/", personal_data_views.privacy, name="privacy"),
    path("users/<str:username>/", people_views.profile, name="profile"),
    path("account/confirm/<str:token>/", account.confirm_email, name="confirm_email"),
    path("mail/off/<str:token>/", mail.unsubscribe, name="unsubscribe"),
    path("campaigns/<id:campaign_id>/mail/", mail.mail_settings, name="mail_settings"),
    path("campaigns/<id:campaign_id>/notes/", notes_views.notes_page, name="notes"),
    path("rules/<slug:ruleset>/", pages.rules_page, name="rules"),
    path(
        "campaigns/<id:campaign_id>/phases/<id:phase_id>/verify/",
        verify.phase_verify,
        name="verify",
    ),
    path(
        "campaigns/<id:campaign_id>/history/<id:phase_id>/",
        history_views.phase_history,
        name="history",
    ),
    path(
        "campaigns/<id:campaign_id>/history/<id:phase_id>/map.svg",
        maps.phase_map,
        name="phase_map_svg",
    ),
    path("campaigns/<id:campaign_id>/map.svg", maps.current_map, name="map_svg"),
    path("campaigns/<id:campaign_id>/map/", maps.map_panel, name="map"),
    path("campaigns/<id:campaign_id>/areas/", maps.area_table, name="area_table"),
    path("campaigns/<id:campaign_id>/gm/rollback/", history_views.rollback, name="rollback"),
    path("campaigns/<id:campaign_id>/gm/end/", ending.end, name="end"),
    path("campaigns/<id:campaign_id>/timeline/", timeline.campaign_timeline, name="timeline"),
    path("campaigns/<id:campaign_id>/press/", press_views.press_index, name="press"),
    path(
        "campaigns/<id:campaign_id>/press/<channel:channel>/",
        press_views.press_channel,
        name="press_channel",
    ),
    path("campaigns/<id:campaign_id>/gm/press/", press_views.press_rules, name="press_rules"),
    # the installable app (campaign/views/app_shell.py): at the root, the worker's scope
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service_worker"),
    path("offline/", app_shell.offline, name="offline"),
]
