#!/usr/bin/perl
# Sentinel: a master and a replica (appendonly), a sentinel, and nginx
# configured with the master's name.  The master is killed under a bounded
# load of conversation turns: answers are degraded for a few seconds, then
# normal again on the promoted replica, with no reload; lost turns counted.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Behave::Cluster;
use Test::More;
use Time::HiRes qw(sleep time);

my ($master, $replica) = start_replicated();
my ($sentinel) = start_sentinels(1, 'behave', $master);
my $dead = free_port();
pass("master $master, replica $replica, sentinel $sentinel");

# the first sentinel listed is not there: the next one is asked
start_nginx(http => <<"E", workers => 2);
    behave_redis sentinel behave 127.0.0.1:$dead 127.0.0.1:$sentinel;
    behave_redis_timeout 300ms;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
    }
E

sub turn {
    my ($c, $msg) = @_;
    return req_json(POST => '/v1/analyze', key => KEY_ANALYZE, timeout => 5,
                    body => { conversation_id => $c, message => $msg });
}

ok(wait_until(10, sub { !turn("warm-$$", 'hello')->{json}{conversation}{degraded} }),
   'the master is found through the sentinels');
like(error_log(), qr/redis master "behave" is 127\.0\.0\.1:$master/,
     'the log names the master found');

# a manual failover: the old master is alive and demoted; nginx hears of
# it on +switch-master and follows
{
    server_cli($sentinel, 'SENTINEL FAILOVER behave');
    my $t0 = time;
    ok(wait_until(10, sub {
        server_cli($sentinel, 'SENTINEL get-master-addr-by-name behave') =~ /$replica/
    }), 'manual failover: the sentinel names the replica');
    ok(wait_until(5, sub { error_log() =~ /redis master "behave" is 127\.0\.0\.1:$replica, was/ }),
       sprintf('nginx follows it without reload (%.1fs)', time - $t0));
    like(error_log(), qr/\+switch-master "behave"/, 'told by +switch-master');
    ok(wait_until(5, sub { !turn("manual-$$", 'hello')->{json}{conversation}{degraded} }),
       'turns are stored on the new master');
    ($master, $replica) = ($replica, $master);
    # what the sentinel does at its next look at the old master, done now
    server_cli($replica, 'REPLICAOF 127.0.0.1', $master);
    ok(wait_until(10, sub {
        server_cli($replica, 'INFO replication') =~ /master_link_status:up/
    }), 'the old master is the replica now');
}

# bounded load: 4 clients, one conversation each, ~12 s, turns paced
my $dir = nginx_prefix() . '/load';
mkdir $dir;
my $t_start = time;
my @pids;
for my $p (1 .. 4) {
    my $pid = fork // die;
    if (!$pid) {
        open my $out, '>', "$dir/$p" or exit 1;
        my $c = "sent-$$-$p";
        while (time - $t_start < 12) {
            my $r = turn($c, 'is my refund processed yet?');
            my $b = $r->{json}{conversation};
            printf $out "%.3f %d %d %d\n", time, $r->{status},
                ($b && $b->{degraded}) ? 1 : 0, $b ? $b->{prior_turns} : 0;
            sleep 0.02;
        }
        exit 0;
    }
    push @pids, $pid;
}

sleep 3;
my $t_kill = time;
kill_server($master);
my $t_promoted;
wait_until(15, sub {
    server_cli($sentinel, 'SENTINEL get-master-addr-by-name behave') =~ /$replica/
        and $t_promoted = time;
});
waitpid($_, 0) for @pids;

ok($t_promoted, sprintf('the replica was promoted %.1fs after the kill',
                        ($t_promoted // time) - $t_kill));

my ($n, $s5xx, $acked, $lost, $first_deg, $last_deg) = (0, 0, 0, 0);
# each client's conversation is "sent-<its pid>-<p>"
sub pid_of { $pids[$_[0] - 1] }

for my $p (1 .. 4) {
    open my $in, '<', "$dir/$p" or die;
    my @rows = map { [split] } <$in>;
    my $ok_here = 0;
    for my $r (@rows) {
        my ($t, $status, $deg) = @$r;
        $n++;
        $s5xx++ if $status >= 500;
        if ($deg) {
            $first_deg = $t if !defined $first_deg || $t < $first_deg;
            $last_deg = $t if !defined $last_deg || $t > $last_deg;
        } else {
            $ok_here++;
        }
    }
    # the conversation's stored turns, asked once more at the end
    my $b = turn("sent-" . pid_of($p) . "-$p", 'final')->{json}{conversation};
    my $stored = $b ? $b->{prior_turns} : 0;
    $acked += $ok_here;
    $lost += $ok_here - $stored if $ok_here > $stored;
}

is($s5xx, 0, "$n turns under failover: 0 5xx");
ok($n > 100, "a real load: $n turns");
my $window = defined $first_deg ? $last_deg - $first_deg : 0;
my $after = defined $last_deg && $t_promoted ? $last_deg - $t_promoted : 0;
ok($window < 8, sprintf('degraded for %.1fs (first to last degraded answer)', $window));
ok($after < 5, sprintf('normal again %.1fs after the promotion, no reload', $after));
diag(sprintf('sentinel failover: %d turns, %d acknowledged, %d lost, '
             . 'degraded window %.1fs, back %.1fs after promotion',
             $n, $acked, $lost, $window, $after));
ok($lost <= 4, "acknowledged turns lost with the killed master: $lost "
   . '(asynchronous replication: at most the last ones before the kill)');
like(error_log(), qr/redis master "behave" is 127\.0\.0\.1:$replica, was/,
     'the new master is followed');
ok(!turn("after-$$", 'all good?')->{json}{conversation}{degraded},
   'normal answers after the failover');

check_error_log('sentinel');
done_testing();
