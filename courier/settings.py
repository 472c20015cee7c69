"""Courier settings, read from the environment.

DATABASE_URL selects the database (SQLite file by default, PostgreSQL when set,
with psycopg's connection pool). DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS configure
a deployment, which refuses to start without a real key; DJANGO_DEBUG=1 (bin/demo, the
tests) is development, with a fixed key.
"""

import email.utils
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from courier.cache import caches
from rules.engine import shipped_packages

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"  # bin/demo and the tests turn it on
DEVELOPMENT_KEY = "dev-only-insecure-key-change-me"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", DEVELOPMENT_KEY if DEBUG else "")


def _is_weak(key: str) -> bool:
    """A key anyone may know or guess: short, of few characters, published, or the
    placeholder of an example configuration (Django's own check asks as much)."""
    known = {DEVELOPMENT_KEY, "change-me-in-production"}
    return len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure-") or key in known


if not DEBUG and _is_weak(SECRET_KEY):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be a secret of 50 characters or more when DJANGO_DEBUG is not 1,"
        " for example: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
CSRF_TRUSTED_ORIGINS = [
    origin for origin in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if origin
]

# The rulesets this site runs: each a package that is also a Django app (its tables), every
# one shipped in rules/; rules.engine finds them from this list alone (the tests add one:
# tests/settings.py).
COURIER_RULESETS = shipped_packages()
INSTALLED_APPS = [
    "campaign",  # first: its ready() installs the rulesets before the admin registers them
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # the form renderer below finds Django's own widget templates here
    "django_htmx",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "axes",
    "anymail",  # mail through a sending service, and its inbound webhook
    "rules",
    "courier",  # its ready(): the request id carried into tasks, and the metrics
    *COURIER_RULESETS,
]


MIDDLEWARE = [
    # first: the request's id (X-Request-ID) for every line logged while it is served, and
    # its own line once answered (courier/request_id.py); then the metrics' clock
    "courier.request_id.RequestIdMiddleware",
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, compressed ahead of time
    # pages and fragments compressed (with Django's random padding against BREACH)
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "campaign.middleware.TimeZoneMiddleware",
    "campaign.middleware.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # a signed-out HTMX request: the whole page to the login page, not a login form in a panel
    "campaign.people.login_redirect.HtmxLoginRedirectMiddleware",
    "csp.middleware.CSPMiddleware",
    # requests and their latency per route (its URL pattern's name), a locked-out login's too
    "django_prometheus.middleware.PrometheusAfterMiddleware",
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out login itself
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # login throttling: refuses a locked-out login
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5  # failed logins per user name and address...
AXES_COOLOFF_TIME = 1  # ...lock them out for an hour
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "courier.proxy.client_address"
AXES_USERNAME_CALLABLE = "courier.throttling.attempted_username"
# How many reverse proxies (the TLS proxy of a deployment) stand in front of the app. Set,
# the client's address comes from their X-Forwarded-For and https from X-Forwarded-Proto;
# unset (0), both headers are ignored, for any client could send them.
TRUSTED_PROXIES = int(os.environ.get("COURIER_TRUSTED_PROXIES", "0"))

# Scripts and styles from this server only; inline style attributes (the map's
# colours) are allowed, inline scripts are not.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:", "blob:"],  # blob: the map drawn into a PNG
        # the installable app (campaign/views/app_shell.py): its manifest and /sw.js
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# No script reads these cookies (htmx sends the CSRF token from the page's hx-headers).
CSRF_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_HTTPONLY = True

ROOT_URLCONF = "courier.urls"

# Forms are drawn with the site's templates, so that templates/django/forms/ may replace
# one of Django's (the select, for long lists), and Django's other widgets by Jinja2.
FORM_RENDERER = "courier.form_renderer.FormRenderer"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaign.api.tokens.token_made",  # an API token just made, shown once
            ],
        },
    },
]

WSGI_APPLICATION = "courier.wsgi.application"


def _database() -> dict:
    url = os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'courier.sqlite3'}")
    config = dj_database_url.parse(url, conn_max_age=0)
    if config["ENGINE"] == "django.db.backends.postgresql":
        options = config.setdefault("OPTIONS", {})
        options["pool"] = {"min_size": 1, "max_size": 10, "timeout": 10}
        # Every query here is short: PostgreSQL's JIT compilation, which it switches on
        # for a query whose estimate runs high (one that reads many rows of a big site),
        # would take longer than the query (bench/FINDINGS.md).
        options.setdefault("options", "-c jit=off")
    else:
        config.setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    config["TEST"] = {"NAME": os.environ.get("DATABASE_TEST_NAME") or None}
    return config


DATABASES = {"default": _database()}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
] + [{"NAME": "campaign.people.passwords.SitePasswordValidator"}]  # the demo's, the site's name…

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("el", "Ελληνικά"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The shared cache (courier/cache.py): Redis where COURIER_CACHE_URL names one, otherwise
# a table of the database; the pages' maps and area tables, and the rate limits' counters.
CACHES = caches(os.environ.get("COURIER_CACHE_URL", ""))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign:list"
LOGOUT_REDIRECT_URL = "login"
# Password reset requests an hour, per client address and per e-mail address (counted in
# the shared cache).
PASSWORD_RESET_LIMIT = int(os.environ.get("COURIER_PASSWORD_RESET_LIMIT", "5"))

# Background work: phase resolution at deadlines and when everyone is ready, mail and
# webhooks. Tasks are rows in the database; `manage.py db_worker` runs them and
# `manage.py clock` enqueues the periodic check of deadlines and reminders.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
CLOCK_INTERVAL_SECONDS = int(os.environ.get("COURIER_CLOCK_INTERVAL", "2"))
# how often an open campaign page asks whether its phase has moved on
POLL_SECONDS = int(os.environ.get("COURIER_POLL_SECONDS", "15"))
# Press (campaign/press/press.py): how many messages one user may write a minute (counted in the
# shared cache), and how often at most each user is mailed
# a digest of the press they have not read.
PRESS_RATE_LIMIT = int(os.environ.get("COURIER_PRESS_RATE_LIMIT", "10"))
PRESS_DIGEST_HOURS = int(os.environ.get("COURIER_PRESS_DIGEST_HOURS", "6"))
# How often one client address may read one calendar feed in an hour (counted in the
# shared cache; campaign/views/calendar.py); past it, a 429.
CALENDAR_RATE_LIMIT = int(os.environ.get("COURIER_CALENDAR_RATE_LIMIT", "60"))
# The API (campaign/api/): how many requests one user's access tokens may make a minute
# (counted in the shared cache); past them he is answered 429 until they have made none
# for a minute.
API_RATE_LIMIT = int(os.environ.get("COURIER_API_RATE_LIMIT", "120"))
# The largest campaign archive import_campaign reads, in bytes: a larger one is refused
# before it is read (campaign/records/archive.py).
ARCHIVE_MAX_BYTES = int(os.environ.get("COURIER_ARCHIVE_MAX_BYTES", str(20 * 1024 * 1024)))
# How long an automatic resolution waits for a campaign another job holds before it
# gives up (and is retried at the next clock tick) instead of blocking the worker.
RESOLUTION_LOCK_TIMEOUT_MS = int(os.environ.get("COURIER_LOCK_TIMEOUT_MS", "10000"))
# After how many days without an action of any of its GMs a campaign under way tells its
# players so, and lets them ask the site's admins for a new GM (campaign/people/gm_team.py).
GM_INACTIVE_DAYS = int(os.environ.get("COURIER_GM_INACTIVE_DAYS", "14"))

# Mail goes out through the first of these that is set:
# - COURIER_MAIL_PROVIDER: a sending service by django-anymail's name for it ("mailgun",
#   "postmark", "sendgrid", "amazon_ses", "brevo"…), configured by ANYMAIL_* variables
#   (ANYMAIL_MAILGUN_API_KEY=… becomes ANYMAIL["MAILGUN_API_KEY"]); ANYMAIL_WEBHOOK_SECRET
#   ("user:password") guards its inbound webhook (/anymail/<provider>/inbound/);
# - EMAIL_HOST: an SMTP server (with EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD);
# - COURIER_EMAIL_CONSOLE=1: printed on the server's standard output;
# - in development (DEBUG) only: kept as files in MAIL_OUTBOX_DIR, which each recipient
#   reads, and answers, at /outbox/ (campaign/notify/outbox.py).
# A deployment (DJANGO_DEBUG not 1) refuses to start with none of the first three: the
# console must be asked for, never fallen into.
MAIL_PROVIDER = os.environ.get("COURIER_MAIL_PROVIDER", "")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_CONSOLE = os.environ.get("COURIER_EMAIL_CONSOLE", "0") == "1"
if not DEBUG and not (MAIL_PROVIDER or EMAIL_HOST or EMAIL_CONSOLE):
    raise ImproperlyConfigured(
        "No way to send mail: set COURIER_MAIL_PROVIDER (with its ANYMAIL_* settings) or"
        " EMAIL_HOST (with EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD) when DJANGO_DEBUG"
        " is not 1, or COURIER_EMAIL_CONSOLE=1 to print mail, password-reset links included,"
        " on the server's standard output"
    )
ANYMAIL = {
    name.removeprefix("ANYMAIL_"): value
    for name, value in os.environ.items()
    if name.startswith("ANYMAIL_")
}
MAIL_OUTBOX = DEBUG and not (MAIL_PROVIDER or EMAIL_HOST or EMAIL_CONSOLE)
MAIL_OUTBOX_DIR = Path(os.environ.get("COURIER_MAIL_OUTBOX_DIR", BASE_DIR / ".outbox"))
if MAIL_PROVIDER:
    EMAIL_BACKEND = f"anymail.backends.{MAIL_PROVIDER}.EmailBackend"
elif EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
elif MAIL_OUTBOX:
    EMAIL_BACKEND = "campaign.notify.outbox.OutboxBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "1") == "1"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Courier <courier@localhost>")
# Answers by mail (campaign/jobs/mail_replies.py): a mail that invites an answer is sent with
# Reply-To <MAIL_REPLY_LOCAL>+<signed token>@<MAIL_REPLY_DOMAIN>; the domain's mail reaches
# Courier by the sending service's inbound webhook or an MTA's pipe to `manage.py
# receive_mail`. Empty: no mail invites an answer.
MAIL_REPLY_DOMAIN = os.environ.get(
    "COURIER_MAIL_REPLY_DOMAIN", "courier.localhost" if DEBUG else ""
)
MAIL_REPLY_LOCAL = os.environ.get("COURIER_MAIL_REPLY_LOCAL", "courier")
MAIL_REPLY_MAX_BYTES = int(os.environ.get("COURIER_MAIL_REPLY_MAX_BYTES", str(512 * 1024)))
# The address links in mail point to. A deployment sets COURIER_SITE_URL; in development
# (DEBUG) without it, the mail a request sends links to the address that request was
# served on (campaign.middleware.ServedOriginMiddleware), whatever port the demo runs on.
SITE_URL = os.environ.get("COURIER_SITE_URL", "http://127.0.0.1:8000")
SITE_URL_FROM_REQUESTS = DEBUG and not os.environ.get("COURIER_SITE_URL")
if DEBUG:
    MIDDLEWARE.append("campaign.middleware.ServedOriginMiddleware")
# Webhooks to private or loopback addresses are refused unless this is set (a campaign
# run inside a private network).
WEBHOOK_ALLOW_PRIVATE = os.environ.get("COURIER_WEBHOOK_ALLOW_PRIVATE", "0") == "1"
# Web Push (campaign/notify/push.py): the site's VAPID key pair, made by `manage.py vapid_keys`, and
# the address a push service may write to about them. Without keys nothing is pushed.
VAPID_PRIVATE_KEY = os.environ.get("COURIER_VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("COURIER_VAPID_PUBLIC_KEY", "")
# The push services browsers subscribe through (a host or the domain above it), the only
# ones a subscription may name: Chrome's and its kin's, Firefox's, Safari's, Edge's.
PUSH_SERVICES = os.environ.get(
    "COURIER_PUSH_SERVICES",
    "fcm.googleapis.com,push.services.mozilla.com,push.apple.com,notify.windows.com",
).split(",")
VAPID_SUBJECT = os.environ.get(
    "COURIER_VAPID_SUBJECT", "mailto:" + email.utils.parseaddr(DEFAULT_FROM_EMAIL)[1]
)

# Logs: in development (DEBUG) Django's own. A deployment writes warnings and errors, with
# their tracebacks, to standard error as JSON lines (courier/jsonlog.py): a 500 is logged
# by django.request with the request's method and path; what each task did
# ("campaign", and the worker's own lines) is kept too; a 4xx answer is not logged by
# Django. One line per request ("courier.requests": method, route, status, duration, user)
# and per task run ("courier.tasks"), and every line carries the id of the request (or
# task run) it was written in (courier/request_id.py).
if not DEBUG:
    LOGGING_CONFIG = "courier.jsonlog.configure"  # and Python's warnings through it
    LOGGING = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "courier.request_id.RequestIdFilter"}},
        "formatters": {"json": {"()": "courier.jsonlog.JSONFormatter"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "json",
                "filters": ["request_id"],
                "level": "INFO",
            }
        },
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {
            "django.request": {"level": "ERROR"},  # 5xx; a 404 is no evidence of a fault
            "campaign": {"level": "INFO"},
            "courier": {"level": "INFO"},
        },
    }

# Metrics (courier/metrics.py, docs/observability.md): /metrics answers whoever sends
# "Authorization: Bearer <COURIER_METRICS_TOKEN>", or asks from loopback through no proxy;
# anyone else gets a 404. A process given COURIER_METRICS_PORT (the task worker, in a
# container of its own) serves its own metrics there, on COURIER_METRICS_ADDRESS.
METRICS_TOKEN = os.environ.get("COURIER_METRICS_TOKEN", "")
METRICS_PORT = int(os.environ.get("COURIER_METRICS_PORT") or 0)
METRICS_ADDRESS = os.environ.get("COURIER_METRICS_ADDRESS", "127.0.0.1")
# finer than django-prometheus's default (from 10 ms): most queries take less than one
PROMETHEUS_LATENCY_BUCKETS = (
    *(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5),
    *(1.0, 2.5, 5.0, 10.0, float("inf")),
)

# Errors to Sentry (courier/sentry.py) when a DSN is set; nothing is imported otherwise.
SENTRY_DSN = os.environ.get("COURIER_SENTRY_DSN") or os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from courier.sentry import start as start_sentry

    start_sentry(SENTRY_DSN)


# A deployment (DJANGO_DEBUG=0) is served over HTTPS only; `manage.py check --deploy`
# passes with these. DJANGO_SECURE_SSL_REDIRECT=0 when a proxy already redirects;
# DJANGO_HTTPS=0 only to try a production build over plain http on one's own machine.
if not DEBUG and os.environ.get("DJANGO_HTTPS", "1") == "1":
    SECURE_SSL_REDIRECT = os.environ.get("DJANGO_SECURE_SSL_REDIRECT", "1") == "1"
    if TRUSTED_PROXIES:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    X_FRAME_OPTIONS = "DENY"
    # Prometheus scrapes the app itself, not through the TLS proxy (and shows its token)
    SECURE_REDIRECT_EXEMPT = [r"^metrics$"]
