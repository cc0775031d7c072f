# The gridhall server as a container: one process, the database on /data.
# EXTRAS picks the optional parts: "fast" by default, "fast,cluster" for a cluster node
# (docker-compose.yml's cluster profile), which adds the Redis and PostgreSQL clients.
FROM python:3.11-slim
ARG EXTRAS=fast
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY protocol ./protocol
COPY server ./server
COPY client ./client
RUN pip install --no-cache-dir ".[${EXTRAS}]"
VOLUME ["/data"]
EXPOSE 8765
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4).status == 200 else 1)"
ENTRYPOINT ["gridhall-server", "--host", "0.0.0.0", "--port", "8765", "--db", "/data/gridhall.db"]
