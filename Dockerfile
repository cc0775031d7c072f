# The gridhall server as a container: one process, the database on /data.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY protocol ./protocol
COPY server ./server
COPY client ./client
RUN pip install --no-cache-dir ".[fast]"
VOLUME ["/data"]
EXPOSE 8765
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4).status == 200 else 1)"
ENTRYPOINT ["gridhall-server", "--host", "0.0.0.0", "--port", "8765", "--db", "/data/gridhall.db"]
