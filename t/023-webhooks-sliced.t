#!/usr/bin/perl
# A long call is analysed in slices, one per event-loop iteration: the
# largest call (5,000 turns in about 4 MiB) is answered and stored whole,
# in many steps; a second request on the same keep-alive connection is
# answered; a client that goes away between two steps ends the request
# (nothing stored, nothing billed) and the worker lives on.

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

my $key = master_key_file();

start_redis();
my $port = start_nginx(workers => 1, http => <<"E");
    behave_redis %%REDIS%%;
    # storing a flagged 4 MiB call (its turns too) takes Redis longer
    # than the 50 ms default
    behave_redis_timeout 2s;
    behave_secret_key $key;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/webhooks {
            behave_webhooks;
            behave_max_body_size 4m;
            error_log %%PREFIX%%/logs/steps.log debug;
        }
    }
E

my $J = JSON::PP->new->canonical;
my $secret = 'whsec_' . encode_base64('q' x 32, '');
my $ep = req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
                  body => { secret => $secret, provider => 'standard' });
is($ep->{status}, 201, 'standard endpoint created');
my $slug = $ep->{json}{slug};

# nginx built without --with-debug writes no debug line: the step counts
# below are then skipped, and said so
my $debug = `nginx -V 2>&1` =~ /--with-debug/;

my @SENT = (
    'I was charged twice for the same order and nobody answers my emails. ',
    'Let me check that order for you, one moment please, I am looking. ',
    'This is the third time I am calling about it, it is still not fixed! ',
    'I have processed the refund, it is all sorted now, anything else? ',
);

# the largest call the docs allow: 5,000 turns, about 4 MiB
sub big_call {
    my ($id) = @_;
    my @t = map { { speaker => $_ % 2 ? 'agent' : 'customer',
                    text => $SENT[$_ % 4] x 11 } } 0 .. 4999;
    return $J->encode({ type => 'call.transcript',
                        data => { call_id => $id, transcript => \@t,
                                  verdict => 'success' } });
}

sub small_call {
    my ($id) = @_;
    return $J->encode({ type => 'call.transcript',
                        data => { call_id => $id, verdict => 'success',
                                  transcript => [ { speaker => 'customer',
                                                    text => $SENT[0] } ] } });
}

my $n = 0;
sub sign {
    my ($body) = @_;
    my $t = int(time);
    my $id = 'msg_' . $$ . '_' . ++$n;
    return { 'webhook-id' => $id, 'webhook-timestamp' => $t,
             'webhook-signature' => 'v1,' . encode_base64(
                 hmac_sha256("$id.$t.$body", decode_base64(substr($secret, 6))), '') };
}

# a signed call sent on a connection of its own, not waited for
sub send_call {
    my ($body) = @_;
    my $h = sign($body);
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port,
                                  Proto => 'tcp') or die $!;
    print $s "POST /v1/webhooks/$slug HTTP/1.1\r\nHost: x\r\n"
        . join('', map { "$_: $h->{$_}\r\n" } sort keys %$h)
        . "Content-Type: application/json\r\nContent-Length: "
        . length($body) . "\r\n\r\n$body";
    return $s;
}

sub steps_log { my $f = nginx_prefix() . '/logs/steps.log';
                -f $f ? Behave::Test::slurp($f) : '' }

my $SUMMARY_FIELDS = [qw(turns_received turns_analysed customer_turns agent_turns
    review_status suggested_action suggested_action_reason false_resolution
    false_resolution_reason repeat_contact_risk escalating peak_severity
    sentiment_trend provider_verdict service_verdict verdict_disagreement)];

# --- the largest call, then a small one on the same keep-alive connection
my ($big, $small) = (big_call("big-$$"), small_call("small-$$"));
ok(length($big) > 3_500_000 && length($big) <= 4 * 1024 * 1024,
   'the call is about 4 MiB (' . length($big) . ' bytes)');

my @r = on_one_connection(
    [ POST => "/v1/webhooks/$slug", body => $big, headers => sign($big) ],
    [ POST => "/v1/webhooks/$slug", body => $small, headers => sign($small) ],
    );
is($r[0]{status}, 200, '5,000 turns: 200') or diag($r[0]{body});
is($r[0]{json}{turns_analysed}, 5000, '5,000 turns analysed');
is($r[0]{json}{customer_turns}, 2500, '2,500 customer turns');
is($r[0]{json}{status}, 'processed', 'processed');
is($r[1]{status}, 200, 'the next request on the connection: 200');
is($r[1]{json}{turns_analysed}, 1, 'and analysed');
diag("5,000-turn call: core $r[0]{json}{latency_ms} ms");

# the same, pipelined: the second request arrives while the first is
# analysed, and waits its turn
my ($big2, $small2) = (big_call("big2-$$"), small_call("small2-$$"));
my @p = on_one_connection(
    [ POST => "/v1/webhooks/$slug", body => $big2, headers => sign($big2) ],
    [ POST => "/v1/webhooks/$slug", body => $small2, headers => sign($small2) ],
    { pipelined => 1 });
is($p[0]{json}{turns_analysed}, 5000, 'pipelined: the long call answered');
is($p[1]{json}{turns_analysed}, 1, 'pipelined: then the next one');

# what is stored is the answer's summary
my $stored = decode_json_ok(redis_cli('GET', "'behave:wh:{acme}:call:standard:big-$$'"));
ok($stored, 'the summary is stored');
is_deeply({ map { $_ => $stored->{$_} } @$SUMMARY_FIELDS },
          { map { $_ => $r[0]{json}{$_} } @$SUMMARY_FIELDS },
          'stored summary = the answer');

# the same turns under another call id: the same findings (the steps do
# not depend on what else the worker does)
my $again = big_call("again-$$");
my $r2 = req_json(POST => "/v1/webhooks/$slug", body => $again,
                  headers => sign($again), timeout => 60);
is_deeply({ map { $_ => $r2->{json}{$_} } @$SUMMARY_FIELDS },
          { map { $_ => $r[0]{json}{$_} } @$SUMMARY_FIELDS },
          'the same call again: the same findings');

SKIP: {
    skip 'nginx without --with-debug: no step lines to count', 4 unless $debug;
    my ($steps) = steps_log() =~ /webhook call of 5000 turns analysed in (\d+) steps/;
    ok($steps && $steps >= 100, "5,000 turns in " . ($steps // 0)
       . " event-loop steps (4 KiB of text each)");
    my ($one) = steps_log() =~ /webhook call of 1 turns analysed in (\d+) steps/;
    ok($one && $one <= 2, "a one-turn call: one step (and one for its "
       . "stored turns when flagged): " . ($one // 0));
    isnt($r[0]{json}{review_status}, 'ok', 'the long call is flagged for review');
    like(steps_log(), qr/webhook slice: 5000 of 5000 turns logged/,
         'its turns, stored for the review, logged in steps too');
}

# --- another request on the same (only) worker is answered between two
# steps, long before the long call is done
SKIP: {
    skip 'nginx without --with-debug: no step lines to wait for', 3 unless $debug;
    my $mark = length steps_log();
    my $body = big_call("long-$$");
    my $s = send_call($body);
    my $deadline = time + 20;
    sleep 0.005 while substr(steps_log(), $mark) !~ /webhook slice: \d+ of 5000 turns\n/
                      && time < $deadline;
    my $t0 = time;
    my $one = small_call("between-$$");
    my $r = req_json(POST => "/v1/webhooks/$slug", body => $one, headers => sign($one));
    my $took = time - $t0;
    my $log = substr(steps_log(), $mark);
    is($r->{status}, 200, 'a short call during the long one: 200');
    unlike($log, qr/webhook call of 5000 turns analysed/,
           sprintf('answered in %.0f ms, while the long call was still being '
                   . 'analysed', $took * 1000));
    my $buf = '';
    my $res = Behave::Test::read_response($s, \$buf);
    is($res->{status}, 200, 'then the long call is answered');
    close $s;
}

# --- the client goes away between two steps
{
    my $mark = length steps_log();
    my $elog = length error_log();
    my $body = big_call("gone-$$");
    my $s = send_call($body);

    # wait for the first steps, then hang up
    my $deadline = time + 20;
    sleep 0.005 while substr(steps_log(), $mark) !~ /webhook slice: \d+ of 5000/
                      && time < $deadline && $debug;
    sleep 0.05 unless $debug;
    close $s;
    sleep 1;

    my $log = substr(steps_log(), $mark);
    SKIP: {
        skip 'nginx without --with-debug: no step lines', 2 unless $debug;
        like($log, qr/webhook slice: \d+ of 5000.*client prematurely closed/s,
             'the client left while the turns were analysed');
        unlike($log, qr/webhook call of 5000 turns analysed/,
               'the analysis stopped there');
    }
    # the location's own log (steps.log) takes the request's lines
    like($log . substr(error_log(), $elog),
         qr/client prematurely closed connection/, 'the abort is logged');
    is(redis_cli('EXISTS', "'behave:wh:{acme}:call:standard:gone-$$'"), '0',
       'nothing stored for the abandoned call');

    my $r = req_json(POST => "/v1/webhooks/$slug", body => $small = small_call("after-$$"),
                     headers => sign($small));
    is($r->{status}, 200, 'the worker answers the next call');
}

# --- many aborts in a row, at different points of the analysis
for my $i (1 .. 5) {
    my $body = big_call("gone-$i-$$");
    my $s = send_call($body);
    sleep 0.02 * $i;
    close $s;
}
sleep 1;
my $r = req_json(POST => "/v1/webhooks/$slug", body => $small = small_call("last-$$"),
                 headers => sign($small));
is($r->{status}, 200, 'after five aborted calls the worker answers');
unlike(error_log() . steps_log(), qr/signal 11|exited on signal/, 'no worker crashed');
unlike(steps_log(), qr/\[(alert|crit|emerg)\]/, 'steps.log: no [alert], [crit] or [emerg]');
check_error_log();

# --- nginx asked to quit while a call is in its slices: the worker finishes
# the call (a timer holds it, as one holds a Redis command) before it leaves
{
    my $s = send_call(big_call("quit-$$"));
    sleep 0.1;
    my $master = Behave::Test::slurp(nginx_prefix() . '/logs/nginx.pid') =~ s/\s+//gr;
    ok($master && kill('QUIT', $master), 'nginx asked to quit mid-call');
    my $buf = '';
    my $res = Behave::Test::read_response($s, \$buf);
    is($res->{status}, 200, 'the call in its slices is still answered');
    is($res->{json}{turns_analysed}, 5000, '... all 5,000 turns');
    unlike(error_log(), qr/open socket .* left|aborting/,
           'the worker did not leave with the request open');
}

stop_nginx();
stop_redis();
done_testing();
