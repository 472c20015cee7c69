from django.conf import settings
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from campaign.views.account import PasswordResetView
from campaign.views.api import api
from campaign.views.seats import LoginView
from courier.health import healthz
from courier.metrics import metrics_view


def favicon(request):
    """Browsers ask for /favicon.ico where a response has no link to the icon (a file, an
    error): the icon, by its hashed name once the static files are collected."""
    return redirect(static("courier/favicon.svg"), permanent=True)


def service_webhooks() -> list:
    """The mail service's webhooks (django-anymail's), the inbound mail's among them
    (campaign/jobs/mail_replies.py): the configured service's only."""
    from anymail import urls

    prefix = f"{settings.MAIL_PROVIDER}_"
    return [route for route in urls.urlpatterns if (route.name or "").startswith(prefix)]


urlpatterns = [
    path("admin/", admin.site.urls),
    # Django's own account pages, the password reset throttled, the login naming an invitation
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", healthz, name="healthz"),
    # Prometheus's, for its token or from loopback only; a 404 for anyone else
    path("metrics", metrics_view, name="metrics"),
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", api.urls),  # the read-only API for bots and clients (campaign/api/)
    path("", include("campaign.urls")),
]
if settings.MAIL_PROVIDER:
    urlpatterns.insert(0, path("anymail/", include((service_webhooks(), "anymail"))))
if settings.MAIL_OUTBOX:  # development without a mail server: each user's mails, kept here
    urlpatterns.insert(0, path("outbox/", include("campaign.outbox_urls")))
