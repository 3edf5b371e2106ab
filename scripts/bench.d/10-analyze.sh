# POST /v1/analyze vs "return 200" on the same nginx with the same body,
# interleaved runs; target ratio >= 0.80.
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

bench_nginx_start '
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location = /ok { return 200 "{}"; }
    }'

body=$BENCH_PREFIX/analyze.json
printf '%s' '{"message":"I was charged twice for my order and nobody answers my emails, please fix it today"}' > "$body"
auth="Authorization: Bearer $BENCH_KEY"

bench_interleave "analyze/return200" ">= 0.80" \
    "http://127.0.0.1:$BENCH_PORT/ok" "http://127.0.0.1:$BENCH_PORT/v1/analyze" \
    "$body" "$auth"
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
