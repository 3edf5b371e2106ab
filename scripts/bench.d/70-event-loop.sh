# What a worker's other requests wait while it serves requests at the
# documented maximum: one worker, two connections sending adaptive-ui
# calls of 10,000 events (about 500 KiB) back to back, and one connection
# sending a small behavioral-signals call at a time, whose latency is
# measured; without a thread pool, then with behave_thread_pool default.
# Prints the small calls' p50 / p99 / max in ms for both (wall time: on a
# loaded machine the neighbours add to both).
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

command -v python3 >/dev/null || { echo "70-event-loop: no python3, skipped"; exit 0; }

d=$BENCH_PREFIX
mkdir -p "$d"
python3 - "$d/big.json" <<'PY'
import json, sys
ev = ["keystroke", "backspace", "pause", "click", "hover", "scroll", "focus",
      "blur", "submit", "error"]
h = [{"type": ev[(i * 3) % 10], "t": 1700000000000 + i * 90,
      "target": "b%d" % (i % 5)} for i in range(10000)]
json.dump({"current_state": {"screen": "checkout", "components": ["a", "b"]},
           "behavioral_data": {"interaction_history": h},
           "user_profile": {"expertise": "novice"}}, open(sys.argv[1], "w"))
PY
printf '%s' '{"signals":{"semantic":{"text":"This is the third time I am calling about this bill"}}}' > "$d/small.json"

auth="Authorization: Bearer $BENCH_KEY"
url=http://127.0.0.1:$BENCH_PORT

for pool in off default; do
    BENCH_WORKERS=1 bench_nginx_start "
    behave_trace_sample 0;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        behave_max_body_size 1m;
        client_body_buffer_size 16k;
        location /api/v1/ {
            behave_gateway;
            behave_gateway_limits rpm=0 concurrent=0 tokens_per_day=0;
            behave_thread_pool $pool;
        }
    }"

    # the big calls' load, in the background for as long as the probe
    BENCH_CONNS=2 bench_wrk "$url/api/v1/adaptive-ui" "$d/big.json" "$auth" \
        > "$d/big.rps" &
    big=$!
    sleep 0.5
    cp "$d/post.lua" "$d/big.lua" 2>/dev/null || true
    BENCH_LUA= bench_post_lua "$d/small.lua" "$d/small.json" "$auth"
    wrk -t1 -c1 -d"$((BENCH_SECONDS - 1))s" --latency -s "$d/small.lua" \
        "$url/api/v1/behavioral-signals" > "$d/small.out" 2>&1 || true
    wait "$big" || true
    awk -v pool="$pool" -v big="$(cat "$d/big.rps")" '
        $1 == "Latency" && NF >= 4 { max = $4 }
        $1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 }
        /^Requests\/sec/ { rps = $2 }
        END { printf "behave_thread_pool %-7s small calls p50 %s p99 %s max %s (%s/s), beside %s big calls/s\n",
                     pool, p50, p99, max, rps, big }' "$d/small.out"
    grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
    bench_nginx_stop
done
