#!/usr/bin/perl
# Redis Cluster with a replica per master: a master killed, its replica
# promoted by the cluster; nginx finds the new master through the slot map
# (read again every second while a master is down) without the old one
# coming back, and the other masters' conversations never degrade.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Behave::Cluster;
use Test::More;
use Time::HiRes qw(sleep time);

my @ports = start_cluster(3, replicas => 1);
is(scalar(@ports), 6, '3 masters and 3 replicas');

start_nginx(workers => 2, http => <<"E");
    behave_redis cluster 127.0.0.1:$ports[0] 127.0.0.1:$ports[1];
    behave_redis_timeout 500ms;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
    }
E

my $n = 0;
sub conv_id { 'fo' . $$ . '-' . ++$n }
sub conv_key { "behave:{acme:$_[0]}:log" }
sub turn {
    my ($c, $msg) = @_;
    return req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                    body => { conversation_id => $c, message => $msg });
}
sub degraded { my $b = $_[0]{json}{conversation}; $b && $b->{degraded} }

my $last;
ok(wait_until(10, sub { $last = turn(conv_id(), 'warm up'); !degraded($last) }),
   'the cluster answers') or diag(explain($last->{json}), error_log());

my @ids = map { conv_id() } 1 .. 24;
turn($_, 'first turn') for @ids;
my $down = node_of_key(conv_key($ids[0]));
my @on = grep { node_of_key(conv_key($_)) == $down } @ids;
my @off = grep { node_of_key(conv_key($_)) != $down } @ids;
ok(@on && @off, scalar(@on) . " conversations on master $down, " . scalar(@off) . ' elsewhere');
is(scalar(grep { degraded(turn($_, 'second turn')) } @ids), 0, 'none degraded before');

kill_server($down);
my $t0 = time;
my ($deg_off, $bad) = (0, 0);
my $recovered = wait_until(20, sub {
    for my $c (@off) {
        my $r = turn($c, 'meanwhile');
        $bad++ if $r->{status} != 200;
        $deg_off++ if degraded($r);
    }
    !grep { degraded(turn($_, 'back?')) } @on;
});
ok($recovered, sprintf('its slots answer again on the promoted replica %.1fs after the kill', time - $t0));
is($deg_off, 0, 'the other masters\' conversations never degraded');
is($bad, 0, '0 5xx');
my $new = node_of_key(conv_key($on[0]));
isnt($new, $down, "the slot's master is now $new");

check_error_log('cluster failover');
done_testing();
