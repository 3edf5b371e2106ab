#!/usr/bin/perl
# POST /v1/analyze, stateless: shapes, enums, alias, metadata, errors.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

start_nginx(http => <<'E2');
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location = /ok { return 200; }
    }
E2

my %ENUM = (
    emotional_valence => [qw(positive neutral negative mixed)],
    cognitive_load    => [qw(low moderate high overload)],
    urgency_level     => [qw(passive low medium high critical)],
    engagement_state  => [qw(disengaged browsing focused immersed)],
    social_register   => [qw(formal semi-formal informal crisis)],
);
my %ROUTING = (
    response_posture => [qw(standard supportive de-escalate expedite crisis)],
    recommended_tone => [qw(warm neutral formal casual empathetic plain calm)],
    suggested_action => [qw(answer clarify simplify prioritize
                            route_specialist escalate_human)],
);

sub in { my ($v, $set) = @_; defined $v && grep { $_ eq $v } @$set }

# every field and enum, twice (state must not leak between requests)
my %seen_session;
for my $round (1, 2) {
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => { message => 'My card was charged twice, please fix it today!' });
    is($r->{status}, 200, "round $round: 200");
    my $j = $r->{json};
    is($r->{headers}{'content-type'}, 'application/json', 'json content type');
    is($j->{status}, 'ok', 'status ok');
    like($j->{session_id}, qr/^ses_[0-9a-f]{32}$/, 'session_id shape');
    ok(!$seen_session{$j->{session_id}}++, 'session_id is unique');
    like($j->{framework}, qr{^behave-annotator/\d+\.\d+\.\d+$}, 'framework');
    ok($j->{latency_ms} >= 0 && $j->{latency_ms} < 50, 'latency_ms is measured');
    for my $f (sort keys %ENUM) {
        ok(in($j->{annotation}{$f}, $ENUM{$f}), "annotation.$f in its set")
            or diag explain $j->{annotation};
    }
    is(ref $j->{annotation}{cultural_context}, 'ARRAY', 'cultural_context array');
    my $s = $j->{scores};
    ok($s->{valence} >= -1 && $s->{valence} <= 1, 'scores.valence in [-1,1]');
    for my $f (qw(urgency cognitive_load engagement formality)) {
        ok($s->{$f} >= 0 && $s->{$f} <= 1, "scores.$f in [0,1]");
    }
    ok($j->{signal_confidence} >= 0 && $j->{signal_confidence} <= 1,
       'signal_confidence in [0,1]');
    like($j->{signals_fired}, qr/^\d+$/, 'signals_fired integer');
    for my $f (sort keys %ROUTING) {
        ok(in($j->{routing}{$f}, $ROUTING{$f}), "routing.$f in its set")
            or diag explain $j->{routing};
    }
    is($j->{_meta}{tenant_remaining}, -1, 'unlimited key: tenant_remaining -1');
    ok(JSON::PP::is_bool($j->{_meta}{overage}) && !$j->{_meta}{overage},
       'overage false');
    ok($j->{_meta}{gateway_latency_ms} >= $j->{latency_ms}, 'gateway latency');
    ok(!exists $j->{conversation}, 'no conversation block without history');
}

# the "text" alias and metadata echo
{
    my $meta = { ticket => 'T-1', nested => { a => [1, 2, { b => undef }] } };
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => { text => 'hello there', metadata => $meta });
    is($r->{status}, 200, 'alias text: 200');
    is_deeply($r->{json}{metadata}, $meta, 'metadata echoed unchanged');
}

# charset parameter on the content type is fine
{
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     headers => { 'Content-Type' => 'Application/JSON; charset=utf-8' },
                     body => '{"message":"ok"}');
    is($r->{status}, 200, 'content type with parameters');
}

# quota: 3 a day, then overage but still 200
{
    my @rem;
    for (1 .. 4) {
        my $r = req_json(POST => '/v1/analyze', key => KEY_QUOTA,
                         body => { message => 'hi' });
        is($r->{status}, 200, "quota request $_: 200");
        push @rem, [$r->{json}{_meta}{tenant_remaining},
                    $r->{json}{_meta}{overage} ? 1 : 0];
    }
    is_deeply(\@rem, [[2, 0], [1, 0], [0, 0], [0, 1]],
              'tenant_remaining counts down across workers, then overage');
}

sub err_is {
    my ($r, $status, $code, $name) = @_;
    is($r->{status}, $status, "$name: $status");
    is($r->{json}{error}{code}, $code, "$name: code $code")
        or diag $r->{body};
    ok(length($r->{json}{error}{message} // '') > 0, "$name: message");
}

err_is(req_json(POST => '/v1/analyze', body => { message => 'x' }),
       401, 'unauthorized', 'no key');
{
    my $r = req_json(POST => '/v1/analyze', key => 'wrong', body => { message => 'x' });
    err_is($r, 401, 'unauthorized', 'bad key');
    like($r->{headers}{'www-authenticate'}, qr/^Bearer/, 'WWW-Authenticate: Bearer');
    unlike($r->{body}, qr/wrong/, 'the key is not echoed');
}
err_is(req_json(POST => '/v1/analyze', body => { message => 'x' },
                headers => { Authorization => 'Basic abc' }),
       401, 'unauthorized', 'not a bearer');
err_is(req_json(POST => '/v1/analyze', key => KEY_GATEWAY, body => { message => 'x' }),
       403, 'forbidden', 'key without analyze scope');
{
    my $r = req_json(GET => '/v1/analyze', key => KEY_ANALYZE);
    err_is($r, 405, 'method_not_allowed', 'GET');
    is($r->{headers}{allow}, 'POST', 'Allow: POST');
}
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => 'message=x',
                headers => { 'Content-Type' => 'application/x-www-form-urlencoded' }),
       415, 'unsupported_media_type', 'form body');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => 'x',
                headers => { 'Content-Type' => 'application/jsonx' }),
       415, 'unsupported_media_type', 'application/jsonx');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => '{"message": "x"'),
       400, 'invalid_json', 'truncated JSON');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => '["x"]'),
       400, 'invalid_json', 'array body');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => ''),
       400, 'invalid_json', 'empty body');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => "{\"message\":\"\xff\xfe\"}"),
       400, 'invalid_utf8', 'invalid UTF-8');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => {}),
       400, 'missing_field', 'missing message');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => { message => '  ' }),
       400, 'empty_message', 'blank message');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => { message => 42 }),
       400, 'invalid_field', 'numeric message');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                body => { message => 'x', speaker => 'bot' }),
       400, 'invalid_field', 'bad speaker');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                body => { message => 'x', metadata => [1] }),
       400, 'invalid_field', 'metadata not an object');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                body => { message => 'x', conversation_id => 'a b{c}' }),
       400, 'invalid_field', 'bad conversation_id');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                body => { message => 'a' x (32 * 1024 + 1) }),
       413, 'payload_too_large', 'message over 32k');
err_is(req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                body => '{"message":"x","pad":"' . ('a' x (1024 * 1024)) . '"}'),
       413, 'payload_too_large', 'body over 1m');

# a 200 KiB body goes through a temp file and is read whole
{
    my $pad = 'z' x (200 * 1024);
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => { message => 'I am furious, this is broken', pad => $pad,
                               metadata => { tail => 'end' } });
    is($r->{status}, 200, '200 KiB body: 200');
    is($r->{json}{metadata}{tail}, 'end', '200 KiB body: the end of the body was read');
}

# chunked request body
{
    my $body = '{"message":"chunked hello","metadata":{"k":"v"}}';
    my $chunks = join '', map { sprintf("%x\r\n%s\r\n", length $_, $_) }
                 (substr($body, 0, 10), substr($body, 10));
    my $resp = raw_request("POST /v1/analyze HTTP/1.1\r\nHost: x\r\n"
        . "Authorization: Bearer " . KEY_ANALYZE . "\r\n"
        . "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        . "Connection: close\r\n\r\n${chunks}0\r\n\r\n");
    like($resp, qr{^HTTP/1\.1 200}, 'chunked body: 200');
    like($resp, qr/"metadata":\{"k":"v"\}/, 'chunked body: read whole');
}

# concurrent requests from several processes
{
    my $n = 8;
    my @pids = start_clients($n, sub {
        my ($i) = @_;
        my $bad = 0;
        for (1 .. 25) {
            my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                             body => { message => "parallel $i $_" });
            $bad++ unless $r->{status} == 200 && $r->{json}{status} eq 'ok';
        }
        return !$bad;
    });
    is(wait_clients(@pids), 0,
       "$n clients x 25 concurrent requests all answered 200");
}

check_error_log();
stop_nginx();
done_testing();
