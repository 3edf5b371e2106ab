# syntax=docker/dockerfile:1
# Production image: Debian's stock nginx with the module installed from its
# Debian package, built once in the first stage.  Keys, the master key and
# an optional lexicon come from mounted files or Docker/Compose secrets
# (docker/entrypoint.sh says which variables name them); nothing secret is
# baked into the image.  The nginx master reads them as root; the workers
# run as www-data.  compose.yaml runs it beside Redis with AOF on.
#
#   docker build -t behave .
#   docker run -p 8080:8080 -e BEHAVE_DEMO=1 behave      # demo: makes a key
#   docker compose up                                   # production shape

# --- build: the .deb, once ---------------------------------------------
FROM debian:bookworm AS build

RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       build-essential dpkg-dev debhelper nginx-dev libcjson-dev \
       libhiredis-dev libutf8proc-dev libssl-dev libpcre2-dev zlib1g-dev perl \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src/ngx-http-behave
COPY . .
RUN rm -rf build debian/libnginx-mod-http-behave \
    && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b \
    && mkdir /out && mv ../libnginx-mod-http-behave_*.deb /out/

# --- runtime: stock nginx + the package ---------------------------------
FROM debian:bookworm-slim

COPY --from=build /out/ /tmp/deb/
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       nginx curl ca-certificates openssl /tmp/deb/libnginx-mod-http-behave_*.deb \
    && rm -rf /var/lib/apt/lists/* /tmp/deb \
    && rm -f /etc/nginx/sites-enabled/default

COPY docker/nginx.conf.template /etc/behave/nginx.conf.template
COPY docker/entrypoint.sh /usr/local/bin/behave-entrypoint
COPY conf/models.json /etc/behave/models.json
COPY conf/access-log-json.conf /etc/behave/access-log-json.conf
RUN sed -i 's|/var/log/nginx/behave-access.json|/dev/stdout|' \
        /etc/behave/access-log-json.conf

ENV BEHAVE_LISTEN=8080
EXPOSE 8080

# readiness of the module itself (no key needed), every 10 s
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1

STOPSIGNAL SIGQUIT
ENTRYPOINT ["/usr/local/bin/behave-entrypoint"]
CMD []
