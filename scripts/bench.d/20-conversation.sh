# POST /v1/analyze with a conversation_id (one Redis script a request) vs
# "return 200", interleaved; target ratio >= 0.50.  Then p99 latency near
# half of the measured maximum load; target < 2 ms.
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

bench_redis_start
bench_nginx_start '
    behave_redis %%REDIS%%;
    behave_trace_sample 0;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location = /ok { return 200 "{}"; }
    }'

body=$BENCH_PREFIX/conversation.json
printf '%s' '{"conversation_id":"bench-conv-1","message":"It is still not working after the reset, I need this fixed today please"}' > "$body"
auth="Authorization: Bearer $BENCH_KEY"
url=http://127.0.0.1:$BENCH_PORT

bench_interleave "conversation/return200" ">= 0.50" "$url/ok" "$url/v1/analyze" \
    "$body" "$auth"
# the last measured run stands for the maximum load below
best_a=$(awk '/^Requests\/sec/ { print $2 }' "$BENCH_PREFIX/wrk.out")

# wrk has no fixed rate: lower the connection count until throughput is
# about half the maximum, and report that run's latency
for c in 1 2 4 8; do
    BENCH_CONNS=$c
    rps=$(bench_wrk "$url/v1/analyze" "$body" "$auth")
    lat=$(awk '/^ +99%/ { print $2 }' "$BENCH_PREFIX/wrk.out")
    wrk -t1 -c$c -d"${BENCH_SECONDS}s" --latency -s "$BENCH_PREFIX/post.lua" \
        "$url/v1/analyze" > "$BENCH_PREFIX/lat.out" 2>&1
    p50=$(awk '$1 == "50%" { print $2 }' "$BENCH_PREFIX/lat.out")
    p99=$(awk '$1 == "99%" { print $2 }' "$BENCH_PREFIX/lat.out")
    rps=$(awk '/^Requests\/sec/ { print $2 }' "$BENCH_PREFIX/lat.out")
    echo "connections $c: $rps req/s ($(bench_ratio "$rps" "$best_a") of max), p50 $p50, p99 $p99"
done
echo "(p99 target < 2ms at about half load)"

# What a turn costs before any history: every request opens a new
# conversation, so the transaction finds nothing to read back or assess.
# The baseline sends the same bodies.  The gap between this ratio and the
# one above is the history's share; this one is the round trip's ceiling.
BENCH_CONNS=32
BENCH_LUA="
local ids = 0
function setup(thread) ids = ids + 1; thread:set('tid', ids) end
local n, start = 0, os.time()
request = function()
    n = n + 1
    return wrk.format(nil, nil, nil, string.format(
        '{\"conversation_id\":\"first-%d-%d-%d\",\"message\":\"%s\"}',
        start, tid, n,
        'It is still not working after the reset, I need this fixed today please'))
end"
bench_interleave "first turn/return200" "none, the ceiling of a turn" \
    "$url/ok" "$url/v1/analyze" "$body" "$auth"
unset BENCH_LUA
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
bench_redis_stop
