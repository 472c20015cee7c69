from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from campaign.views.account import PasswordResetView
from campaign.views.seats import LoginView
from courier.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    # Django's own account pages, the password reset throttled, the login naming an invitation
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", healthz, name="healthz"),
    # browsers ask for /favicon.ico on pages without a link to the icon (a file, an error)
    path("favicon.ico", RedirectView.as_view(url=static("courier/favicon.svg"), permanent=True)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("campaign.urls")),
]
