from django.contrib import admin
from django.urls import include, path

from courier.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("campaign.urls")),
]
