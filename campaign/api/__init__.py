"""The read-only JSON API for bots and clients, with personal access tokens.

Built on django-ninja: its routes and answers are typed with pydantic schemas
(schemas.py), from which the same code generates the OpenAPI document
(``/api/openapi.json``); its HttpBearer carries the tokens (auth.py); and it is a small,
Django-native layer over the site's own selectors and presenters, where Django REST
framework with drf-spectacular would add a second serializer layer and a schema
generator beside them. Tokens travel in a header, never a cookie, so no CSRF check
applies (ninja makes none for bearer authentication).

- tokens.py: making, listing and revoking the tokens (stored hashed), for the preferences
- auth.py: who a request is (a token looked up by its digest) and its rate limit
- reading.py: what the routes read, as the token's owner sees it on the pages
- schemas.py: the answers' shapes

The NinjaAPI and its routes are views (campaign/views/api.py): they read the campaign
page's own state (campaign/views/context.py).
"""
