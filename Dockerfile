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
RUN DJANGO_DEBUG=0 DJANGO_SECRET_KEY=build python manage.py collectstatic --noinput
RUN python manage.py compilemessages --locale el --locale ru
EXPOSE 8000
CMD ["gunicorn", "courier.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
