#!/bin/sh
# The production image's entrypoint: renders /run/behave/nginx.conf from
# the environment, then runs nginx in the foreground (or the command given).
#
# Secrets are files, never values baked into the image:
#   BEHAVE_KEYS_FILE         behave_keys file (behave-keygen makes it);
#                            default /run/secrets/behave_keys
#   BEHAVE_MASTER_KEY_FILE   64 hex characters (openssl rand -hex 32);
#                            default /run/secrets/behave_master_key
#   BEHAVE_MASTER_KEY        the same as a value, for platforms that only
#                            have environment secrets: written to a 0600
#                            file on /run (tmpfs in compose.yaml)
#   BEHAVE_LEXICON_FILE      optional behave_lexicon file
# Other settings:
#   BEHAVE_REDIS             host:port or unix:/path (default redis:6379);
#                            a host name is resolved here, once, because the
#                            module refuses names (workers never wait on DNS)
#   BEHAVE_LISTEN            default 8080
#   BEHAVE_PUBLIC_URL        base of the webhooks' receiver_url
#   BEHAVE_DEMO=1            the one flag for a demo: a demo key is made and
#                            printed, a master key made when none is given
#   BEHAVE_RENDER_ONLY=1     render the configuration and stop (tests)
#   BEHAVE_RUN_DIR, BEHAVE_ETC_DIR   default /run/behave, /etc/behave
set -eu

run=${BEHAVE_RUN_DIR:-/run/behave}
etc=${BEHAVE_ETC_DIR:-/etc/behave}
keys=${BEHAVE_KEYS_FILE:-/run/secrets/behave_keys}
master=${BEHAVE_MASTER_KEY_FILE:-/run/secrets/behave_master_key}
redis=${BEHAVE_REDIS:-redis:6379}
listen=${BEHAVE_LISTEN:-8080}

die() { echo "behave-entrypoint: $*" >&2; exit 1; }

mkdir -p "$run"
chmod 0711 "$run"

if [ "${BEHAVE_DEMO:-0}" = 1 ]; then
    if [ ! -s "$keys" ]; then
        keys=$run/demo.keys
        rm -f "$keys"
        key=$(behave-keygen --tenant demo --scopes analyze,gateway,portal \
              --quota 10000 --file "$keys" 2>/dev/null)
        echo "behave-entrypoint: DEMO mode, API key (tenant demo): $key" >&2
    fi
    if [ ! -s "$master" ] && [ -z "${BEHAVE_MASTER_KEY:-}" ]; then
        master=$run/demo.master
        (umask 077; openssl rand -hex 32 > "$master")
        echo "behave-entrypoint: DEMO mode, a new master key: webhook" \
             "secrets stored now will not open after a restart" >&2
    fi
fi

if [ -n "${BEHAVE_MASTER_KEY:-}" ]; then
    master=$run/master.key
    (umask 077; printf '%s\n' "$BEHAVE_MASTER_KEY" > "$master")
fi

[ -s "$keys" ] || die "no keys file at $keys: mount one (behave-keygen" \
    "--tenant T --scopes analyze --file F), set BEHAVE_KEYS_FILE, or" \
    "BEHAVE_DEMO=1"
[ -s "$master" ] || die "no master key at $master: mount one (openssl rand" \
    "-hex 32), set BEHAVE_MASTER_KEY_FILE or BEHAVE_MASTER_KEY, or" \
    "BEHAVE_DEMO=1"

# a host name becomes the address it has now (the module takes numbers)
case $redis in
unix:*|[0-9]*.[0-9]*.[0-9]*.[0-9]*:*) ;;
*:*)
    host=${redis%:*}
    addr=$(getent ahostsv4 "$host" | awk 'NR == 1 { print $1 }')
    [ -n "$addr" ] || die "cannot resolve the Redis host \"$host\""
    redis=$addr:${redis##*:}
    ;;
*) die "BEHAVE_REDIS must be host:port or unix:/path, not \"$redis\"" ;;
esac

lexicon=
if [ -n "${BEHAVE_LEXICON_FILE:-}" ]; then
    [ -s "$BEHAVE_LEXICON_FILE" ] || die "no lexicon at $BEHAVE_LEXICON_FILE"
    lexicon="behave_lexicon $BEHAVE_LEXICON_FILE;"
fi

public_url=
if [ -n "${BEHAVE_PUBLIC_URL:-}" ]; then
    public_url="behave_public_url $BEHAVE_PUBLIC_URL;"
fi

sed -e "s|@@KEYS_FILE@@|$keys|" \
    -e "s|@@MASTER_KEY_FILE@@|$master|" \
    -e "s|@@REDIS@@|$redis|" \
    -e "s|@@LISTEN@@|$listen|" \
    -e "s|@@LEXICON@@|$lexicon|" \
    -e "s|@@PUBLIC_URL@@|$public_url|" \
    -e "s|/run/behave/|$run/|g" \
    -e "s|/etc/behave/|$etc/|g" \
    "$etc/nginx.conf.template" > "$run/nginx.conf"

[ "${BEHAVE_RENDER_ONLY:-0}" = 1 ] && { echo "$run/nginx.conf"; exit 0; }

if [ $# -gt 0 ]; then
    exec "$@"
fi

exec nginx -c "$run/nginx.conf" -g 'daemon off;'
