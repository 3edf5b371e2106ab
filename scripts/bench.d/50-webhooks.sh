# Surface C: a signed 40-turn ElevenLabs call end to end through the
# receiver (verify, parse, analyse every turn, one Redis script), each
# request a new call so that every one is analysed and stored.  Prints
# requests/s and the core time per call that the summary reports
# (latency_ms: annotating and assessing the 40 turns); target <= 1 ms.
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

command -v redis-server >/dev/null || { echo "50-webhooks: no redis-server, skipped"; exit 0; }

secret=bench_webhook_secret_0123456789
mkdir -p "$BENCH_PREFIX"
openssl rand -hex 32 > "$BENCH_PREFIX/master.key"

redis-server --port "$BENCH_REDIS_PORT" --bind 127.0.0.1 --save '' \
    --appendonly no --daemonize yes --pidfile "$BENCH_PREFIX/redis.pid" >/dev/null
sleep 0.3

bench_nginx_start "
    behave_redis %%REDIS%%;
    behave_secret_key $BENCH_PREFIX/master.key;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/webhooks { behave_webhooks; behave_max_body_size 4m; }
    }"

base="http://127.0.0.1:$BENCH_PORT"
slug=$(curl -s -H "Authorization: Bearer $BENCH_KEY" -H 'Content-Type: application/json' \
       -d "{\"secret\":\"$secret\"}" "$base/v1/webhooks" \
       | sed -n 's/.*"slug":"\([^"]*\)".*/\1/p')

# one call per request: the call id comes from a counter
body40() {
    local id=$1 i role msg turns=
    for i in $(seq 0 39); do
        if (( i % 2 )); then role=agent; msg="I understand, let me look at order $i for you right away."
        else role=user; msg="My order still has not arrived and I was charged twice, can you fix it?"; fi
        turns+="{\"role\":\"$role\",\"message\":\"$msg\"},"
    done
    printf '{"type":"post_call_transcription","event_timestamp":1767225645,"data":{"agent_id":"a","conversation_id":"%s","status":"done","transcript":[%s],"analysis":{"call_successful":"success"}}}' \
        "$id" "${turns%,}"
}

n=${BENCH_WEBHOOK_CALLS:-400}
core=$BENCH_PREFIX/core_ms
: > "$core"
start=$(date +%s.%N)
for k in $(seq 1 "$n"); do
    b=$(body40 "bench-$$-$k")
    t=$(date +%s)
    sig=$(printf '%s.%s' "$t" "$b" | openssl dgst -sha256 -hmac "$secret" | awk '{print $NF}')
    { curl -s -H 'Content-Type: application/json' -H "ElevenLabs-Signature: t=$t,v0=$sig" \
        --data-binary "$b" "$base/v1/webhooks/$slug"; echo; } \
        | sed -n 's/.*"latency_ms":\([0-9.]*\).*/\1/p' >> "$core"
done
end=$(date +%s.%N)

ok=$(wc -l < "$core")
echo "webhooks: $ok/$n 40-turn calls processed (sequential curl, $(awk -v s="$start" -v e="$end" -v n="$n" 'BEGIN { printf "%.1f", n / (e - s) }') calls/s incl. signing in the shell)"
sort -n "$core" | awk '{ v[NR] = $1 } END { if (NR) printf "webhooks: core time per 40-turn call: p50 %.3f ms, p99 %.3f ms (target <= 1 ms)\n", v[int(NR * 0.5) + (NR > 1 ? 0 : 1)], v[int(NR * 0.99) + (NR > 1 ? 0 : 1)] }'
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
kill "$(cat "$BENCH_PREFIX/redis.pid")" 2>/dev/null || true
