#!/usr/bin/perl
# docs/openapi.yaml: linted with Redocly's recommended rules (npm
# @redocly/cli, pinned in tools/openapi/package-lock.json), and the
# running module's real answers on every surface checked against its
# schemas with ajv (tools/openapi/validate.js).

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256_hex);
use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;

my $tools = "$TOP/tools/openapi";
my $doc = "$TOP/docs/openapi.yaml";

# the pinned tools, installed from the lock file on first use
if (!-d "$tools/node_modules/ajv" || !-d "$tools/node_modules/\@redocly/cli") {
    my $out = `cd $tools && npm ci --no-audit --no-fund 2>&1`;
    is($?, 0, 'npm ci installs the pinned tools') or diag $out;
}

my $lint = `cd $tools && npx --no-install redocly lint --config redocly.yaml $doc 2>&1`;
is($?, 0, 'redocly lint: no error') or diag $lint;
unlike($lint, qr/warning/i, '... and no warning') or diag $lint;
like($lint, qr/valid/i, '... the document is valid');

my $dir = tempdir('behave-oa-XXXXXX', TMPDIR => 1, CLEANUP => 1);
start_redis();
start_nginx(workers => 1,
            http => surfaces_http(trace_sample => 1,
                                  analyze => 'behave_max_message_size 1k; ',
                                  server => <<"E"));
        location = /healthz { behave_health; }
        location = /livez { behave_health live; }
        location = /metrics { behave_metrics; }
E

my @cases;

sub case {
    my ($name, $method, $path, $doc_path, %o) = @_;
    my $r = req_json($method, $path, %o);
    push @cases, { name => $name, method => $method, path => $doc_path,
                   status => $r->{status}, body => $r->{body} // '',
                   content_type => $r->{headers}{'content-type'} // '' };
    return $r;
}

# surface B
case('analyze 200', POST => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE,
     body => { message => 'I was charged twice and nobody answers, fix it today!',
               metadata => { ticket => 'T-1', n => 1.5 } });
case('analyze 200, first turn', POST => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE,
     body => { message => 'The refund has not arrived.', conversation_id => "oa-$$" });
case('analyze agent turn', POST => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE,
     body => { message => 'Your refund was processed, it is fixed.', conversation_id => "oa-$$",
               speaker => 'agent' });
my $conv = case('analyze 200, conversation block', POST => '/v1/analyze', '/v1/analyze',
     key => KEY_ANALYZE, body => { message => 'Still nothing arrived, third time I ask!',
                                   conversation_id => "oa-$$" });
ok($conv->{json}{conversation}, 'the conversation block is there to check');
case('analyze 400 invalid_json', POST => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE, body => '{');
case('analyze 400 missing_field', POST => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE, body => {});
case('analyze 401', POST => '/v1/analyze', '/v1/analyze', body => { message => 'x' });
case('analyze 403', POST => '/v1/analyze', '/v1/analyze', key => KEY_GATEWAY, body => { message => 'x' });
case('analyze 405', GET => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE);
case('analyze 413', POST => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE,
     body => { message => 'x' x 2000 });
case('analyze 415', POST => '/v1/analyze', '/v1/analyze', key => KEY_ANALYZE, body => 'message=x',
     headers => { 'Content-Type' => 'text/plain' });

# surface C
my $secret = 'el_secret_' . 'k3y' x 6;
my $ep = case('webhooks create 201', POST => '/v1/webhooks', '/v1/webhooks', key => KEY_PORTAL,
              body => { secret => $secret, description => 'oa' });
case('webhooks create vapi 201', POST => '/v1/webhooks', '/v1/webhooks', key => KEY_PORTAL,
     body => { secret => $secret, provider => 'vapi',
               signature => { header => 'x-vapi-signature', encoding => 'base64' } });
case('webhooks create 400', POST => '/v1/webhooks', '/v1/webhooks', key => KEY_PORTAL,
     body => { secret => 'short' });
my $body = encode_json({ type => 'post_call_transcription', event_timestamp => time,
    data => { agent_id => 'a', conversation_id => "oa-call-$$", status => 'done',
              transcript => [ { role => 'agent', message => 'Your refund is processed.', time_in_call_secs => 0 },
                              { role => 'user', message => 'It still has not arrived!', time_in_call_secs => 3 } ],
              analysis => { call_successful => 'success' } } });
my $t = time;
my %sig = ('ElevenLabs-Signature' => "t=$t,v0=" . hmac_sha256_hex("$t.$body", $secret));
case('receiver 200 processed', POST => "/v1/webhooks/$ep->{json}{slug}", '/v1/webhooks/{slug}',
     body => $body, headers => \%sig);
case('receiver 200 duplicate', POST => "/v1/webhooks/$ep->{json}{slug}", '/v1/webhooks/{slug}',
     body => $body, headers => \%sig);
my $audio = encode_json({ type => 'post_call_audio', event_timestamp => time,
    data => { agent_id => 'a', conversation_id => 'c', full_audio => 'AAAA' } });
case('receiver 200 ignored', POST => "/v1/webhooks/$ep->{json}{slug}", '/v1/webhooks/{slug}',
     body => $audio, headers => { 'ElevenLabs-Signature' => "t=$t,v0=" . hmac_sha256_hex("$t.$audio", $secret) });
case('receiver 401', POST => "/v1/webhooks/$ep->{json}{slug}", '/v1/webhooks/{slug}', body => $body);
case('webhooks list 200', GET => '/v1/webhooks', '/v1/webhooks', key => KEY_PORTAL);
case('webhooks patch 200', PATCH => "/v1/webhooks?id=$ep->{json}{id}", '/v1/webhooks', key => KEY_PORTAL,
     body => { active => JSON::PP::false });
case('receiver 200 paused', POST => "/v1/webhooks/$ep->{json}{slug}", '/v1/webhooks/{slug}',
     body => $body, headers => \%sig);
case('webhooks patch 404', PATCH => '/v1/webhooks?id=wh_0000', '/v1/webhooks', key => KEY_PORTAL,
     body => { active => JSON::PP::true });

# surface A
case('behavioral-signals 200', POST => '/api/v1/behavioral-signals', '/api/v1/behavioral-signals',
     key => KEY_GATEWAY, body => { signals => { voice => { pitch_hz => 220, energy_db => 75 },
                                               semantic => { text => 'I am furious, cancel it now' } } });
case('behavioral-signals 400', POST => '/api/v1/behavioral-signals', '/api/v1/behavioral-signals',
     key => KEY_GATEWAY, body => { signals => {} });
case('orchestrate-models 200', POST => '/api/v1/orchestrate-models', '/api/v1/orchestrate-models',
     key => KEY_GATEWAY, body => { query => 'Summarize this contract', latency_limit => 5000 });
case('orchestrate-models 422', POST => '/api/v1/orchestrate-models', '/api/v1/orchestrate-models',
     key => KEY_GATEWAY, body => { query => 'x', latency_limit => 1 });
case('analyze-behavior 200', POST => '/api/v1/analyze-behavior', '/api/v1/analyze-behavior',
     key => KEY_GATEWAY, body => { session_id => "oa-$$", interaction_history => [
         { type => 'click', t => 1, target => 'buy' }, { type => 'pause', t => 100, duration => 4000 } ] });
case('adaptive-ui 200', POST => '/api/v1/adaptive-ui', '/api/v1/adaptive-ui', key => KEY_GATEWAY,
     body => { behavioral_data => { cognitive_friction => 0.9, rage_clicks => 3 },
               current_state => { screen => 'checkout', components => ['cart', 'promo'] },
               user_profile => { expertise => 'novice' } });
case('agent-status 200', GET => '/api/v1/agent-status', '/api/v1/agent-status', key => KEY_GATEWAY);
case('traces 200', GET => '/api/v1/observability/traces', '/api/v1/observability/traces', key => KEY_GATEWAY);

# operations
case('health 200', GET => '/healthz', '/healthz');
case('liveness 200', GET => '/livez', '/healthz');
case('health 405', POST => '/healthz', '/healthz', body => '{}');
case('metrics 200', GET => '/metrics', '/metrics');

# the validator itself must be able to fail: a made-up field, a bad code
push @cases, { name => 'SELFCHECK extra field', method => 'POST', path => '/v1/analyze',
               status => 200, content_type => 'application/json',
               body => do { my $j = decode_json($cases[0]{body}); $j->{surprise} = 1; encode_json($j) } };
push @cases, { name => 'SELFCHECK unknown code', method => 'POST', path => '/v1/analyze',
               status => 400, content_type => 'application/json',
               body => '{"error":{"code":"oops","message":"m"}}' };

open my $cf, '>', "$dir/cases.json" or die;
print $cf JSON::PP->new->canonical->encode(\@cases);
close $cf;

my @out = `cd $tools && node validate.js $doc $dir/cases.json 2>&1`;
my %seen;
for (@out) {
    chomp;
    my ($res, $name, $why) = /^(ok|not ok) ([^:]+)(?:: (.*))?$/ or do { diag $_; next };
    $seen{$name} = 1;
    if ($name =~ /^SELFCHECK/) {
        is($res, 'not ok', "the validator refuses: $name") or diag $_;
    } else {
        is($res, 'ok', "schema holds: $name") or diag $why;
    }
}
is(scalar keys %seen, scalar @cases, 'every answer was checked');

check_error_log();
done_testing();
