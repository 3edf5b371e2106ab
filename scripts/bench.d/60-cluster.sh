# Single Redis vs a 3-master Redis Cluster, same run, interleaved rounds:
#   - conversation turns over 1,000 conversations (spread over every slot)
#   - webhook deliveries (signed ElevenLabs calls of 4 turns, each a new
#     call, so each is resolved, analysed and committed)
# Two nginx instances (2 workers each), one per mode.  Short by default:
# BENCH_SECONDS=3, BENCH_ROUNDS=3.
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

BENCH_SECONDS=${BENCH_CLUSTER_SECONDS:-3}
rounds=${BENCH_ROUNDS:-3}
root=$BENCH_PREFIX/cluster
rm -rf "$root"
mkdir -p "$root"
secret=bench_webhook_secret_0123456789
openssl rand -hex 32 > "$root/master.key"

# free loopback ports (another bench may hold the default ones); a
# cluster node's bus is on its port + 10000, so those stay under 55535
read -r rport c1 c2 c3 sport cport < <(python3 -c '
import random, socket
def free(pair):
    while True:
        p = random.randint(20000, 45000)
        try:
            ss = [socket.socket() for _ in range(2 if pair else 1)]
            for s, q in zip(ss, (p, p + 10000)):
                s.bind(("127.0.0.1", q))
            for s in ss: s.close()
            return p
        except OSError:
            pass
print(free(0), free(1), free(1), free(1), free(0), free(0))')
# the Redis servers: one single, three cluster masters
cports=("$c1" "$c2" "$c3")
for p in "$rport" "${cports[@]}"; do
    mkdir -p "$root/r$p"
    extra=()
    [ "$p" != "$rport" ] && extra=(--cluster-enabled yes
        --cluster-config-file nodes.conf --cluster-node-timeout 2000)
    redis-server --port "$p" --bind 127.0.0.1 --save "" --appendonly no \
        --dir "$root/r$p" --daemonize yes --pidfile "$root/r$p/pid" \
        --logfile "$root/r$p/log" "${extra[@]}"
done
sleep 0.5
redis-cli --cluster create "${cports[@]/#/127.0.0.1:}" --cluster-replicas 0 \
    --cluster-yes > "$root/create.log" 2>&1
for _ in $(seq 50); do
    redis-cli -p "${cports[0]}" cluster info | grep -q 'cluster_state:ok' && break
    sleep 0.1
done

stop_all() {
    for mode in single cluster; do
        BENCH_PREFIX=$root/$mode bench_nginx_stop
    done
    for p in "$rport" "${cports[@]}"; do
        [ -f "$root/r$p/pid" ] && kill "$(cat "$root/r$p/pid")" 2>/dev/null || true
    done
}
trap stop_all EXIT

start_mode() {
    local mode=$1 port=$2 redis=$3
    BENCH_PREFIX=$root/$mode BENCH_PORT=$port bench_nginx_start "
    behave_redis $redis;
    behave_secret_key $root/master.key;
    behave_trace_sample 0;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location /v1/webhooks { behave_webhooks; }
    }"
}
start_mode single "$sport" "127.0.0.1:$rport"
start_mode cluster "$cport" "cluster 127.0.0.1:${cports[0]}"
sleep 0.5
auth="Authorization: Bearer $BENCH_KEY"

# turns: 1,000 conversations, each wrk thread walking through them
body=$root/turn.json
printf '%s' '{"conversation_id":"x","message":"It is still not working after the reset, I need this fixed today please"}' > "$body"
BENCH_LUA="
local ids = 0
function setup(thread) ids = ids + 1; thread:set('tid', ids) end
local n = 0
request = function()
    n = n + 1
    return wrk.format(nil, nil, nil, string.format(
        '{\"conversation_id\":\"bench-%d-%d\",\"message\":\"%s\"}', tid,
        n % 500, 'It is still not working after the reset, I need this fixed today please'))
end"
s_all=() c_all=()
for round in $(seq "$rounds"); do
    BENCH_PREFIX=$root/single
    s=$(bench_wrk "http://127.0.0.1:$sport/v1/analyze" "$body" "$auth")
    BENCH_PREFIX=$root/cluster
    c=$(bench_wrk "http://127.0.0.1:$cport/v1/analyze" "$body" "$auth")
    s_all+=("$s") c_all+=("$c")
    echo "turns round $round: single $s req/s, cluster $c req/s, ratio $(bench_ratio "$c" "$s")"
done
echo "turns: single median $(bench_median "${s_all[@]}") req/s, cluster median $(bench_median "${c_all[@]}") req/s"
unset BENCH_LUA

# webhooks: an endpoint per mode, then pre-signed calls replayed by wrk
slug_of() {
    curl -s -H "$auth" -H 'Content-Type: application/json' \
        -d "{\"secret\":\"$secret\"}" "http://127.0.0.1:$1/v1/webhooks" \
        | sed -n 's/.*"slug":"\([^"]*\)".*/\1/p'
}
sslug=$(slug_of "$sport")
cslug=$(slug_of "$cport")

# N signed requests in a Lua table, each a new call id
signed_lua() {
    python3 - "$1" "$2" "$secret" <<'PY'
import hashlib, hmac, json, sys, time
tag, n, secret = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
t = str(int(time.time()))
print("local reqs = {")
for i in range(n):
    body = json.dumps({"type": "post_call_transcription",
        "event_timestamp": int(t), "data": {"agent_id": "a",
        "conversation_id": "%s-%d" % (tag, i), "status": "done",
        "transcript": [
            {"role": "user", "message": "My order has not arrived and I was charged twice."},
            {"role": "agent", "message": "I am sorry, let me look at it right away."},
            {"role": "user", "message": "Please fix it today."},
            {"role": "agent", "message": "Done, the refund is on its way."}],
        "analysis": {"call_successful": "success"}}}, separators=(",", ":"))
    sig = hmac.new(secret, (t + "." + body).encode(), hashlib.sha256).hexdigest()
    print("{%s,%s}," % (json.dumps(body), json.dumps("t=%s,v0=%s" % (t, sig))))
print("}")
print("""
local i = 0
request = function()
    i = i + 1
    local r = reqs[(i - 1) % #reqs + 1]
    wrk.headers["ElevenLabs-Signature"] = r[2]
    return wrk.format("POST", nil, nil, r[1])
end""")
PY
}

calls=${BENCH_WEBHOOK_CALLS:-10000}
s_all=() c_all=()
for round in $(seq "$rounds"); do
    BENCH_LUA=$(signed_lua "s$round-$$" "$calls")
    BENCH_PREFIX=$root/single
    s=$(bench_wrk "http://127.0.0.1:$sport/v1/webhooks/$sslug" "$body")
    BENCH_LUA=$(signed_lua "c$round-$$" "$calls")
    BENCH_PREFIX=$root/cluster
    c=$(bench_wrk "http://127.0.0.1:$cport/v1/webhooks/$cslug" "$body")
    s_all+=("$s") c_all+=("$c")
    echo "webhooks round $round: single $s req/s, cluster $c req/s, ratio $(bench_ratio "$c" "$s")"
done
echo "webhooks: single median $(bench_median "${s_all[@]}") req/s, cluster median $(bench_median "${c_all[@]}") req/s ($calls distinct calls a round; past them, duplicates)"
processed=$(curl -s "http://127.0.0.1:$cport/v1/webhooks" -H "$auth" | grep -o '"outcome":"processed"' | wc -l)
echo "webhooks: the cluster endpoint's last 50 deliveries hold $processed processed"
grep -hE "\[(alert|crit|emerg)\]" "$root"/*/logs/error.log || true
