# The ceiling of a call that makes one Redis round trip (issue #16 asks
# analyze-behavior on 1,000-event sessions for >= 0.40 of "return 200").
# Interleaved in each round, all against "return 200" of the same round:
#   - adaptive-ui, {"behavioral_data":{}}: the gateway (key check, JSON
#     parse, answer) and no Redis at all
#   - GET observability/traces with behave_trace_sample 0: the gateway and
#     ONE trivial Redis round trip (EVALSHA of XREVRANGE on an empty
#     stream, answered by an empty array) through the module's async
#     hiredis adapter: no production code path does less with Redis
#   - a conversation's first turn (POST /v1/analyze, a new conversation
#     each call): one script, nothing to read back
#   - analyze-behavior on 1,000-event sessions, as 45-behavior.sh
# The limits are off (rpm=0, tokens_per_day=0: no Redis step of their
# own).  Prints the median ratios, and the Redis commands per call and
# the CPU per call (nginx workers, Redis) of each row: with both sharing
# the 2 cores, CPU per call moves less with the machine's load than req/s.
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

bench_gateway_start "rpm=0 concurrent=10000 tokens_per_day=0" "" \
    "location = /v1/analyze { behave_analyze; }"

K=64
bench_behavior_setup "$K"
ui=$BENCH_PREFIX/ui.json
printf '%s' '{"behavioral_data":{}}' > "$ui"

lua_beh=$(bench_behavior_lua "$K")
msg='It is still not working after the reset, I need this fixed today please'
lua_first="
local n, start, tid = 0, os.time(), 0
local ids = 0
function setup(thread) ids = ids + 1; thread:set('tid', ids) end
function init(args) tid = tonumber(wrk.thread:get('tid')) or 1 end
request = function()
    n = n + 1
    return wrk.format(nil, nil, nil, string.format(
        '{\"conversation_id\":\"first-%d-%d-%d\",\"message\":\"$msg\"}',
        start, tid, n))
end"
lua_get='wrk.method = "GET"; wrk.body = nil; wrk.headers["Content-Type"] = nil'

hz=$(getconf CLK_TCK)

# one run: prints req/s; notes CPU per call and Redis commands per call
run() {
    local name=$1 url=$2 b=$3 n0 n1 r0 r1 rps reqs
    rcli CONFIG RESETSTAT > /dev/null
    n0=$(bench_ticks); r0=$(bench_rticks)
    rps=$(bench_wrk "$url" "$b" "$auth")
    n1=$(bench_ticks); r1=$(bench_rticks)
    reqs=$(awk '/requests in/ { print $1 }' "$BENCH_PREFIX/wrk.out")
    # a row that answered errors would measure the errors
    if grep -q Non-2xx "$BENCH_PREFIX/wrk.out"; then
        echo "$name: $(grep Non-2xx "$BENCH_PREFIX/wrk.out")" >&2
    fi
    awk -v n="$name" -v a=$((n1 - n0)) -v b=$((r1 - r0)) -v r="$reqs" -v hz="$hz" \
        'BEGIN { if (r > 0) printf "%s %.1f %.1f\n", n, a * 1e6 / hz / r, b * 1e6 / hz / r }' \
        >> "$BENCH_PREFIX/ceil-cpu.txt"
    rcli INFO commandstats | tr -d '\r' | awk -F'[=,:]' -v n="$name" -v r="$reqs" \
        '/^cmdstat_/ { sub(/^cmdstat_/, "", $1); if (r > 0) printf "%s %s %.3f %.1f\n", n, $1, $3 / r, $5 }' \
        >> "$BENCH_PREFIX/ceil-cmds.txt"
    echo "$rps"
}

: > "$BENCH_PREFIX/ceil-cpu.txt"
: > "$BENCH_PREFIX/ceil-cmds.txt"
declare -a r_ui r_ping r_first r_beh
for round in $(seq "${BENCH_ROUNDS:-5}"); do
    base=$(BENCH_LUA='' run ok "$url/ok" "$body")
    uiv=$(BENCH_LUA='' run ui "$url/api/v1/adaptive-ui" "$ui")
    ping=$(BENCH_LUA=$lua_get run redis1 "$url/api/v1/observability/traces" "$ui")
    first=$(BENCH_LUA=$lua_first run first "$url/v1/analyze" "$body")
    beh=$(BENCH_LUA=$lua_beh run behavior "$url/api/v1/analyze-behavior" "$body")
    r_ui+=("$(bench_ratio "$uiv" "$base")")
    r_ping+=("$(bench_ratio "$ping" "$base")")
    r_first+=("$(bench_ratio "$first" "$base")")
    r_beh+=("$(bench_ratio "$beh" "$base")")
    echo "round $round: return200 $base, adaptive-ui (no Redis) $uiv," \
         "traces (one trivial Redis round trip) $ping, first turn $first," \
         "analyze-behavior $beh req/s; load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "of return200, medians of ${BENCH_ROUNDS:-5} interleaved rounds:" \
     "gateway without Redis (adaptive-ui) $(bench_median "${r_ui[@]}")," \
     "one trivial Redis round trip (traces) $(bench_median "${r_ping[@]}")," \
     "first turn $(bench_median "${r_first[@]}")," \
     "analyze-behavior 1,000-event sessions $(bench_median "${r_beh[@]}")"
for name in ok ui redis1 first behavior; do
    echo "CPU per call, $name: nginx workers" \
         "$(bench_median $(awk -v n=$name '$1 == n { print $2 }' "$BENCH_PREFIX/ceil-cpu.txt")) us," \
         "Redis $(bench_median $(awk -v n=$name '$1 == n { print $3 }' "$BENCH_PREFIX/ceil-cpu.txt")) us;" \
         "Redis commands per call:" \
         "$(awk -v n=$name '$1 == n { c[$2] += $3; k[$2]++ } END { for (x in c) printf "%s %.3f ", x, c[x] / k[x] }' "$BENCH_PREFIX/ceil-cmds.txt")"
done
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
bench_redis_stop
