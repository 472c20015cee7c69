"""The development outbox's pages (campaign/views/outbox.py), mounted at /outbox/ by
courier/urls.py only when settings.MAIL_OUTBOX."""

from django.urls import path

from campaign.views import outbox

app_name = "outbox"
urlpatterns = [
    path("", outbox.mail_list, name="list"),
    path("<str:mail_id>/", outbox.mail, name="mail"),
    path("<str:mail_id>/html/", outbox.mail_html, name="html"),
    path("<str:mail_id>/answer/", outbox.answer, name="answer"),
]
