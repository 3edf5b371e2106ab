# Shared by scripts/bench and scripts/bench.d/*.sh (sourced, not run).
#
#   bench_nginx_start CONF_HTTP_SNIPPET   starts nginx ($BENCH_WORKERS, 2) on
#                                         $BENCH_PORT under $BENCH_PREFIX
#   bench_nginx_stop
#   bench_redis_start / bench_redis_stop  Redis on $BENCH_REDIS_PORT
#   bench_wrk URL BODY_FILE [HEADER...]   prints requests/s (POST); Lua in
#                                         $BENCH_LUA is added to wrk's script
#   bench_wrk_latency URL BODY_FILE RATE  prints "p50 p99" in ms, wrk2-less:
#                                         uses wrk's latency distribution
#   bench_ratio A B                       prints A/B with 3 decimals
#
# Every load goes to 127.0.0.1 only and stops by itself (wrk -d).

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BENCH_PREFIX=${BENCH_PREFIX:-$TOP/build/bench}
BENCH_PORT=${BENCH_PORT:-18480}
BENCH_REDIS_PORT=${BENCH_REDIS_PORT:-18479}
BENCH_SECONDS=${BENCH_SECONDS:-5}
BENCH_CONNS=${BENCH_CONNS:-32}
BENCH_KEY=bk_bench_0123456789abcdef0123456789ab

bench_nginx_start() {
    local http=$1 user=
    mkdir -p "$BENCH_PREFIX/logs" "$BENCH_PREFIX/conf" "$BENCH_PREFIX/tmp"
    printf '%s bench analyze,gateway,portal 0\n' \
        "$(printf %s "$BENCH_KEY" | sha256sum | cut -d' ' -f1)" \
        > "$BENCH_PREFIX/conf/keys"
    [ "$(id -u)" = 0 ] && user="user root;"
    http=${http//%%KEYS%%/$BENCH_PREFIX/conf/keys}
    http=${http//%%PORT%%/$BENCH_PORT}
    http=${http//%%REDIS%%/127.0.0.1:$BENCH_REDIS_PORT}
    http=${http//%%PREFIX%%/$BENCH_PREFIX}
    cat > "$BENCH_PREFIX/conf/nginx.conf" <<CONF
load_module $TOP/build/ngx_http_behave_module.so;
$user
worker_processes ${BENCH_WORKERS:-2};
pid $BENCH_PREFIX/logs/nginx.pid;
error_log $BENCH_PREFIX/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $BENCH_PREFIX/tmp/body;
    proxy_temp_path $BENCH_PREFIX/tmp/proxy;
    $http
}
CONF
    bench_nginx_stop
    /usr/sbin/nginx -p "$BENCH_PREFIX" -c "$BENCH_PREFIX/conf/nginx.conf"
    sleep 0.5
}

bench_nginx_stop() {
    local pid
    [ -f "$BENCH_PREFIX/logs/nginx.pid" ] || return 0
    pid=$(cat "$BENCH_PREFIX/logs/nginx.pid")
    kill -QUIT "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$BENCH_PREFIX/logs/nginx.pid"
}

bench_redis_start() {
    mkdir -p "$BENCH_PREFIX/redis" "$BENCH_PREFIX/logs"
    redis-server --port "$BENCH_REDIS_PORT" --bind 127.0.0.1 --save "" \
        --appendonly no --dir "$BENCH_PREFIX/redis" --daemonize yes \
        --pidfile "$BENCH_PREFIX/redis.pid" \
        --logfile "$BENCH_PREFIX/logs/redis.log"
    sleep 0.3
}

bench_redis_stop() {
    [ -f "$BENCH_PREFIX/redis.pid" ] || return 0
    kill "$(cat "$BENCH_PREFIX/redis.pid")" 2>/dev/null || true
    rm -f "$BENCH_PREFIX/redis.pid"
    sleep 0.2
}

# Redis and an nginx with the gateway at /api/v1/ (limits as given, the
# extra http-level lines before the server, the extra server-level lines
# after the gateway's location) and "return 200" at /ok
bench_gateway_start() {
    local limits=$1 extra=${2:-} locations=${3:-}
    bench_redis_start
    bench_nginx_start "
    behave_redis %%REDIS%%;
    $extra
    behave_trace_sample 0;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /api/v1/ {
            behave_gateway;
            behave_gateway_limits $limits;
        }
        $locations
        location = /ok { return 200 '{}'; }
    }"
}

# Redis' client on the bench's Redis
rcli() { redis-cli -p "$BENCH_REDIS_PORT" "$@"; }

# The analyze-behavior rows' start, behind a running gateway: $auth and
# $url set, $1 sessions seeded (bench_seed_behavior), a call's body in
# the file $body (bench_behavior_body)
bench_behavior_setup() {
    auth="Authorization: Bearer $BENCH_KEY"
    url=http://127.0.0.1:$BENCH_PORT
    bench_seed_behavior "$1" "$url" "$BENCH_KEY"
    body=$BENCH_PREFIX/behavior.json
    bench_behavior_body "$body"
}

# Writes into file $1 wrk's Lua that POSTs the body file $2 with the
# given headers, and $BENCH_LUA after
bench_post_lua() {
    local lua=$1 body=$2 hdrs=""; shift 2
    for h in "$@"; do
        hdrs="$hdrs wrk.headers[\"${h%%:*}\"] = \"${h#*: }\";"
    done
    cat > "$lua" <<LUA
local f = io.open("$body", "rb")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
$hdrs
${BENCH_LUA:-}
LUA
}

# wrk POSTs the body file with the given headers; prints requests/s
bench_wrk() {
    local url=$1 body=$2; shift 2
    local lua=$BENCH_PREFIX/post.lua
    bench_post_lua "$lua" "$body" "$@"
    wrk -t2 -c"$BENCH_CONNS" -d"${BENCH_SECONDS}s" -s "$lua" "$url" \
        > "$BENCH_PREFIX/wrk.out" 2>&1
    awk '/^Requests\/sec/ { print $2 }' "$BENCH_PREFIX/wrk.out"
}

# prints the 50th and 99th latency percentiles (ms) of the last bench_wrk
# run with --latency, at a fixed connection count
bench_wrk_latency() {
    local url=$1 body=$2 conns=$3; shift 3
    BENCH_CONNS=$conns bench_wrk "$url" "$body" "$@" >/dev/null
    wrk -t1 -c"$conns" -d"${BENCH_SECONDS}s" --latency -s "$BENCH_PREFIX/post.lua" \
        "$url" > "$BENCH_PREFIX/wrk-lat.out" 2>&1
    awk '$1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 }
         END { print p50, p99 }' "$BENCH_PREFIX/wrk-lat.out"
}

bench_ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f\n", a / b;
                                     else print "n/a" }'
}

# the median of the numbers given as arguments
bench_median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR == 0) print "n/a";
              else if (NR % 2) print v[(NR + 1) / 2];
              else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_interleave LABEL TARGET BASE_URL TEST_URL BODY [HEADER...]
# $BENCH_ROUNDS rounds (default 5), the baseline then the test each time,
# so that the machine's drift touches both; prints each round, the best-of
# ratio and the median.
bench_interleave() {
    local label=$1 target=$2 base=$3 test=$4 body=$5; shift 5
    local best_b=0 best_t=0 b t round ratios=()

    for round in $(seq "${BENCH_ROUNDS:-5}"); do
        b=$(bench_wrk "$base" "$body" "$@")
        t=$(bench_wrk "$test" "$body" "$@")
        ratios+=("$(bench_ratio "$t" "$b")")
        echo "round $round: baseline $b req/s, measured $t req/s, ratio ${ratios[-1]}"
        best_b=$(awk -v x="$b" -v y="$best_b" 'BEGIN { print (x > y) ? x : y }')
        best_t=$(awk -v x="$t" -v y="$best_t" 'BEGIN { print (x > y) ? x : y }')
    done

    echo "$label (best of ${BENCH_ROUNDS:-5} each): $(bench_ratio "$best_t" "$best_b") (target $target)"
    echo "$label (median of ${BENCH_ROUNDS:-5} interleaved rounds): $(bench_median "${ratios[@]}")"
}

# Seeds $1 analyze-behavior sessions beh-0..beh-N-1 with 1,000 events of
# every type, 300 ms apart, through the gateway at $2 with the key $3
# (45-behavior.sh, 47-ceiling.sh); prints the first session's event count.
bench_seed_behavior() {
    local k n
    for k in $(seq 0 $(($1 - 1))); do
        /usr/bin/python3 - "beh-$k" > "$BENCH_PREFIX/seed.json" <<'PY'
import json, sys
types = ["keystroke", "keystroke", "keystroke", "backspace", "pause",
         "click", "hover", "scroll", "focus", "blur", "submit", "error"]
ev = []
for i in range(1000):
    e = {"type": types[i % len(types)], "t": 1000000 + 300 * i}
    if e["type"] in ("click", "hover"):
        e["target"] = "b%d" % (i % 7)
    if e["type"] == "scroll":
        e["delta"] = 120 if i % 3 else -120
    if e["type"] == "pause":
        e["duration"] = 2500
    ev.append(e)
print(json.dumps({"session_id": sys.argv[1], "interaction_history": ev}))
PY
        n=$(curl -s -H "Authorization: Bearer $3" \
            -H 'Content-Type: application/json' \
            --data-binary @"$BENCH_PREFIX/seed.json" \
            "$2/api/v1/analyze-behavior" \
            | /usr/bin/python3 -c \
              'import json,sys; print(json.load(sys.stdin)["events_analyzed"])')
        if [ "$k" = 0 ]; then
            echo "seeded $1 sessions of $n events"
        fi
    done
}

# A call's body of 5 events to session beh-0, into file $1 ("return 200"
# gets one like the calls')
bench_behavior_body() {
    printf '%s' '{"session_id":"beh-0","interaction_history":[{"type":"keystroke","t":3000000},{"type":"pause","t":3000100,"duration":2500},{"type":"backspace","t":3002700},{"type":"click","t":3002900,"target":"buy"},{"type":"submit","t":3003400}]}' > "$1"
}

# wrk's Lua for analyze-behavior: each request 5 new events, after all
# that its session (beh-0..beh-$1-1) has seen
bench_behavior_lua() {
    echo "
local n, tid = 0, 0
local ids = 0
function setup(thread) ids = ids + 1; thread:set('tid', ids) end
function init(args) tid = tonumber(wrk.thread:get('tid')) or 1 end
request = function()
    n = n + 1
    local t = 2000000 + n * 4000 + tid * 1000
    return wrk.format(nil, nil, nil, string.format(
        '{\"session_id\":\"beh-%d\",\"interaction_history\":['
        .. '{\"type\":\"keystroke\",\"t\":%d},'
        .. '{\"type\":\"pause\",\"t\":%d,\"duration\":2500},'
        .. '{\"type\":\"backspace\",\"t\":%d},'
        .. '{\"type\":\"click\",\"t\":%d,\"target\":\"buy\"},'
        .. '{\"type\":\"submit\",\"t\":%d}]}',
        (n * 2 + tid) % $1, t, t + 100, t + 2700, t + 2900, t + 3400))
end"
}

# CPU ticks (utime + stime) of nginx's workers, and of Redis: per request
# they move far less with the machine's load than requests/s do
bench_ticks() {
    local pids
    pids=$(pgrep -P "$(cat "$BENCH_PREFIX/logs/nginx.pid")" | tr '\n' ' ')
    awk '{ t += $14 + $15 } END { print t + 0 }' \
        $(for p in $pids; do echo /proc/$p/stat; done)
}

bench_rticks() {
    awk '{ print $14 + $15 }' "/proc/$(cat "$BENCH_PREFIX/redis.pid")/stat"
}
