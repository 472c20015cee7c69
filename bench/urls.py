"""Courier's URLs plus bench/constant/: a fixed response through the same middleware stack,
the yardstick the pages' throughput is compared with."""

from django.http import HttpResponse
from django.urls import include, path

BODY = b"constant\n"


def constant(request):
    return HttpResponse(BODY, content_type="text/plain")


urlpatterns = [
    path("bench/constant/", constant, name="bench-constant"),
    path("", include("courier.urls")),
]
