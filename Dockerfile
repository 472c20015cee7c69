FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml ./
COPY courier ./courier
COPY campaign ./campaign
COPY rules ./rules
RUN pip install --no-cache-dir .
COPY . .
# A throwaway key and the console for mail: the settings refuse to load without a key and
# a mail choice, and the build signs and sends nothing.
RUN export DJANGO_DEBUG=0 COURIER_EMAIL_CONSOLE=1 DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    && python manage.py collectstatic --noinput \
    && python manage.py compilemessages --locale el --locale ru
EXPOSE 8000
CMD ["gunicorn", "courier.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
