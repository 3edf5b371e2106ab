#!/usr/bin/perl
# behave_thread_pool: the heavy steps of a large body run in an nginx
# thread pool.  Every surface answers a large body exactly as inline does
# (same status, same JSON but for times and ids), bad bodies too; the
# trace of a threaded request has its "thread" span; a second request on
# the keep-alive connection is answered, pipelined too; a client that
# leaves during the work ends the request and the worker lives on;
# "nginx -t" refuses an unknown pool or a bad min=.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256);
use IO::Socket::INET;
use JSON::PP;
use MIME::Base64 qw(encode_base64 decode_base64);
use Test::More;
use Time::HiRes qw(sleep time);

# configuration checks first
for my $bad ([ 'behave_thread_pool nosuch;', qr/unknown thread pool "nosuch"/ ],
             [ 'behave_thread_pool behave min=lots;', qr/invalid size/ ],
             [ 'behave_thread_pool behave max=1k;', qr/expected min=SIZE/ ],
             [ 'behave_thread_pool off min=1k;', qr/takes no min=/ ])
{
    my ($ok, $out) = start_nginx(test_only => 1,
        main => 'thread_pool behave threads=2;',
        http => "server { listen 127.0.0.1:%%PORT%%; $bad->[0] }");
    ok(!$ok, "nginx -t refuses '$bad->[0]'");
    like($out, $bad->[1], '... saying why');
}
{
    my ($ok, $out) = start_nginx(test_only => 1,
        main => 'thread_pool behave threads=2;',
        http => 'behave_thread_pool behave min=64k; server { listen 127.0.0.1:%%PORT%%; '
              . 'location /a { behave_thread_pool off; } }');
    ok($ok, 'nginx -t takes a declared pool, min= and off') or diag($out);
}

my $key = master_key_file();
start_redis();
start_nginx(workers => 1, main => 'thread_pool behave threads=2;', http => <<"E");
    behave_redis %%REDIS%%;
    behave_redis_timeout 2s;
    behave_secret_key $key;
    behave_models %%TOP%%/conf/models.json;
    behave_trace_sample 1;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        behave_gateway_limits rpm=100000 concurrent=100 tokens_per_day=0;
        location = /v1/analyze { behave_analyze; }
        location = /t/v1/analyze { behave_analyze; behave_thread_pool behave min=1; }
        location /api/v1/ { behave_gateway; }
        location /t/api/v1/ { behave_gateway; behave_thread_pool behave; }
        location /v1/webhooks { behave_webhooks; behave_max_body_size 4m;
                                behave_thread_pool behave min=1; }
    }
E

my $J = JSON::PP->new->canonical;

# what differs between two answers to one request: times, ids, counters,
# and whether the answering worker's meter has heard from Redis yet (a slow
# build, ASan, may answer "local" from a second worker)
my $VOLATILE = qr/(^|_)(ms|latency|latency_ms|gateway_latency_ms|timestamp|session_id|
                     request_id|trace_id|generated_at|now|processing_time_ms|
                     delivery_id|received_at|meter)$|_at$|_ms$/x;
sub same {
    my ($v) = @_;
    if (ref $v eq 'HASH') {
        return { map { $_ => same($v->{$_}) } grep { !/$VOLATILE/ } keys %$v };
    }
    return [ map { same($_) } @$v ] if ref $v eq 'ARRAY';
    return $v;
}

my @EV = qw(keystroke backspace pause click hover scroll focus blur submit error);
my @events = map { { type => $EV[($_ * 7) % 10], t => 1700000000000 + $_ * 150,
                     target => 'button-' . ($_ % 37), duration => $_ % 900 } } 0 .. 9999;
my $text = join '', map { ('I was charged twice and nobody answers! ',
                           'Thanks, that helps a lot. ')[$_ % 2] } 0 .. 700;
$text = substr($text, 0, 30000);
my %big = (
    'behavioral-signals' => { signals => { semantic => { text => $text },
                               voice => { pitch_hz => 260, energy_db => 82 } } },
    'adaptive-ui' => { current_state => { screen => 'checkout', components => [ 'a', 'b' ] },
                       behavioral_data => { interaction_history => \@events } },
    'orchestrate-models' => { query => $text,
                              context => [ map { { role => 'user', content => $text } } 1 .. 20 ] },
);

for my $op (sort keys %big) {
    my $body = $J->encode($big{$op});
    my $in = req_json(POST => "/api/v1/$op", key => KEY_ALL, body => $body);
    my $th = req_json(POST => "/t/api/v1/$op", key => KEY_ALL, body => $body);
    is($th->{status}, $in->{status}, "$op, " . length($body) . " bytes: the same status ($in->{status})");
    is_deeply(same($th->{json}), same($in->{json}), "$op: the same answer")
        or diag(substr($th->{body}, 0, 300));
    my $bad = substr($body, 0, -1) . ',]';
    my $b1 = req_json(POST => "/api/v1/$op", key => KEY_ALL, body => $bad);
    my $b2 = req_json(POST => "/t/api/v1/$op", key => KEY_ALL, body => $bad);
    is($b2->{status}, 400, "$op: a large bad body: 400");
    is($b2->{body}, $b1->{body}, "$op: the same error");
}

# analyze-behavior with its Redis steps between two thread steps
for my $round (1, 2) {
    my $body = $J->encode({ session_id => "s-$round-$$", user_data => {},
                            interaction_history => \@events });
    my $in = req_json(POST => '/api/v1/analyze-behavior', key => KEY_ALL, body => $body);
    $body = $J->encode({ session_id => "t-$round-$$", user_data => {},
                         interaction_history => \@events });
    my $th = req_json(POST => '/t/api/v1/analyze-behavior', key => KEY_ALL, body => $body);
    is($th->{status}, 200, "analyze-behavior round $round: 200");
    is_deeply(same($th->{json}), same($in->{json}), "analyze-behavior round $round: the same answer")
        or diag(substr($th->{body}, 0, 300));
}

# /v1/analyze
{
    my $body = $J->encode({ message => $text, metadata => { k => [ map { { a => $_ } } 1 .. 5000 ] } });
    my $in = req_json(POST => '/v1/analyze', key => KEY_ALL, body => $body);
    my $th = req_json(POST => '/t/v1/analyze', key => KEY_ALL, body => $body);
    is($th->{status}, 200, 'analyze: 200');
    is_deeply(same($th->{json}), same($in->{json}), 'analyze: the same answer');
    my $bad = req_json(POST => '/t/v1/analyze', key => KEY_ALL, body => '{"message":"x\u12G4"}');
    is($bad->{status}, 400, 'analyze: a bad body: 400');
    is($bad->{json}{error}{code}, 'invalid_json', '... invalid_json');
}

# the trace of a threaded request shows the thread
{
    my $tid = sprintf '%032x', int(rand(2**31)) + 7;
    my $r = req_json(POST => '/t/api/v1/adaptive-ui', key => KEY_ALL,
                     headers => { traceparent => "00-$tid-00f067aa0ba902b7-01" },
                     body => $J->encode($big{'adaptive-ui'}));
    is($r->{status}, 200, 'traced threaded request: 200');
    sleep 0.3;
    my $q = req_json(GET => "/api/v1/observability/traces?trace_id=$tid", key => KEY_ALL);
    my @names = map { $_->{name} } @{ $q->{json}{spans} // [] };
    is(scalar(grep { $_ eq 'thread' } @names), 2,
       'its trace has two "thread" spans (parse, then the operation)') or diag("@names");
}

# keep-alive and pipelined requests after a threaded one
{
    my $body = $J->encode($big{'adaptive-ui'});
    my $small = $J->encode({ signals => { semantic => { text => 'hello' } } });
    for my $pipe (0, 1) {
        my @r = on_one_connection(
            [ POST => '/t/api/v1/adaptive-ui', key => KEY_ALL, body => $body ],
            [ POST => '/t/api/v1/behavioral-signals', key => KEY_ALL, body => $small ],
            [ POST => '/t/v1/analyze', key => KEY_ALL, body => '{"message":"hi"}' ],
            { pipelined => $pipe });
        my $how = $pipe ? 'pipelined' : 'keep-alive';
        is($r[0]{status}, 200, "$how: the threaded request answered");
        is($r[1]{status}, 200, "$how: the next one on the connection answered");
        is($r[2]{status}, 200, "$how: and the third");
    }
}

# webhooks: HMAC and parse in the thread, a bad signature refused alike
my $secret = 'whsec_' . encode_base64('q' x 32, '');
my $ep = req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
                  body => { secret => $secret, provider => 'standard' });
my $slug = $ep->{json}{slug};
my $n = 0;
sub sign {
    my ($body, $wrong) = @_;
    my $t = int(time);
    my $id = 'msg_' . $$ . '_' . ++$n;
    my $mac = hmac_sha256("$id.$t.$body", decode_base64(substr($secret, 6)));
    $mac = 'x' x 32 if $wrong;
    return { 'webhook-id' => $id, 'webhook-timestamp' => $t,
             'webhook-signature' => 'v1,' . encode_base64($mac, '') };
}
my @turns = map { { speaker => $_ % 2 ? 'agent' : 'customer', text => substr($text, 0, 700) } } 0 .. 999;
my $call = $J->encode({ type => 'call.transcript',
                        data => { call_id => "th-$$", transcript => \@turns, verdict => 'success' } });
{
    my @r = on_one_connection(
        [ POST => "/v1/webhooks/$slug", body => $call, headers => sign($call, 1) ],
        [ POST => "/v1/webhooks/$slug", body => $call, headers => sign($call) ],
        [ POST => "/v1/webhooks/$slug", body => $call, headers => sign($call) ]);
    is($r[0]{status}, 401, 'webhook, ' . length($call) . ' bytes, a wrong MAC: 401');
    is($r[1]{status}, 200, 'the genuine call: 200');
    is($r[1]{json}{turns_analysed}, 1000, '1,000 turns analysed');
    is($r[1]{json}{status}, 'processed', 'processed');
    is($r[2]{json}{status}, 'duplicate', 'its retry on the connection: duplicate');
}

# an analyze-behavior call of every event, sent on a connection of its
# own: the socket, for the caller to read from or to close
sub send_behavior {
    my ($session) = @_;
    my $body = $J->encode({ session_id => $session, user_data => {},
                            interaction_history => \@events });
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => nginx_port(),
                                  Proto => 'tcp') or die $!;
    print $s "POST /t/api/v1/analyze-behavior HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        . KEY_ALL . "\r\nContent-Type: application/json\r\nContent-Length: "
        . length($body) . "\r\n\r\n$body";
    return $s;
}

# a client that leaves while its body is in the thread
for my $round (1 .. 3) {
    my $s = send_behavior("gone-$round-$$");
    sleep 0.001 * $round;
    close $s;
}
sleep 0.5;
my $r = req_json(POST => '/t/api/v1/adaptive-ui', key => KEY_ALL, body => $J->encode($big{'adaptive-ui'}));
is($r->{status}, 200, 'after clients left mid-work: the worker answers');
unlike(error_log(), qr/signal \d+|exited on signal|queue overflow/, 'no worker crashed, no queue overflow');
check_error_log();

# nginx asked to quit while three large requests are in (or queued for) the
# two threads: each is answered before the worker leaves
{
    my @s;
    push @s, send_behavior("quit-$_-$$") for 1 .. 3;
    sleep 0.02;
    my $master = Behave::Test::slurp(nginx_prefix() . '/logs/nginx.pid') =~ s/\s+//gr;
    ok($master && kill('QUIT', $master), 'nginx asked to quit');
    for my $i (0 .. 2) {
        my $buf = '';
        my $res = Behave::Test::read_response($s[$i], \$buf);
        is($res->{status}, 200, "request " . ($i + 1) . " in the thread pool is still answered");
    }
    sleep 0.3;
    unlike(error_log(), qr/open socket .* left|aborting/,
           'the worker did not leave with a request open');
}

done_testing();
