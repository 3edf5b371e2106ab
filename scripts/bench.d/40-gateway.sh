# Each POST operation of the gateway vs "return 200" on the same nginx,
# interleaved (limits generous, Redis on, traces off).
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

bench_gateway_start "rpm=100000000 concurrent=10000 tokens_per_day=0" \
    "behave_models $TOP/conf/models.json;"

auth="Authorization: Bearer $BENCH_KEY"
url=http://127.0.0.1:$BENCH_PORT
d=$BENCH_PREFIX
printf '%s' '{"signals":{"voice":{"pitch_hz":240,"energy_db":78,"speech_rate_wpm":190},"visual":{"angry":0.7,"neutral":0.3},"semantic":{"text":"This is the third time I am calling about this bill"}}}' > $d/signals.json
printf '%s' '{"query":"Summarise the attached contract clause in plain English","latency_limit":2000}' > $d/orchestrate.json
printf '%s' '{"session_id":"bench","interaction_history":[{"type":"keystroke","t":1000},{"type":"pause","t":1200,"duration":2500},{"type":"backspace","t":3800},{"type":"click","t":4000,"target":"buy"},{"type":"submit","t":4500}]}' > $d/behavior.json
printf '%s' '{"behavioral_data":{"hesitation_score":0.7,"cognitive_friction":0.6},"user_profile":{"expertise":"novice"}}' > $d/adaptive.json

for op in behavioral-signals:signals orchestrate-models:orchestrate analyze-behavior:behavior adaptive-ui:adaptive; do
    path=${op%%:*}; file=$d/${op##*:}.json
    r=$(bench_wrk "$url/ok" "$file" "$auth")
    a=$(bench_wrk "$url/api/v1/$path" "$file" "$auth")
    echo "$path: $a req/s vs return 200 $r req/s, ratio $(bench_ratio "$a" "$r")"
done
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
bench_redis_stop
