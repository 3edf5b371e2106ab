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

best_a=0; best_r=0
ratios=()
for round in 1 2 3 4 5; do
    r=$(bench_wrk "http://127.0.0.1:$BENCH_PORT/ok" "$body" "$auth")
    a=$(bench_wrk "http://127.0.0.1:$BENCH_PORT/v1/analyze" "$body" "$auth")
    echo "round $round: return 200 $r req/s, /v1/analyze $a req/s, ratio $(bench_ratio "$a" "$r")"
    ratios+=("$(bench_ratio "$a" "$r")")
    best_a=$(awk -v x="$a" -v y="$best_a" 'BEGIN { print (x > y) ? x : y }')
    best_r=$(awk -v x="$r" -v y="$best_r" 'BEGIN { print (x > y) ? x : y }')
done
echo "analyze/return200 (best of 5 each): $(bench_ratio "$best_a" "$best_r") (target >= 0.80)"
echo "analyze/return200 (median of 5 interleaved rounds): $(bench_median "${ratios[@]}")"
grep -E "\[(alert|crit|emerg)\]" "$BENCH_PREFIX/logs/error.log" || true
bench_nginx_stop
