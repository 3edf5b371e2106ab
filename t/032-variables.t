#!/usr/bin/perl
# The $behave_* variables on every surface, through the JSON access log of
# conf/access-log-json.conf: one format describes /v1/analyze (stateless
# and in a conversation), the gateway, the webhooks and the pre-filter.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256_hex);
use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep);

my $key = master_key_file();

# the example file itself, with the log written into the test's prefix
my $example = do { local $/; open my $f, '<', "$TOP/conf/access-log-json.conf" or die; <$f> };
# the harness says "access_log off" at http level: the log goes in server{}
$example =~ s{^access_log /var/log/nginx/behave-access\.json behave_json;$}{}m
    or die "the example has no access_log line";

start_redis();
start_nginx(workers => 1, http => <<"E");
    $example
    behave_redis %%REDIS%%;
    behave_secret_key $key;
    server {
        listen 127.0.0.1:%%PORT%%;
        access_log %%PREFIX%%/logs/access.json behave_json;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location /v1/webhooks { behave_webhooks; }
        location /api/v1/ { behave_gateway; }
        location = /healthz { behave_health; }
        location /chat/ {
            behave_prefilter on;
            behave_prefilter_tenant prefilter-co;
            return 200 "passed\\n";
        }
        location = /plain { return 200 "plain\\n"; }
    }
E

my @want;

# analyze, stateless
my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                 body => { message => 'This is urgent, my account was hacked and I am furious!' });
is($r->{status}, 200, 'analyze: 200');
push @want, ['analyze', { tenant => 'acme', session_id => $r->{json}{session_id},
    valence => $r->{json}{annotation}{emotional_valence},
    urgency => $r->{json}{annotation}{urgency_level},
    action => $r->{json}{routing}{suggested_action}, conversation_id => '' }];

# analyze in a conversation
$r = req_json(POST => '/v1/analyze', key => KEY_OTHER,
              body => { message => 'Still broken, third time I ask.', conversation_id => "conv-$$" });
is($r->{status}, 200, 'analyze with a conversation: 200');
push @want, ['analyze, conversation', { tenant => 'globex', session_id => $r->{json}{session_id},
    conversation_id => "conv-$$", urgency => $r->{json}{annotation}{urgency_level} }];

# gateway, with a session id
$r = req_json(POST => '/api/v1/analyze-behavior', key => KEY_GATEWAY,
              body => { session_id => "gw-sess-$$", interaction_history => [ { type => 'click', t => 1 } ] });
is($r->{status}, 200, 'gateway: 200');
push @want, ['gateway', { tenant => 'acme', session_id => "gw-sess-$$", valence => '' }];

# webhook management and receiver
my $secret = 'el_secret_' . 'k3y' x 6;
$r = req_json(POST => '/v1/webhooks', key => KEY_PORTAL, body => { secret => $secret });
is($r->{status}, 201, 'webhook endpoint created');
push @want, ['webhooks mgmt', { tenant => 'acme', session_id => '' }];
my $body = encode_json({ type => 'post_call_transcription', event_timestamp => time,
    data => { agent_id => 'a', conversation_id => "call-$$", status => 'done',
              transcript => [ { role => 'user', message => 'I was charged twice!', time_in_call_secs => 1 } ],
              analysis => { call_successful => 'success' } } });
my $t = time;
$r = req_json(POST => "/v1/webhooks/$r->{json}{slug}", body => $body,
              headers => { 'ElevenLabs-Signature' => "t=$t,v0=" . hmac_sha256_hex("$t.$body", $secret) });
is($r->{status}, 200, 'webhook delivery: 200');
push @want, ['webhook receiver', { tenant => 'acme', session_id => $r->{json}{delivery_id},
    conversation_id => $r->{json}{conversation_id} }];

# pre-filter
$r = req_json(POST => '/chat/completions', body => { messages => [
    { role => 'user', content => 'I want to kill myself tonight' } ] });
is($r->{status}, 200, 'pre-filter: 200');
push @want, ['prefilter', { tenant => 'prefilter-co', prefilter => 'ok', urgency => 'critical',
    session_id => '', conv_action => '', peak_urgency => '',
    risk => qr/^(0\.(9\d\d|[6-8]\d\d)|1\.000)$/, route => '' }];

# pre-filter, a chat whose assistant claimed a fix the user denies
$r = req_json(POST => '/chat/completions', body => { messages => [
    { role => 'user', content => 'Please cancel my order 55123.' },
    { role => 'assistant', content => "I've cancelled your order, you're all set!" },
    { role => 'user', content => "it's still there, I was charged again" } ] });
is($r->{status}, 200, 'pre-filter, a chat: 200');
push @want, ['prefilter, a chat', { prefilter => 'ok', conv_action => 'handoff',
    false_resolution => 'true', repetition => 'false', escalating => 'false',
    peak_urgency => 'medium', route => '' }];

# not a behave location: every variable empty, nothing breaks
is(req_json(GET => '/plain')->{status}, 200, 'plain location: 200');
push @want, ['plain', { tenant => '', valence => '', prefilter => 'skipped', trace_id => '',
    risk => '', conv_action => '', route => '' }];

# the lines, in order (one worker)
my @lines;
for (1 .. 50) {
    @lines = split /\n/, do { local $/; open my $f, '<', nginx_prefix() . '/logs/access.json' or die; <$f> // '' };
    last if @lines >= @want;
    sleep 0.1;
}
is(scalar @lines, scalar @want, 'one log line per request');

for my $i (0 .. $#want) {
    my ($name, $exp) = @{ $want[$i] };
    my $j = eval { decode_json($lines[$i] // '') };
    ok($j, "$name: the line is JSON") or do { diag $lines[$i]; next };
    for my $k (sort keys %$exp) {
        if (ref $exp->{$k} eq 'Regexp') {
            like($j->{$k} // '', $exp->{$k}, "$name: $k");
        } else {
            is($j->{$k}, $exp->{$k}, "$name: $k");
        }
    }
    like($j->{trace_id}, qr/^[0-9a-f]{32}$/, "$name: trace_id") if $name ne 'plain';
}

# the annotation dimensions are those of the answer on /v1/analyze
my $first = decode_json($lines[0]);
ok($first->{valence} ne '' && $first->{posture} ne '' && $first->{confidence} =~ /^[01](\.\d{1,3})?$/,
   'analyze: valence, posture and confidence filled');

check_error_log();
done_testing();
