# analyze-behavior on sessions of 1,000 events against "return 200",
# interleaved (issue #16: >= 0.40).  Each call brings 5 new events, later
# than the session's, to one of K sessions seeded with 1,000 events each;
# the limits are off (rpm and tokens would add a Redis script of their
# own to every call, which is not the session's cost).
#
# "return 200" gets the same requests from the same wrk script: wrk runs
# on the same two cores, and its Lua request generator costs it about a
# fifth of "return 200"'s rate, which is client work, not the server's.
# The ratio against "return 200" with wrk's static body is printed too.
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

mkdir -p "$BENCH_PREFIX/logs"
bench_gateway_start "rpm=0 concurrent=10000 tokens_per_day=0"

K=64
bench_behavior_setup "$K"

# each request: 5 events after everything its session has seen
BENCH_LUA=$(bench_behavior_lua "$K")
# a call Redis did not answer in time is answered from its own events
# ("history": "request_only", cheap): count only the calls whose script
# ran, from Redis' own count of its scripts
scripts() {
    rcli INFO commandstats | tr -d '\r' \
        | awk -F'[=,:]' '/^cmdstat_evalsha:/ { n += $3 } END { print n + 0 }'
}
net() { rcli INFO stats | tr -d '\r' | awk -F: -v k="$1" '$1 == k { print $2 + 0 }'; }
r_beh=()
r_static=()
: > "$BENCH_PREFIX/beh-bytes.txt"
for round in $(seq "${BENCH_ROUNDS:-5}"); do
    static=$(BENCH_LUA= bench_wrk "$url/ok" "$body" "$auth")
    base=$(bench_wrk "$url/ok" "$body" "$auth")
    s0=$(scripts); i0=$(net total_net_input_bytes); o0=$(net total_net_output_bytes)
    beh=$(bench_wrk "$url/api/v1/analyze-behavior" "$body" "$auth")
    s1=$(scripts); i1=$(net total_net_input_bytes); o1=$(net total_net_output_bytes)
    reqs=$(awk '/requests in/ { print $1 }' "$BENCH_PREFIX/wrk.out")
    secs=$(awk '/requests in/ { sub(/s,/, "", $4); print $4 }' "$BENCH_PREFIX/wrk.out")
    ok=$(awk -v a="$s0" -v b="$s1" -v s="$secs" 'BEGIN { printf "%.0f", (b - a) / s }')
    r_beh+=("$(bench_ratio "$ok" "$base")")
    r_static+=("$(bench_ratio "$ok" "$static")")
    awk -v n=$((s1 - s0)) -v i=$((i1 - i0)) -v o=$((o1 - o0)) \
        'BEGIN { if (n > 0) printf "%.0f %.0f\n", i / n, o / n }' >> "$BENCH_PREFIX/beh-bytes.txt"
    echo "round $round: return200 $base (static body $static), analyze-behavior (1,000-event sessions) $beh req/s," \
         "of which answered from the session $ok/s ($(bench_ratio "$((s1 - s0))" "$reqs") of the calls)"
done
echo "analyze-behavior, 1,000-event sessions, answered from the session/return200 (median of ${BENCH_ROUNDS:-5}): $(bench_median "${r_beh[@]}") (target >= 0.40)"
echo "the same against return200 with wrk's static body (no Lua generator): $(bench_median "${r_static[@]}")"
echo "bytes per call: to Redis $(bench_median $(awk '{ print $1 }' "$BENCH_PREFIX/beh-bytes.txt")), from Redis $(bench_median $(awk '{ print $2 }' "$BENCH_PREFIX/beh-bytes.txt")) (medians; a call's request is $(wc -c < "$body") bytes of 5 events, its answer ~1.3 KB)"
skey=$(rcli --scan --pattern 'behave:beh:*:s' | head -1)
echo "session state: $(rcli MEMORY USAGE "$skey") bytes in Redis (the state), $(rcli MEMORY USAGE "${skey%:s}:h") (its hot state, what most calls read)"
curl -s -H "$auth" -H 'Content-Type: application/json' \
    -d '{"session_id":"beh-1","interaction_history":[]}' \
    "$url/api/v1/analyze-behavior" | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print("a session after the run: events_analyzed", d["events_analyzed"], "history", d["history"])'
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
bench_redis_stop
