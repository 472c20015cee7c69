"""The campaign page and the dashboard load their map panel after the page (with HTMX,
campaign.views.maps.map_panel): a page as a browser shows it once that has loaded."""

import re
from html import unescape

LOADER = re.compile(
    r'<div class="map-loading" data-hx-get="([^"]+)"'
    r'.*?<svg class="map-placeholder"[^>]*></svg>\s*</div>',  # the loader, whole
    re.S,
)


def map_url(html: str) -> str | None:
    """The URL the page loads its map panel from, if it has one."""
    match = LOADER.search(html)
    return unescape(match.group(1)) if match else None


def with_map(client, html: str) -> str:
    """``html`` with its map panel loaded in place, as ``client`` would load it."""
    match = LOADER.search(html)
    if match is None:
        return html
    response = client.get(unescape(match.group(1)), HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.status_code
    return html[: match.start()] + response.content.decode() + html[match.end() :]
