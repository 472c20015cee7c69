"""The API's routes (campaign/api/; mounted at ``api/`` by courier/urls.py): read-only,
each answering as the token's owner sees the pages, from the pages' own state. A campaign
the owner has no seat in is 404, as on the pages; no token, or a bad or revoked one, 401;
past the rate limit, 429."""

from __future__ import annotations

from django.core.cache import cache
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from ninja import NinjaAPI, Query, Schema
from ninja.errors import AuthenticationError, Throttled
from pydantic import Field

from campaign import presenters
from campaign.api import reading, schemas
from campaign.api.auth import TokenBearer, TokenThrottle
from campaign.models import Campaign, Phase, Power, Seat
from campaign.notify import notifications
from campaign.people import home
from campaign.play.services import seat_for
from campaign.views.context import CampaignState, load_state, readable_payloads, state_view

AREAS_CACHE_SECONDS = 24 * 3600  # a version's areas: a new version asks for new ones
LARGEST_ID = 10**18  # ids past the 64-bit column's: no campaign has them

api = NinjaAPI(
    title="Courier",
    version="1",
    description=(
        "Read-only: my campaigns, the orders I owe, a campaign's state and log, as I see "
        "them on the pages. Send a personal access token (made in the preferences) as "
        "`Authorization: Bearer <token>`."
    ),
    urls_namespace="api",
    auth=TokenBearer(),
    throttle=TokenThrottle(),
    docs_url=None,  # the docs page would load Swagger from a CDN, which the CSP forbids
    docs_decorator=require_GET,  # the OpenAPI document's view
)
REFUSALS = {401: schemas.Error, 429: schemas.Error}


@api.exception_handler(AuthenticationError)
def unauthorized(request, exc):
    detail = gettext(
        "Send a valid access token as “Authorization: Bearer <token>”: make one in your "
        "preferences."
    )
    response = api.create_response(request, {"detail": detail}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="courier"'
    return response


@api.exception_handler(Throttled)
def throttled(request, exc):
    detail = gettext("Too many requests with your tokens: wait a minute.")
    response = api.create_response(request, {"detail": detail}, status=429)
    response["Retry-After"] = str(exc.wait)
    return response


@api.exception_handler(Http404)
def not_found(request, exc):
    return api.create_response(request, {"detail": gettext("Not found.")}, status=404)


# -- the routes ------------------------------------------------------------------------


@api.get("/campaigns", response={200: list[schemas.CampaignOut], **REFUSALS}, url_name="campaigns")
def campaigns(request):
    """My campaigns (as GM, player or observer), each with my role and power, its open
    phase and deadline, and whether my orders are due."""
    return [
        campaign_out(request, s.seat, s.owes, s.ready) for s in reading.sittings(request.auth.user)
    ]


@api.get(
    "/orders-due", response={200: list[schemas.OrdersDueOut], **REFUSALS}, url_name="orders_due"
)
def orders_due(request):
    """The open phases that wait for my power's orders, the nearest deadline first."""
    found = []
    for s in reading.orders_due(request.auth.user):
        campaign = s.campaign
        found.append(
            {
                "campaign_id": campaign.pk,
                "campaign": campaign.name,
                "url": notifications.campaign_link(campaign),
                "power": power_out(s.seat.power),
                "phase": phase_out(campaign, campaign.phase),
                "deadline": campaign.phase.deadline,
                "ready": s.ready,
            }
        )
    return found


NOT_SEATED = {404: schemas.Error, **REFUSALS}


@api.get(
    "/campaigns/{campaign_id}",
    response={200: schemas.StateOut, **NOT_SEATED},
    url_name="campaign",
)
def campaign_state(request, campaign_id: int):
    """The campaign as I see it on its page: its open phase and who has given orders,
    the map's areas with the ruleset's markers, the open phase's orders I may read and
    the ruleset's panels. Another side's hidden pieces, another power's sealed orders:
    never."""
    state = load_state(seat_of(request, campaign_id))
    rows = presenters.readiness(state.powers, state.orders, state.spec, state.phase)
    presenter = state.presenter
    return {
        **campaign_out(request, state.seat, home.owes(state.seat, timezone.now()), my_ready(state)),
        "columns": [str(column) for column in presenter.columns] if presenter else [],
        "readiness": [reading.plain(row) for row in rows],
        "areas": areas_of(state),
        "orders": readable_payloads(state),
        "panels": reading.panels(state),
    }


def areas_of(state: CampaignState) -> list[dict]:
    """The map's areas as plain rows, drawn once for each campaign version, language and
    hidden-information view (as the map is: campaign.views.context.state_view) and shared
    by every reader who sees the same."""
    key = "courier_api_areas:" + ":".join(map(str, state_view(state)))
    rows = cache.get(key)
    if rows is None:
        rows = [reading.plain(row) for row in reading.area_rows(state)]
        cache.set(key, rows, AREAS_CACHE_SECONDS)
    return rows


class LogQuery(Schema):
    after: int = Field(0, ge=0, lt=LARGEST_ID, description="the last line id already read")
    limit: int = Field(reading.LOG_PAGE, ge=1, le=reading.LOG_PAGE_MOST)


@api.get(
    "/campaigns/{campaign_id}/log", response={200: schemas.LogOut, **NOT_SEATED}, url_name="log"
)
def log(request, campaign_id: int, query: Query[LogQuery]):
    """The campaign's log as I read it on its page (lines hidden from me redacted or
    left out), oldest first, a page at a time: ask again ``after`` the ``next_after``."""
    state = load_state(seat_of(request, campaign_id))
    lines, next_after = reading.log_page(state, query.after, query.limit)
    return {"lines": lines, "next_after": next_after}


# -- the pieces ------------------------------------------------------------------------


def seat_of(request, campaign_id: int) -> Seat:
    """The token owner's seat in the campaign: 404 without one, as on the pages."""
    if not 0 < campaign_id < LARGEST_ID:
        raise Http404("No such campaign.")
    return seat_for(request.auth.user, campaign_id)


def my_ready(state: CampaignState) -> bool:
    order = state.my_order
    return bool(order and order.ready)


def power_out(power: Power | None) -> dict | None:
    return {"key": power.key, "name": str(power.display_name)} if power else None


def phase_out(campaign: Campaign, phase: Phase | None) -> dict | None:
    if phase is None:
        return None
    return {
        "id": phase.pk,
        "key": phase.key,
        "name": str(campaign.rules.phase(phase.key).name),
        "turn": campaign.turn_label,
        "status": phase.status,
        "deadline": phase.deadline,
    }


def campaign_out(request, seat: Seat, owes: bool, ready: bool) -> dict:
    campaign = seat.campaign
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "ruleset": campaign.ruleset,
        "url": notifications.campaign_link(campaign),
        "role": seat.role,
        "power": power_out(seat.power if seat.power_id else None),
        "phase": phase_out(campaign, campaign.phase),
        "ended": campaign.ended_at is not None,
        "orders_due": owes,
        "orders_ready": ready,
    }
