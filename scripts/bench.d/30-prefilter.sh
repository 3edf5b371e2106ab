# Proxied throughput with "behave_prefilter on" vs the same location
# without it, to the same upstream (a "return 200" server of the same
# nginx on another port), with the same OpenAI chat body; interleaved runs;
# target ratio >= 0.90 for a single message.  Then the same with a short
# chat (two earlier turns, whose findings are made at every request) and
# a 50-turn one (every request the same body: its turns remembered after
# the first, the worker's steady state when a chat's requests come back).
set -euo pipefail
. "$TOP/scripts/bench-lib.sh"

upstream_port=$((BENCH_PORT + 1))

bench_nginx_start "
    upstream llm {
        server 127.0.0.1:$upstream_port;
        keepalive 64;
    }

    server {
        listen 127.0.0.1:$upstream_port;
        location / { return 200 '{\"choices\":[]}'; }
    }

    server {
        listen 127.0.0.1:%%PORT%%;

        proxy_http_version 1.1;
        proxy_set_header Connection \"\";
        proxy_set_header X-Behave-Urgency \$behave_urgency;
        proxy_set_header X-Behave-Posture \$behave_posture;
        proxy_set_header X-Behave-Status \$behave_status;

        location /on/ {
            behave_prefilter on;
            behave_route urgency_level=critical @human;
            proxy_pass http://llm;
        }

        location /off/ {
            proxy_pass http://llm;
        }

        location @human { return 200 '{}'; }
    }"

body=$BENCH_PREFIX/prefilter-one.json
printf '%s' '{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are a helpful assistant for an online shop."},{"role":"user","content":"I was charged twice for my order and nobody answers my emails, please fix it today"}]}' > "$body"

bench_interleave "prefilter on/off, one message" ">= 0.90" \
    "http://127.0.0.1:$BENCH_PORT/off/v1/chat/completions" \
    "http://127.0.0.1:$BENCH_PORT/on/v1/chat/completions" "$body"

body=$BENCH_PREFIX/prefilter.json
printf '%s' '{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are a helpful assistant for an online shop."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello! How can I help?"},{"role":"user","content":"I was charged twice for my order and nobody answers my emails, please fix it today"}]}' > "$body"

bench_interleave "prefilter on/off, a chat of 3 turns" "(none)" \
    "http://127.0.0.1:$BENCH_PORT/off/v1/chat/completions" \
    "http://127.0.0.1:$BENCH_PORT/on/v1/chat/completions" "$body"

body=$BENCH_PREFIX/prefilter-50.json
/usr/bin/python3 - "$TOP"/data/corpus/conv-a.jsonl > "$body" <<'PY'
import json, sys
turns = []
for line in open(sys.argv[1]):
    turns += [t["message"] for t in json.loads(line)["turns"]]
    if len(turns) >= 50:
        break
msgs = [{"role": "system", "content": "You are a support agent."}]
msgs += [{"role": "user" if (49 - i) % 2 == 0 else "assistant",
          "content": t} for i, t in enumerate(turns[:50])]
print(json.dumps({"model": "gpt-4o-mini", "messages": msgs}), end="")
PY

bench_interleave "prefilter on/off, a chat of 50 turns, remembered" "(none)" \
    "http://127.0.0.1:$BENCH_PORT/off/v1/chat/completions" \
    "http://127.0.0.1:$BENCH_PORT/on/v1/chat/completions" "$body"
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
