#!/usr/bin/perl
# Background commands (here trace XADDs) pile up while Redis is frozen:
# past the budget they are shed and counted, and the connection that
# carries a conversation turn in flight is kept (the turn is answered,
# not degraded, once Redis wakes up).

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;
use Time::HiRes qw(sleep time);

start_redis();
start_nginx(workers => 1, http => <<"E");
    behave_redis %%REDIS%%;
    behave_redis_timeout 4s;
    behave_trace_sample 1;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location = /metrics { behave_metrics; }
    }
E

sub shed {
    my ($v) = req_json(GET => '/metrics')->{body}
        =~ /^behave_redis_background_shed_total (\d+)/m;
    return $v;
}

my $c = "budget-$$";
my $first = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => { conversation_id => $c, message => 'hello' });
is($first->{status}, 200, 'a first turn');
is(shed(), 0, 'nothing shed while Redis answers');

my ($redis_pid) = `pgrep -f "redis-server.*:@{[redis_port()]}"` =~ /(\d+)/;
ok($redis_pid, 'redis-server found');
kill 'STOP', $redis_pid;

# a turn waits on the frozen Redis (within behave_redis_timeout)
my $turn = fork // die;
if (!$turn) {
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE, timeout => 10,
                     body => { conversation_id => $c, message => 'still there?' });
    my $b = $r->{json}{conversation};
    exit(($r->{status} == 200 && $b && !$b->{degraded} && $b->{prior_turns} == 1)
         ? 0 : 1);
}
sleep 0.2;

# 400 stateless requests, each traced: 400 XADDs (and XTRIMs) unanswered
my $ok = 0;
for (1 .. 400) {
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => { message => 'traced while Redis sleeps' });
    $ok++ if $r->{status} == 200;
}
is($ok, 400, '400 stateless requests answered while Redis is frozen');
my $n = shed();
ok($n > 0, "background commands over the budget shed: $n");

kill 'CONT', $redis_pid;
waitpid($turn, 0);
is($?, 0, 'the turn in flight is answered from Redis, not degraded');
unlike(error_log(), qr/background commands are not answered/,
       'the connection was not dropped for them');
sleep 0.3;
my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                 body => { conversation_id => $c, message => 'and now?' });
is($r->{json}{conversation}{prior_turns}, 2, 'both turns stored');

check_error_log('background budget');
done_testing();
