#!/usr/bin/perl
# Surface A: the six operations through nginx, their limits, traces,
# agent-status and /metrics.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use IO::Socket::INET;
use Test::More;
use Digest::SHA qw(sha256_hex);
use Time::HiRes qw(sleep time);

start_redis();

start_nginx(http => <<"E2");
    behave_redis %%REDIS%%;
    behave_models %%TOP%%/conf/models.json;
    behave_trace_sample 0;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /api/v1/ { behave_gateway; }
        location /tight/api/v1/ {
            behave_gateway;
            behave_gateway_limits rpm=3 concurrent=10 tokens_per_day=0;
        }
        location /tokens/api/v1/ {
            behave_gateway;
            behave_gateway_limits rpm=1000 concurrent=10 tokens_per_day=100;
        }
        location = /v1/analyze { behave_analyze; }
        location = /metrics { behave_metrics; }
    }
E2

sub gw {
    my ($method, $op, $body, %o) = @_;
    return req_json($method, ($o{prefix} // '') . "/api/v1/$op",
                    key => $o{key} // KEY_GATEWAY,
                    defined $body ? (body => $body) : (), %o);
}

# behavioral-signals: angry face and raised voice read negative, aroused
for my $round (1, 2) {
    my $angry = gw(POST => 'behavioral-signals', { signals => {
        voice => { pitch_hz => 260, pitch_variability => 0.4, energy_db => 82,
                   speech_rate_wpm => 210 },
        visual => { angry => 0.8, neutral => 0.1, happy => 0.1 } } });
    is($angry->{status}, 200, "round $round: signals 200");
    my $s = $angry->{json}{emotional_state};
    ok($s->{valence} < -0.2, "angry: negative valence ($s->{valence})");
    ok($s->{arousal} > 0.55, "angry: aroused ($s->{arousal})");
    like($angry->{json}{model_id}, qr{^behave-fusion/}, 'model_id');
    is_deeply($angry->{json}{modalities_used}, ['voice', 'visual'], 'modalities_used');
    ok($angry->{headers}{'ratelimit-limit'} == 600, 'RateLimit-Limit: 600 by default');
    like($angry->{headers}{'ratelimit-remaining'}, qr/^\d+$/, 'RateLimit-Remaining');
    like($angry->{headers}{'ratelimit-reset'}, qr/^\d+$/, 'RateLimit-Reset');
    like($angry->{headers}{traceparent}, qr/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/,
         'a traceparent is returned');

    my $calm = gw(POST => 'behavioral-signals', { timestamp => 1700000000123, signals => {
        voice => { pitch_hz => 165, energy_db => 58, speech_rate_wpm => 140 },
        visual => { happy => 0.85, neutral => 0.15 },
        semantic => { text => 'Thanks so much, that really helped!' } } });
    ok($calm->{json}{emotional_state}{valence} > 0.2, 'happy and calm: positive');
    is($calm->{json}{timestamp}, 1700000000123, 'timestamp (ms) echoed');
}

# orchestrate-models: a tighter latency limit picks a faster model
{
    my $loose = gw(POST => 'orchestrate-models', { query => 'Summarise this contract clause for me.' });
    is($loose->{status}, 200, 'orchestrate 200');
    my $tight = gw(POST => 'orchestrate-models', { query => 'Summarise this contract clause for me.',
                                                   latency_limit => 400 });
    ok($tight->{json}{expected_latency} <= 400, 'latency_limit respected');
    ok($tight->{json}{expected_latency} <= $loose->{json}{expected_latency},
       'a tighter limit never picks a slower model');
    is(ref $tight->{json}{fallback_chain}, 'ARRAY', 'fallback_chain');
    my $none = gw(POST => 'orchestrate-models', { query => 'x', latency_limit => 1 });
    is($none->{status}, 422, 'no model meets the constraints: 422');
    is($none->{json}{error}{code}, 'unprocessable', '... unprocessable');
    ok(@{ $none->{json}{error}{closest_candidates} // [] } > 0, '... with the closest candidates');
}

# analyze-behavior: more pauses, more hesitation; history accumulates
{
    my @calm = map { { type => 'keystroke', t => 1000 + 150 * $_ } } 1 .. 20;
    my @hesitant = (@calm, map { ({ type => 'pause', t => 5000 + 4000 * $_, duration => 3500 },
                                 { type => 'backspace', t => 5100 + 4000 * $_ }) } 1 .. 6);
    push @hesitant, { type => 'submit', t => 40000 };
    my $a = gw(POST => 'analyze-behavior', { session_id => "s-calm-$$", interaction_history => \@calm });
    my $b = gw(POST => 'analyze-behavior', { session_id => "s-hes-$$", interaction_history => \@hesitant });
    is($a->{status}, 200, 'analyze-behavior 200');
    ok($b->{json}{hesitation_score} > $a->{json}{hesitation_score},
       "more pauses -> higher hesitation ($b->{json}{hesitation_score} > $a->{json}{hesitation_score})");
    is($a->{json}{history}, 'session', 'history kept in Redis');
    my $again = gw(POST => 'analyze-behavior', { session_id => "s-calm-$$",
        interaction_history => [{ type => 'click', t => 9000, target => 'buy' }] });
    is($again->{json}{events_prior}, 20, 'the session history accumulates');
    is($again->{json}{events_analyzed}, 21, 'prior and new analysed together');
}

# analyze-behavior's session state: out of order, retried, late, and a
# session an older build stored as a list of events
{
    my $sid = "s-order-$$";
    my $call = sub { gw(POST => 'analyze-behavior', { session_id => $sid, interaction_history => [@_] }) };
    my @first = map { { type => 'keystroke', t => 10000 + 100 * $_ } } 1 .. 20;
    $call->(@first);
    my $back = $call->({ type => 'click', t => 10050, target => 'ok' });
    is($back->{json}{events_new}, 1, 'an event older than the newest is placed by its t');
    is($back->{json}{events_late}, 0, '... not late');
    my $retry = $call->(@first);
    is($retry->{json}{events_new}, 0, 'a retried call adds nothing');
    is($retry->{json}{events_analyzed}, 21, '... the session still has 21 events');

    # 600 more events in 20 calls: the oldest settle, the state stays small
    for my $c (0 .. 19) {
        $call->(map { { type => ($_ % 5 ? 'keystroke' : 'scroll'), t => 20000 + 300 * (30 * $c + $_),
                        ($_ % 5 ? () : (delta => ($_ % 2 ? 100 : -100))) } } 0 .. 29);
    }
    my $late = $call->({ type => 'error', t => 10070 });
    is($late->{json}{events_late}, 1, 'an event older than the settled frontier is late');
    is($late->{json}{events_analyzed}, 621, '... and not analysed');
    is($late->{json}{signals}{errors}, 0, '... its error is not counted');
    my $hash = substr(sha256_hex($sid), 0, 16);
    my $len = redis_cli("STRLEN 'behave:beh:{acme:$hash}:s'");
    ok($len > 0 && $len < 16384, "the session's state is $len bytes for 621 events");

    # an older build's list: read once, folded, deleted
    my $old = "s-old-$$";
    my $okey = 'behave:beh:{acme:' . substr(sha256_hex($old), 0, 16) . '}';
    redis_cli("RPUSH '$okey' " . join(' ', map { "'{\"type\":\"keystroke\",\"t\":" . (1000 * $_) . "}'" } 1 .. 30));
    my $up = gw(POST => 'analyze-behavior', { session_id => $old, interaction_history => [{ type => 'submit', t => 40000 }] });
    is($up->{json}{events_prior}, 30, "an older build's stored events are the session's history");
    is($up->{json}{events_analyzed}, 31, '... analysed with the new one');
    is(redis_cli("EXISTS '$okey'"), '0', '... and its list is gone');
}

# adaptive-ui: a rule fires for high friction, not for a calm user
{
    my $hot = gw(POST => 'adaptive-ui', { behavioral_data => { cognitive_friction => 0.9,
        hesitation_score => 0.8, rage_clicks => 3 }, user_profile => { expertise => 'novice' } });
    my $cool = gw(POST => 'adaptive-ui', { behavioral_data => { cognitive_friction => 0.05,
        hesitation_score => 0.05 } });
    is($hot->{status}, 200, 'adaptive-ui 200');
    ok(@{ $hot->{json}{ui_changes} } > @{ $cool->{json}{ui_changes} },
       'friction and hesitation yield more UI changes');
    ok((grep { $_->{pattern} eq 'rage_clicks' } @{ $hot->{json}{interaction_patterns} }),
       'rage clicks detected as a pattern');
}

# agent-status: this node's workers, JSON body or query arguments
{
    my $r = gw(GET => 'agent-status');
    is($r->{status}, 200, 'agent-status 200');
    my @agents = @{ $r->{json}{agents} };
    is(scalar(@agents), 2, 'two workers listed');
    is(scalar(grep { $_->{state} eq 'up' } @agents), 2, 'both up');
    ok(exists $r->{json}{$_}, "agent-status: $_") for qw(active_workflows throughput latency_p95);
    like($agents[0]{id}, qr{^.+/\d+$}, 'agent id is node/pid');
    my $f = gw(GET => 'agent-status?filter=down');
    is(scalar(@{ $f->{json}{agents} }), 0, 'filter=down (query): none');
    $f = gw(GET => 'agent-status', { filter => 'up' });
    is(scalar(@{ $f->{json}{agents} }), 2, 'filter up (JSON body): both');
    sleep 2.6;
    $r = gw(GET => 'agent-status');
    is($r->{json}{fleet}, 'shared', 'the fleet view comes through Redis');
    like(redis_cli('HKEYS behave:fleet'), qr/\S/, 'the node publishes a heartbeat');
}

# errors: auth, scope, routes, methods, bodies
{
    is(gw(POST => 'adaptive-ui', {}, key => 'nope')->{status}, 401, 'bad key: 401');
    is(gw(POST => 'adaptive-ui', {}, key => KEY_ANALYZE)->{status}, 403, 'no gateway scope: 403');
    my $r = gw(POST => 'no-such-thing', {});
    is($r->{status}, 404, 'unknown operation: 404');
    is($r->{json}{error}{code}, 'not_found', '... not_found');
    $r = gw(GET => 'adaptive-ui');
    is($r->{status}, 405, 'GET on a POST operation: 405');
    is($r->{headers}{allow}, 'POST', '... Allow: POST');
    $r = gw(POST => 'behavioral-signals', '{"signals":');
    is($r->{json}{error}{code}, 'invalid_json', 'bad JSON: 400 invalid_json');
    $r = gw(POST => 'behavioral-signals', { signals => { voice => 'loud' } });
    is($r->{status}, 400, 'wrong field type: 400');
}

# limits: the 4th request in a minute at rpm=3 is refused, across workers
{
    my @st;
    for (1 .. 4) {
        my $r = req_json(POST => '/tight/api/v1/adaptive-ui', key => KEY_OTHER,
                         body => { behavioral_data => {} }, headers => { Connection => 'close' });
        push @st, $r;
    }
    is_deeply([map { $_->{status} } @st], [200, 200, 200, 429], 'rpm=3: 200, 200, 200, 429');
    is($st[2]{headers}{'ratelimit-remaining'}, 0, 'remaining counts down to 0');
    is($st[3]{json}{error}{code}, 'rate_limited', '429 rate_limited');
    ok($st[3]{headers}{'retry-after'} >= 1, 'Retry-After given');
    ok(defined $st[3]{headers}{'ratelimit-reset'}, 'RateLimit-Reset on the 429');
}

# tokens per day run out
{
    my $text = 'x' x 600;
    my $r = req_json(POST => '/tokens/api/v1/orchestrate-models', key => KEY_ALL,
                     body => { query => $text });
    is($r->{status}, 429, 'a request over the day\'s tokens: 429');
    like($r->{json}{error}{message}, qr/tokens_per_day/, '... naming tokens_per_day');
    $r = req_json(POST => '/tokens/api/v1/adaptive-ui', key => KEY_ALL,
                  body => { behavioral_data => {} });
    is($r->{status}, 200, 'a small one still fits');
}

# traces: a sampled request is found by its trace id, with its spans
{
    my $tid = sprintf '%032x', int(rand(2**31)) + 1;
    my $tp = "00-$tid-00f067aa0ba902b7-01";
    my $r = req_json(POST => '/v1/analyze', key => KEY_ALL,
                     headers => { traceparent => $tp },
                     body => { message => 'traced', conversation_id => "tr-$$" });
    like($r->{headers}{traceparent}, qr/^00-$tid-/, 'the caller\'s trace id is kept');
    sleep 0.3;
    my $q = req_json(GET => "/api/v1/observability/traces?trace_id=$tid", key => KEY_ALL);
    is($q->{status}, 200, 'traces 200');
    is($q->{json}{traces_matched}, 1, 'the trace is found by its id');
    my %names = map { $_->{name} => 1 } @{ $q->{json}{spans} };
    ok($names{'redis.conversation-turn'}, 'a span per Redis command');
    ok($q->{json}{dependencies}{redis}{calls} >= 1, 'dependencies: redis');
    ok(exists $q->{json}{latency_breakdown}{'redis.conversation-turn'}, 'latency_breakdown');
    my $f = req_json(GET => '/api/v1/observability/traces', key => KEY_ALL,
                     body => { trace_id => $tid, service_filter => 'gateway' });
    is($f->{json}{traces_matched}, 0, 'service_filter excludes other surfaces');
    $f = req_json(GET => '/api/v1/observability/traces', key => KEY_ALL,
                  body => { trace_id => $tid, time_range => { from => 1, to => 2 } });
    is($f->{json}{traces_matched}, 0, 'time_range excludes it');
    my $other = req_json(GET => "/api/v1/observability/traces?trace_id=$tid", key => KEY_OTHER);
    is($other->{json}{traces_matched}, 0, 'another tenant does not see it');
}

# metrics
{
    my $r = req_json(GET => '/metrics');
    is($r->{status}, 200, '/metrics 200');
    like($r->{headers}{'content-type'}, qr{^text/plain}, 'text format');
    like($r->{body}, qr/^behave_requests_total\{surface="gateway",status="2xx"\} [1-9]/m,
         'gateway requests counted');
    like($r->{body}, qr/^behave_requests_total\{surface="gateway",status="4xx"\} [1-9]/m,
         '4xx counted');
    like($r->{body}, qr/^behave_request_duration_seconds_bucket\{surface="analyze",le="\+Inf"\} [1-9]/m,
         'latency histogram');
    like($r->{body}, qr/^behave_workers_up 2$/m, 'two workers up');
}

# Redis down: the node-local limits apply, the operations still answer
{
    stop_redis();
    my @st = map { req_json(POST => '/tight/api/v1/adaptive-ui', key => KEY_GATEWAY,
                            body => { behavioral_data => {} }) } 1 .. 4;
    is_deeply([map { $_->{status} } @st], [200, 200, 200, 429],
              'Redis down: rpm=3 still holds, node-local');
    is($st[0]{headers}{'ratelimit-limit'}, 3, 'RateLimit headers from the local window');
    my $r = gw(GET => 'agent-status');
    is($r->{json}{fleet}, 'local', 'agent-status: this node only');
    ok((grep { $_->{state} eq 'degraded' } @{ $r->{json}{agents} }) >= 1,
       'workers without Redis show as degraded');
    start_redis();
}

# concurrency: one in flight per key, a second is refused at once
{
    my ($mute_port, $pid) = start_mute_server();
    start_nginx(workers => 1, http => <<"E3");
    behave_redis 127.0.0.1:$mute_port;
    behave_redis_timeout 800ms;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /api/v1/ {
            behave_gateway;
            behave_gateway_limits rpm=0 concurrent=1 tokens_per_day=0;
        }
    }
E3
    sleep 0.3;
    my $slow = fork // die;
    if (!$slow) {
        gw(POST => 'analyze-behavior', { session_id => 'slow', interaction_history => [] });
        exit 0;
    }
    sleep 0.3;
    my $r = gw(POST => 'adaptive-ui', { behavioral_data => {} });
    is($r->{status}, 429, 'a second request while one is in flight: 429');
    like($r->{json}{error}{message}, qr/concurrent/, '... concurrent');
    waitpid($slow, 0);
    $r = gw(POST => 'adaptive-ui', { behavioral_data => {} });
    is($r->{status}, 200, 'once it finished, the place is free again');
    stop_mute_server($pid);
}

check_error_log();
done_testing();
