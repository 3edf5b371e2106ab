#!/usr/bin/perl
# Surface C receiver: signatures per provider, events, segments, retries,
# concurrency over 2 workers, Redis failures, large calls, sealed secrets.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256_hex hmac_sha256);
use File::Temp qw(tempdir);
use JSON::PP;
use MIME::Base64 qw(encode_base64 decode_base64);
use Test::More;
use Time::HiRes qw(sleep time);

my $dir = tempdir('behave-wh-XXXXXX', TMPDIR => 1, CLEANUP => 1);
for (['master.key', '6f' x 32], ['other.key', '70' x 32]) {
    open my $fh, '>', "$dir/$_->[0]" or die;
    print $fh "$_->[1]\n";
    close $fh;
}

sub conf {
    my ($key) = @_;
    return <<"E";
    behave_redis %%REDIS%%;
    behave_redis_timeout 300ms;
    behave_secret_key $dir/$key;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/webhooks { behave_webhooks; behave_max_body_size 4m; }
    }
E
}

start_redis();
my $port = start_nginx(http => conf('master.key'), workers => 2);

my $J = JSON::PP->new->canonical;
my %SECRET = (elevenlabs => 'el_secret_' . 'k3y' x 6, retell => 'key_retell_' . 'r7' x 8,
              vapi => 'vapi_secret_' . 'v9' x 8,
              standard => 'whsec_' . encode_base64('s' x 32, ''));
my %EP;
my @bodies;

for my $p (qw(elevenlabs retell vapi standard)) {
    my $r = req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
                     body => { secret => $SECRET{$p}, provider => $p });
    is($r->{status}, 201, "$p endpoint created");
    $EP{$p} = $r->{json};
}

# The platforms' sample bodies from ../shared/data/voice when present;
# in a clone without it, minimal bodies of the same shapes stand in.
my %FALLBACK = (
    'elevenlabs_post_call_transcription.min.json' => '{"type":"post_call_transcription","event_timestamp":1739537297,"data":{"agent_id":"a1","conversation_id":"c1","status":"done","transcript":[{"role":"agent","message":"Hello, how can I help you today?","time_in_call_secs":0},{"role":"user","message":"Hi, I want to check the status of my refund.","time_in_call_secs":3},{"role":"agent","message":null,"time_in_call_secs":6},{"role":"agent","message":"Your refund was issued yesterday.","time_in_call_secs":8},{"role":"user","message":"Great, thank you.","time_in_call_secs":12}],"metadata":{"start_time_unix_secs":1739537297,"call_duration_secs":22},"analysis":{"call_successful":"success","transcript_summary":"Refund status checked."},"conversation_initiation_client_data":{"dynamic_variables":{}}}}',
    'elevenlabs_post_call_audio.min.json' => '{"type":"post_call_audio","event_timestamp":1739537319,"data":{"agent_id":"a1","conversation_id":"c1","full_audio":"SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjYxLjcuMTAw"}}',
    'elevenlabs_call_initiation_failure_sip.min.json' => '{"type":"call_initiation_failure","event_timestamp":1759931652,"data":{"agent_id":"a1","conversation_id":"c1","failure_reason":"busy","metadata":{"type":"sip","body":{"sip_status_code":486}}}}',
    'elevenlabs_call_initiation_failure_twilio.min.json' => '{"type":"call_initiation_failure","event_timestamp":1759931652,"data":{"agent_id":"a1","conversation_id":"c1","failure_reason":"no-answer","metadata":{"type":"twilio","body":{"CallStatus":"no-answer"}}}}',
    'retell_call_analyzed.min.json' => '{"event":"call_analyzed","call":{"call_id":"r1","transcript_object":[{"role":"agent","content":"Hi, how can I help?"},{"role":"user","content":"I need to change my delivery address."},{"role":"agent","content":"Done, it is updated."},{"role":"user","content":"Thanks."}],"call_analysis":{"call_successful":true,"user_sentiment":"Neutral"}}}',
    'vapi_end_of_call_report.min.json' => '{"message":{"type":"end-of-call-report","endedReason":"customer-ended-call","call":{"id":"v1"},"artifact":{"messages":[{"role":"system","message":"You are a helpful agent."},{"role":"bot","message":"Hello, how can I help?"},{"role":"user","message":"My internet is down since this morning."},{"role":"bot","message":"I have reset your line."}]},"analysis":{"summary":"Outage reported","successEvaluation":"true"}}}',
    'standardwebhooks_example.min.json' => '{"type":"contact.created","timestamp":"2022-11-03T20:26:10.344522Z","data":{"id":"1f81eb52-5198-4599-803e-771906343485","type":"contact"}}',
);

note("../shared/data/voice is absent: built-in sample bodies stand in")
    unless -d "$DATA/voice";

sub sample_text {
    my ($name) = @_;
    return -f "$DATA/voice/$name" ? slurp("$DATA/voice/$name") : $FALLBACK{$name};
}

sub sample { $J->decode(sample_text($_[0])) }

my $n = 0;
sub uid { 'c' . $$ . 'x' . ++$n }

# bodies with a fresh call id (and optionally a conversation variable)
sub body_for {
    my ($p, %o) = @_;
    my $id = $o{call_id} // uid();
    my $b;
    if ($p eq 'elevenlabs') {
        $b = sample($o{file} // 'elevenlabs_post_call_transcription.min.json');
        $b->{data}{conversation_id} = $id;
        $b->{data}{conversation_initiation_client_data}{dynamic_variables}{behave_conversation_id} = $o{conv}
            if $o{conv};
        $b->{data}{transcript} = $o{turns} if $o{turns};
        $b->{type} = $o{type} if $o{type};
    } elsif ($p eq 'retell') {
        $b = sample('retell_call_analyzed.min.json');
        $b->{call}{call_id} = $id;
    } elsif ($p eq 'vapi') {
        $b = sample('vapi_end_of_call_report.min.json');
        $b->{message}{call}{id} = $id;
    } else {
        $b = { type => 'call.transcript', data => { call_id => $id,
               transcript => [ { speaker => 'agent', text => 'Hello, how can I help?' },
                               { speaker => 'customer', text => 'My card was charged twice.' } ],
               verdict => 'success' } };
    }
    return ($J->encode($b), $id);
}

# signature headers; $age in seconds (negative: ahead)
sub sign {
    my ($p, $body, %o) = @_;
    my $secret = $o{secret} // $SECRET{$p};
    my $t = int(time) - ($o{age} // 0);
    if ($p eq 'elevenlabs') {
        return { 'ElevenLabs-Signature' => "t=$t,v0=" . hmac_sha256_hex("$t.$body", $secret) };
    } elsif ($p eq 'retell') {
        my $ms = int((time - ($o{age} // 0)) * 1000);
        return { 'X-Retell-Signature' => "v=$ms,d=" . hmac_sha256_hex("$body$ms", $secret) };
    } elsif ($p eq 'vapi') {
        return { 'x-timestamp' => $t, 'x-signature' => hmac_sha256_hex("$t.$body", $secret) };
    }
    my $key = decode_base64(substr($secret, 6));
    my $id = $o{msg_id} // 'msg_' . uid();
    return { 'webhook-id' => $id, 'webhook-timestamp' => $t,
             'webhook-signature' => 'v1,' . encode_base64(hmac_sha256("$id.$t.$body", $key), '') };
}

sub deliver {
    my ($p, $body, $h, %o) = @_;
    my $r = req_json(POST => '/v1/webhooks/' . ($o{slug} // $EP{$p}{slug}),
                     body => $body, headers => $h, timeout => 30);
    push @bodies, $r->{body} // '';
    return $r;
}

# --- signatures, per provider
my %window = (elevenlabs => 1800, vapi => 1800, retell => 300, standard => 300);
# a refusal and the reason logged for it, read from what it added to the log
sub refused {
    my ($p, $b, $h, $reason, $name, %o) = @_;
    my $mark = length error_log();
    my $r = deliver($p, $b, $h, %o);
    is($r->{status}, 401, "$name: 401");
    like(substr(error_log(), $mark), qr/refused: \Q$reason\E/,
         "$name: reason logged: $reason");
    return $r;
}

my $unknown = refused('elevenlabs', '{}', {}, 'unknown slug', 'unknown slug',
                      slug => 'AAAAAAAAAAAAAAAAAAAAAAAA');

for my $p (qw(elevenlabs retell vapi standard)) {
    my ($b) = body_for($p);
    my $r = deliver($p, $b, sign($p, $b));
    is($r->{status}, 200, "$p: valid signature: 200");
    is($r->{json}{status}, 'processed', "$p: processed");

    ($b) = body_for($p);
    $r = refused($p, $b, {}, 'missing_header', "$p: no signature header");
    is($r->{body}, $unknown->{body}, "$p: same body as an unknown slug");

    my $h = sign($p, $b);
    $_ = 'garbage' for values %$h;
    refused($p, $b, $h, 'malformed_header', "$p: malformed header");

    refused($p, $b, sign($p, $b, secret => $p eq 'standard'
                         ? 'whsec_' . encode_base64('w' x 32, '') : 'wrong-secret-0123456789'),
            'bad_signature', "$p: wrong MAC");

    (my $b2 = $b) =~ s/"$/"/;
    my $sig = sign($p, $b);
    substr($b2, 10, 1) = substr($b2, 10, 1) eq 'a' ? 'b' : 'a';
    refused($p, $b2, $sig, 'bad_signature', "$p: body changed by one byte");

    my $w = $window{$p};
    $r = deliver($p, $b, sign($p, $b, age => $w - 1));
    is($r->{status}, 200, "$p: signed " . ($w - 1) . "s ago: accepted");
    ($b) = body_for($p);
    refused($p, $b, sign($p, $b, age => $w + 1), 'too_old',
            "$p: signed " . ($w + 1) . "s ago: rejected");
    refused($p, $b, sign($p, $b, age => -(301 + 5)), 'too_new',
            "$p: signed more than 5 min ahead: rejected");
}

# vapi legacy shared secret
{
    my $r = req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
                     body => { secret => $SECRET{vapi}, provider => 'vapi', auth => 'shared_secret' });
    my ($b) = body_for('vapi');
    is(deliver('vapi', $b, { 'X-Vapi-Secret' => $SECRET{vapi} }, slug => $r->{json}{slug})->{status},
       200, 'vapi X-Vapi-Secret on a shared_secret endpoint: 200');
    is(deliver('vapi', $b, { 'X-Vapi-Secret' => $SECRET{vapi} })->{status},
       401, 'X-Vapi-Secret on an hmac endpoint: 401');
}

# --- the summary
{
    my ($b, $id) = body_for('elevenlabs');
    my $r = deliver('elevenlabs', $b, sign('elevenlabs', $b));
    my $s = $r->{json};
    for my $f (qw(status conversation_id turns_received turns_analysed review_status
                  suggested_action false_resolution sentiment_trend provider_verdict
                  segment delivery_id)) {
        ok(exists $s->{$f}, "summary has $f");
    }
    is($s->{conversation_id}, $id, 'conversation id = platform id without the variable');
    like($s->{sentiment_trend}{direction}, qr/^(improving|stable|deteriorating|volatile)$/, 'direction');
    ok($s->{sentiment_trend}{current_valence} >= -1 && $s->{sentiment_trend}{current_valence} <= 1,
       'valence in range');
    like($s->{provider_verdict}, qr/^(success|failure|unknown)$/, 'provider_verdict');
    like($s->{suggested_action}, qr/^(clarify|simplify|resolve|route|handoff)$/, 'suggested_action');
    is($s->{segment}, 1, 'first call: segment 1');
    ok($s->{turns_analysed} > 0 && $s->{billed_annotations} == $s->{turns_analysed}, 'billed per turn');

    # retry: new timestamp, same body
    my $d = deliver('elevenlabs', $b, sign('elevenlabs', $b, age => 5));
    is($d->{status}, 200, 'retry: 200');
    is($d->{json}{status}, 'duplicate', 'retry: status duplicate');
    is($d->{json}{delivery_id}, $s->{delivery_id}, 'retry: the original summary');
    is($d->{json}{segment}, 1, 'retry: no new segment');
    is($d->{json}{billed_annotations}, 0, 'retry: not billed');
}

# false resolution and the platform's disagreement
{
    my $turns = [ { role => 'user', message => 'My refund for order 5512 has not arrived.' },
                  { role => 'agent', message => "I've processed the refund, it's all sorted now." },
                  { role => 'user', message => 'I just checked and nothing has come in, the charge is still there.' } ];
    my ($b) = body_for('elevenlabs', turns => $turns);
    my $s = deliver('elevenlabs', $b, sign('elevenlabs', $b))->{json};
    ok($s->{false_resolution}, 'false resolution found');
    is($s->{provider_verdict}, 'success', 'platform said success');
    is($s->{review_status}, 'needs_review', 'disagreement: needs_review');
}

# --- event kinds
for my $c (['elevenlabs_post_call_audio.min.json', 'audio_only'],
           ['elevenlabs_call_initiation_failure_sip.min.json', 'failed_call'],
           ['elevenlabs_call_initiation_failure_twilio.min.json', 'failed_call'],
           ['elevenlabs_post_call_transcription.min.json', 'unknown', 'post_call_transcription_otel']) {
    my ($b) = body_for('elevenlabs', file => $c->[0], type => $c->[2]);
    my $r = deliver('elevenlabs', $b, sign('elevenlabs', $b));
    is($r->{status}, 200, "$c->[1]: 200");
    is($r->{json}{status}, 'ignored', "$c->[1]: ignored");
    is($r->{json}{kind}, $c->[1], "$c->[1]: kind");
    is($r->{json}{billed_annotations}, 0, "$c->[1]: not billed");
}
{
    my $b = sample_text('standardwebhooks_example.min.json');
    my $r = deliver('standard', $b, sign('standard', $b));
    is($r->{json}{status}, 'ignored', 'standard unknown type: ignored');
}

# --- segments 1-2-3
my $conv = "conv-$$";
for my $seg (1 .. 3) {
    my ($b) = body_for('elevenlabs', conv => $conv);
    my $s = deliver('elevenlabs', $b, sign('elevenlabs', $b))->{json};
    is($s->{segment}, $seg, "call $seg of $conv: segment $seg");
    is($s->{conversation_id}, $conv, 'conversation id from behave_conversation_id');
}

# --- paused endpoint
{
    my $id = $EP{retell}{id};
    req_json(PATCH => "/v1/webhooks?id=$id", key => KEY_PORTAL, body => { active => JSON::PP::false });
    my ($b, $call) = body_for('retell');
    my $r = deliver('retell', $b, sign('retell', $b));
    is($r->{status}, 200, 'paused: 200');
    is($r->{json}{status}, 'paused', 'paused: acknowledged, not processed');
    is($r->{json}{billed_annotations}, 0, 'paused: not billed');
    is(redis_cli('EXISTS', "'behave:wh:{acme}:call:retell:$call'"), '0', 'paused: no call stored');
    is(deliver('retell', $b, sign('retell', $b, secret => 'nope-nope-nope-nope'))->{status}, 401,
       'paused endpoint still checks signatures');
    req_json(PATCH => "/v1/webhooks?id=$id", key => KEY_PORTAL, body => { active => JSON::PP::true });
    is(deliver('retell', $b, sign('retell', $b))->{json}{status}, 'processed', 'resumed: processed');
}

# --- deliveries in GET
{
    my $r = req_json(GET => '/v1/webhooks', key => KEY_PORTAL);
    my ($e) = grep { $_->{id} eq $EP{elevenlabs}{id} } @{ $r->{json}{webhooks} };
    my $d = $e->{deliveries};
    ok(@$d > 10 && @$d <= 50, 'deliveries listed, at most 50');
    my %out = map { $_->{outcome} => 1 } @$d;
    ok($out{processed} && $out{duplicate} && $out{ignored}, 'outcomes processed, duplicate, ignored');
    for my $f (qw(delivery_id received_at type conversation_id segment outcome http_status review_status)) {
        ok(exists $d->[0]{$f}, "delivery record has $f");
    }
    my ($p) = grep { $_->{outcome} eq 'paused' } @{ (grep { $_->{id} eq $EP{retell}{id} } @{ $r->{json}{webhooks} })[0]{deliveries} };
    ok($p, 'paused delivery recorded');
}

# --- 50 concurrent duplicates over 2 workers
{
    my ($b, $call) = body_for('vapi');
    my $tmp = tempdir('behave-c-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    my @pids;
    for my $i (1 .. 50) {
        my $h = sign('vapi', $b);
        my $pid = fork // die;
        if ($pid == 0) {
            my $r = req_json(POST => "/v1/webhooks/$EP{vapi}{slug}", body => $b, headers => $h, timeout => 30);
            open my $fh, '>', "$tmp/$i";
            print $fh join(' ', $r->{status}, $r->{json}{status} // '-', $r->{json}{billed_annotations} // 0,
                           $r->{json}{delivery_id} // '-');
            close $fh;
            POSIX::_exit(0);
        }
        push @pids, $pid;
    }
    waitpid($_, 0) for @pids;
    my (%st, $billed, %dlv, $ok);
    for my $i (1 .. 50) {
        my ($code, $status, $bill, $dlv) = split ' ', slurp("$tmp/$i");
        $ok++ if $code == 200;
        $st{$status}++;
        $billed += $bill;
        $dlv{$dlv}++;
    }
    is($ok, 50, '50 concurrent: all 200');
    is($st{processed}, 1, 'exactly one processed');
    is($st{duplicate}, 49, '49 duplicates');
    is(scalar keys %dlv, 1, 'all answer the one original summary');
    my $turns = $J->decode(redis_cli('GET', "'behave:wh:{acme}:call:vapi:$call'"))->{turns_analysed};
    is($billed, $turns, "billed once: $turns annotations");
    my @rec = grep { /"call_id":"\Q$call\E"/ && /"outcome":"processed"/ }
              split /\n/, redis_cli('LRANGE', "'behave:wh:{acme}:deliveries:$EP{vapi}{id}'", 0, 49);
    is(scalar @rec, 1, 'one processed delivery in Redis');
}

# --- large call through temp-file buffers: 1,000 turns, about 1 MiB
{
    my @t = map { my $m = $_ % 2 ? 'Let me check that order for you. '
                                 : 'My parcel has still not arrived and I need it now. ';
                  { role => $_ % 2 ? 'agent' : 'user', message => $m x 25 } } 0 .. 999;
    my ($b) = body_for('elevenlabs', turns => \@t);
    ok(length($b) > 1_000_000, 'body over 1 MB (' . length($b) . ')');
    my $r = deliver('elevenlabs', $b, sign('elevenlabs', $b));
    is($r->{status}, 200, '1,000 turns: 200') or diag($r->{body});
    is($r->{json}{turns_analysed}, 1000, '1,000 turns analysed');
    diag("1,000-turn call: core $r->{json}{latency_ms} ms");
}

# --- Redis stopped during a delivery: 503, then the retry takes the right segment
{
    my $c2 = "conv-r-$$";
    my ($b1) = body_for('elevenlabs', conv => $c2);
    is(deliver('elevenlabs', $b1, sign('elevenlabs', $b1))->{json}{segment}, 1, 'before the outage: segment 1');
    redis_cli('SAVE');
    stop_redis();
    my ($b2) = body_for('elevenlabs', conv => $c2);
    my $r = deliver('elevenlabs', $b2, sign('elevenlabs', $b2));
    is($r->{status}, 503, 'Redis down: 503');
    is($r->{headers}{'retry-after'}, '5', 'Retry-After: 5');
    is($r->{json}{error}{code}, 'unavailable', 'error code unavailable');
    start_redis();
    my $deadline = time + 15;
    do { sleep 0.3; $r = deliver('elevenlabs', $b2, sign('elevenlabs', $b2)) }
        while ($r->{status} == 503 && time < $deadline);
    is($r->{status}, 200, 'retry after restart: 200');
    is($r->{json}{status}, 'processed', 'retry processed');
    is($r->{json}{segment}, 2, 'retry: segment 2, nothing half-written');
}

# --- a wrong master key fails closed
{
    start_nginx(http => conf('other.key'), workers => 2);
    my ($b) = body_for('elevenlabs');
    my $r = deliver('elevenlabs', $b, sign('elevenlabs', $b));
    is($r->{status}, 503, 'wrong master key: 503');
    like(error_log(), qr/does not open: wrong behave_secret_key/, 'wrong master key logged');
}

my @s = values %SECRET;
ok(!grep({ my $b = $_; grep { index($b, $_) >= 0 } @s } @bodies), 'no secret in any response');
my $log = error_log();
ok(!grep({ index($log, $_) >= 0 } @s), 'no secret in error.log');
check_error_log();

done_testing();
