#!/usr/bin/perl
# Conversations on a real redis-server: the block, its findings both ways,
# redaction, tenants, degraded mode and recovery, concurrency.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use IO::Socket::INET;
use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);

start_redis();

start_nginx(http => <<"E2");
    behave_redis %%REDIS%%;
    behave_redis_timeout 100ms;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location = /redacted/v1/analyze { behave_analyze; behave_redact on; }
        location = /big/v1/analyze {
            behave_analyze;
            behave_conversation_max_turns 1000;
        }
        location = /small/v1/analyze {
            behave_analyze;
            behave_conversation_max_turns 4;
        }
    }
E2

my $n = 0;
sub turn {
    my ($conv, $msg, %o) = @_;
    my $r = req_json(POST => ($o{path} // '/v1/analyze'),
                     key => $o{key} // KEY_ANALYZE,
                     body => { conversation_id => $conv, message => $msg,
                               $o{speaker} ? (speaker => $o{speaker}) : () });
    is($r->{status}, 200, "turn of $conv: 200") unless $o{quiet};
    return $r->{json};
}
sub conv_id { 'c' . $$ . '-' . ++$n }

# the block appears from the second turn on, with every field
{
    my $c = conv_id();
    my $j = turn($c, 'Hi, my internet has been down since this morning.');
    ok(!exists $j->{conversation}, 'first turn: no conversation block');
    $j = turn($c, 'Is there an outage in my area?');
    my $b = $j->{conversation};
    ok($b, 'second turn: conversation block');
    is($b->{conversation_id}, $c, 'conversation_id echoed');
    is($b->{storage_mode}, 'full', 'storage_mode full');
    is($b->{prior_turns}, 1, 'prior_turns 1');
    for my $f (qw(false_resolution false_resolution_reason repeat_contact_risk)) {
        ok(exists $b->{failure_flags}{$f}, "failure_flags.$f");
    }
    for my $f (qw(repetition repetition_similarity escalating peak_severity)) {
        ok(exists $b->{derived}{$f}, "derived.$f");
    }
    like($b->{recommendation}{action}, qr/^(clarify|simplify|resolve|route|handoff)$/,
         'recommendation.action in its set');
    ok(length $b->{recommendation}{reason}, 'recommendation.reason');
    ok(length $b->{recommendation}{safe_response_guidance}, 'safe_response_guidance');
    like($b->{review_status}, qr/^(ok|monitor|needs_review|escalated)$/, 'review_status');
    ok(JSON::PP::is_bool($b->{degraded}) && !$b->{degraded}, 'not degraded');
    ok($b->{derived}{peak_severity} >= 0 && $b->{derived}{peak_severity} <= 4,
       'peak_severity in 0..4');
    $j = turn($c, 'Thanks, any update?');
    is($j->{conversation}{prior_turns}, 2, 'prior_turns counts up');
}

# false resolution: fires after an agent claim, not without one
{
    my $c = conv_id();
    turn($c, 'My refund for order 5512 has not arrived.');
    turn($c, "I've processed the refund, it's all sorted now.", speaker => 'agent');
    my $j = turn($c, "I just checked and nothing has come in, the charge is still there.");
    my $b = $j->{conversation};
    ok($b->{failure_flags}{false_resolution}, 'false_resolution fires after a claim');
    like($b->{failure_flags}{false_resolution_reason}, qr/agent turn 1.*customer turn 2/s,
         'the reason names both turns');
    is($b->{recommendation}{action}, 'handoff', 'false resolution -> handoff');
    is($b->{review_status}, 'needs_review', 'false resolution -> needs_review');

    my $c2 = conv_id();
    turn($c2, 'My refund for order 5512 has not arrived.');
    turn($c2, 'Could you give me the email on the account?', speaker => 'agent');
    $j = turn($c2, "Nothing has come in, the charge is still there.");
    ok(!$j->{conversation}{failure_flags}{false_resolution},
       'no false_resolution without an agent claim');
}

# repetition: the same ask again, and not for a new ask
{
    my $c = conv_id();
    turn($c, 'How do I change the email address on my account?');
    turn($c, 'You can do that in settings.', speaker => 'agent');
    my $j = turn($c, 'But how do I actually change the email address on my account?');
    ok($j->{conversation}{derived}{repetition}, 'repetition fires');
    ok($j->{conversation}{derived}{repetition_similarity} > 0.3, 'similarity reported');

    my $c2 = conv_id();
    turn($c2, 'How do I change the email address on my account?');
    $j = turn($c2, 'Also, what are your opening hours on Sunday?');
    ok(!$j->{conversation}{derived}{repetition}, 'a new ask is not repetition');
}

# escalation: a trend, not one bad turn
{
    my $c = conv_id();
    turn($c, 'My parcel has not arrived yet, can you check?');
    turn($c, 'It is now three days late and nobody has replied. This is frustrating.');
    my $j = turn($c, 'This is ABSOLUTELY RIDICULOUS!!! I need it TODAY or I am cancelling everything and reporting you!!');
    ok($j->{conversation}{derived}{escalating}, 'escalating fires on a worsening trend');
    is($j->{conversation}{recommendation}{action}, 'handoff', 'escalation -> handoff');

    my $c2 = conv_id();
    my $j2 = turn($c2, 'This is ridiculous, my parcel is late!');
    $j2 = turn($c2, 'Thanks, that tracking link helps.');
    ok(!$j2->{conversation}{derived}{escalating}, 'no escalation when it calms down');
}

# redaction: what is stored is exactly what was analysed
{
    my $c = conv_id();
    turn($c, 'my email is jane.doe@example.com and card 4111 1111 1111 1111',
         path => '/redacted/v1/analyze');
    my $j = turn($c, 'any news?', path => '/redacted/v1/analyze');
    is($j->{conversation}{storage_mode}, 'redacted', 'storage_mode redacted');
    my $stored = redis_cli("GET 'behave:{acme:$c}:log'");
    like($stored, qr/\[EMAIL\]/, 'the stored turn holds [EMAIL]');
    like($stored, qr/\[CARD\]/, 'the stored turn holds [CARD]');
    unlike($stored, qr/jane\.doe|4111/, 'no e-mail or card number in Redis');

    my $c2 = conv_id();
    turn($c2, 'my email is jane.doe@example.com');
    like(redis_cli("GET 'behave:{acme:$c2}:log'"), qr/jane\.doe\@example\.com/,
         'with behave_redact off the full text is stored');
}

# tenants do not see each other's conversations
{
    my $c = conv_id();
    turn($c, 'first message of acme');
    my $j = turn($c, 'first message of globex', key => KEY_OTHER);
    ok(!exists $j->{conversation}, 'same id, other tenant: no history');
    $j = turn($c, 'second message of acme');
    is($j->{conversation}{prior_turns}, 1, 'acme history holds only acme turns');
}

# concurrency: 200 turns of one conversation over 2 workers; each answer
# numbers its turn, so every number from 0 to 199 comes back exactly once
sub concurrent_turns {
    my ($c, $path) = @_;
    my $dir = nginx_prefix() . "/conc-$c";
    mkdir $dir;
    my @pids = start_clients(10, sub {
        my ($p) = @_;
        my $bad = 0;
        open my $out, '>', "$dir/$p" or return 0;
        for my $i (1 .. 20) {
            my $j = turn($c, "turn $p-$i", path => $path, quiet => 1);
            $bad++ if !$j || ($j->{conversation} && $j->{conversation}{degraded});
            print $out(($j && $j->{conversation}
                        ? $j->{conversation}{prior_turns} : 0), "\n");
        }
        close $out;
        return !$bad;
    });
    my $failed = wait_clients(@pids);
    my %seen;
    for my $p (1 .. 10) {
        open my $in, '<', "$dir/$p" or next;
        $seen{$_}++ for map { chomp; $_ } <$in>;
    }
    return ($failed, \%seen);
}
sub log_records {
    my ($c) = @_;
    my $v = redis_cli("GET 'behave:{acme:$c}:log'");
    my ($dropped) = $v =~ /^d(\d+)\xff/;
    $v =~ s/^d\d+\xff//;
    return ($dropped // 0, grep { length } split /\xff/, $v);
}
{
    my $c = conv_id();
    my ($failed, $seen) = concurrent_turns($c, '/big/v1/analyze');
    is($failed, 0, '200 concurrent turns answered, none degraded');
    is(scalar(grep { ($seen->{$_} // 0) == 1 } 0 .. 199), 200,
       'each turn number 0..199 answered exactly once');
    my ($dropped, @turns) = log_records($c);
    my %texts = map { (/(turn \d+-\d+)/)[0] => 1 } @turns;
    is(scalar(keys %texts) + $dropped, 200, 'no turn lost or doubled');
}

# past max + max / 2 turns the front is trimmed; numbers go on
{
    my $c = conv_id();
    my @prior;
    for my $i (0 .. 11) {
        my $j = turn($c, "message number $i about my parcel", path => '/small/v1/analyze',
                     quiet => 1);
        push @prior, $j->{conversation} ? $j->{conversation}{prior_turns} : 0;
    }
    is("@prior", join(' ', 0 .. 11), 'prior_turns counts every turn, trimmed or not');
    sleep 0.2;
    my ($dropped, @turns) = log_records($c);
    ok(@turns <= 6 && @turns >= 4, 'at most max + max / 2 turns stored (' . scalar(@turns) . ')');
    is($dropped + @turns, 12, 'the header counts the trimmed turns');
    my $j = turn($c, 'Where is my parcel? Where is my parcel?', path => '/small/v1/analyze');
    turn($c, 'Let me check that for you.', path => '/small/v1/analyze',
         speaker => 'agent');
    $j = turn($c, 'Where is my parcel? Where is my parcel?', path => '/small/v1/analyze');
    like($j->{conversation}{recommendation}{reason}, qr/customer turn 14 asks again what turn 12 asked/,
         'reasons number turns over the whole conversation');

    my $c2 = conv_id();
    my ($failed, $seen) = concurrent_turns($c2, '/small/v1/analyze');
    is($failed, 0, 'trimming under load: 200 turns answered');
    is(scalar(grep { ($seen->{$_} // 0) == 1 } 0 .. 199), 200,
       'trimming under load: each turn number answered exactly once');
    sleep 0.2;
    ($dropped, @turns) = log_records($c2);
    is($dropped + @turns, 200, 'trimming under load: every turn counted');
}

# the state: what a turn reads back stays small however long the chat;
# findings over every turn (peak severity remembers turn 0 at turn 61)
sub redis_set_raw {
    my ($key, $value) = @_;
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => redis_port())
        or die "redis: $!";
    binmode $s;
    print $s join('', "*3\r\n", map { '$' . length($_) . "\r\n$_\r\n" } 'SET', $key, $value);
    my $line = <$s>;
    close $s;
    return $line =~ /^\+OK/;
}
{
    my $c = conv_id();
    my $first = turn($c, 'URGENT!! Someone is taking money from my account RIGHT NOW, '
                         . 'I need this stopped immediately!!', quiet => 1);
    my $j = turn($c, 'ok', quiet => 1);
    my $peak = $j->{conversation}{derived}{peak_severity};
    ok($peak >= 3, "turn 0 is severe (peak $peak)");
    for my $i (2 .. 60) {
        $j = turn($c, $i % 2 ? 'ok thanks' : 'Let me check that for you.',
                  speaker => $i % 2 ? 'customer' : 'agent', quiet => 1);
    }
    $j = turn($c, 'fine', quiet => 1);
    is($j->{conversation}{prior_turns}, 61, 'turn 61');
    is($j->{conversation}{derived}{peak_severity}, $peak,
       'peak severity at turn 61 still counts turn 0 (history beyond max_turns)');
    my $len = redis_cli("STRLEN 'behave:{acme:$c}:state'");
    ok($len > 52 && $len <= 1536, "the state read back per turn is $len bytes (<= 1.5 KB)");
    my ($dropped, @turns) = log_records($c);
    is($dropped + @turns, 62, 'the log keeps the text of every turn, trimmed ones counted');
    like(redis_cli("TTL 'behave:{acme:$c}:state'"), qr/^\d+$/, 'the state has a TTL');
}

# a conversation written by an older build (a log, no state): recomputed
# once from its text, then answered as if it had never stopped; b2 records
# and b1 records (no meaning signature) alike
{
    my @script = (
        [customer => 'My refund of 40 pounds has not arrived. Order 88231.'],
        [agent => "I've processed the refund, it's all sorted now."],
        [customer => 'I checked with my bank and nothing has come in.'],
        [agent => 'Please allow 3-5 working days.'],
        [customer => 'Where is my refund? Where is my refund for order 88231?'],
        [agent => 'It should arrive soon.'],
        [customer => 'Where is my refund for order 88231? This is the third time I ask!!'],
        [agent => 'I understand.'],
    );
    my ($ref, $b2, $b1, $s1) = (conv_id(), conv_id(), conv_id(), conv_id());
    my (@want, @got2, @got1, @gots1);
    for my $k (0 .. $#script) {
        my ($who, $msg) = @{ $script[$k] };
        if ($k == 4) {
            redis_cli("DEL 'behave:{acme:$b2}:state' 'behave:{acme:$b1}:state'");
            my $log = redis_cli("GET 'behave:{acme:$b1}:log'");
            $log = join("\xff", map {
                my @f = split /\t/, $_, 11;
                @f == 11 && $f[0] eq 'b2' ? join("\t", 'b1', @f[1 .. 8], $f[10]) : $_
            } split /\xff/, $log) . "\xff";
            ok($log !~ /^b2/ && redis_set_raw("behave:{acme:$b1}:log", $log),
               'an older build\'s log (b1 records, no state) is in place');
            # an older build's state ("s1", records shifted, not in slots)
            redis_cli('EVAL', "\"local s = redis.call('GET', KEYS[1]) "
                      . "redis.call('SET', KEYS[1], 's1' .. string.sub(s, 3)) "
                      . "return 1\"", 1, "behave:{acme:$s1}:state");
            like(redis_cli("GETRANGE 'behave:{acme:$s1}:state' 0 1"), qr/^s1$/,
                 'an older build\'s state ("s1") is in place');
        }
        push @want, turn($ref, $msg, speaker => $who, quiet => 1)->{conversation};
        push @got2, turn($b2, $msg, speaker => $who, quiet => 1)->{conversation};
        push @got1, turn($b1, $msg, speaker => $who, quiet => 1)->{conversation};
        push @gots1, turn($s1, $msg, speaker => $who, quiet => 1)->{conversation};
    }
    my $js = JSON::PP->new->canonical;
    my $same = sub {
        my ($a, $b) = @_;
        my %a = %{ $a // {} }; my %b = %{ $b // {} };
        delete $a{conversation_id}; delete $b{conversation_id};
        return $js->encode(\%a) eq $js->encode(\%b);
    };
    ok($want[2]{failure_flags}{false_resolution}, 'the reference sees the false resolution');
    ok($want[4]{failure_flags}{repeat_contact_risk},
       'and remembers it two turns later (repeat-contact risk)');
    is(scalar(grep { $same->($want[$_], $got2[$_]) } 4 .. $#script), 4,
       'b2 log without state: every later turn answered as the reference');
    is(scalar(grep { $same->($want[$_], $got1[$_]) } 4 .. $#script), 4,
       'b1 log without state: every later turn answered as the reference')
        or diag($js->encode($want[4]) . "\n" . $js->encode($got1[4]));
    is(scalar(grep { $same->($want[$_], $gots1[$_]) } 4 .. $#script), 4,
       'an "s1" state: recomputed from the log, every later turn as the reference');
    like(redis_cli("GETRANGE 'behave:{acme:$s1}:state' 0 1"), qr/^s2$/,
         'and written back as "s2"');
    ok(redis_cli("STRLEN 'behave:{acme:$b1}:state'") > 52, 'the state was written back');
    like(error_log(), qr/upgraded from its log/, 'the upgrade is logged');
}

# an older build's trimmed log (a "d<dropped>" header): the turns it no
# longer holds are counted, the upgrade answers, numbering goes on
{
    my $c = conv_id();
    turn($c, "message number $_ about my parcel", path => '/small/v1/analyze',
         quiet => 1) for 0 .. 9;
    my ($dropped, @turns) = log_records($c);
    ok($dropped > 0, "the log was trimmed ($dropped dropped, " . scalar(@turns) . ' kept)');
    redis_cli("DEL 'behave:{acme:$c}:state'");
    my $j = turn($c, 'Where is my parcel?', path => '/small/v1/analyze');
    ok($j->{conversation} && !$j->{conversation}{degraded},
       'a trimmed log without state: answered, not degraded');
    is($j->{conversation}{prior_turns}, 10, 'every turn counted, trimmed ones too');
    turn($c, 'Let me check that for you.', path => '/small/v1/analyze',
         speaker => 'agent');
    $j = turn($c, 'Where is my parcel?', path => '/small/v1/analyze');
    like($j->{conversation}{recommendation}{reason},
         qr/customer turn 12 asks again what turn 10 asked/,
         'then incremental, numbered over the whole conversation');
}

# metering is shared through Redis: another node's usage counts here
{
    my @t = gmtime;
    my $day = sprintf '%04d%02d%02d', $t[5] + 1900, $t[4] + 1, $t[3];
    redis_cli("SET 'behave:usage:{small}:$day' 100");
    my $r = req_json(POST => '/v1/analyze', key => KEY_QUOTA, body => { message => 'hi' });
    sleep 0.8;
    $r = req_json(POST => '/v1/analyze', key => KEY_QUOTA, body => { message => 'hi' });
    is($r->{json}{_meta}{meter}, 'shared', 'meter: shared once Redis answered');
    ok($r->{json}{_meta}{overage}, 'over quota through the shared count');
    is($r->{json}{_meta}{tenant_remaining}, 0, 'tenant_remaining 0 when over');
    sleep 0.8;
    is(redis_cli("GET 'behave:usage:{small}:$day'"), 102,
       'both annotations were flushed to Redis, once each');
}

# Redis stopped: 200, degraded, handoff, never resolved; back: recovers
{
    my $c = conv_id();
    turn($c, 'hello');
    stop_redis();
    my $j = turn($c, 'still there?');
    my $b = $j->{conversation};
    ok($b && $b->{degraded}, 'Redis down: the block is degraded');
    ok(length($b->{degraded_reason} // ''), 'degraded_reason given');
    is($b->{recommendation}{action}, 'handoff', 'degraded -> handoff');
    ok(!$b->{failure_flags}{false_resolution} && $b->{review_status} eq 'needs_review',
       'degraded: needs_review, nothing claimed resolved');
    ok($j->{annotation}{emotional_valence}, 'the annotation is still there');

    start_redis();
    my $ok = 0;
    for (1 .. 100) {
        my $j2 = turn(conv_id(), 'x', quiet => 1);
        my $j3 = turn($c, 'are you back?', quiet => 1);
        if ($j3->{conversation} && !$j3->{conversation}{degraded}) { $ok = 1; last }
        sleep 0.1;
    }
    ok($ok, 'Redis back: the next requests use it again, no restart');
    like(error_log(), qr/conversation degraded/, 'degraded mode is logged');
    my @lines = grep { /conversation degraded/ } split /\n/, error_log();
    ok(@lines <= 4, 'degraded mode is logged once per interval, not per request')
        or diag scalar(@lines) . ' lines';
}

# "nginx -s quit" does not wait for the Redis timers of idle workers
{
    check_error_log('conversations');
    my $t = stop_nginx();
    ok(defined $t && $t < 3, 'a graceful stop with Redis connected takes '
                            . (defined $t ? sprintf('%.2fs', $t) : 'forever'));
}

# a Redis that accepts but never answers: timeout, degraded, in time
{
    my ($mute_port, $pid) = start_mute_server();
    start_analyze_on($mute_port, '100ms');
    for my $round (1, 2) {
        my $t0 = time;
        my $j = turn('mute-1', 'hello?');
        my $dt = time - $t0;
        ok($j->{conversation} && $j->{conversation}{degraded},
           "round $round: a mute Redis gives a degraded block");
        ok($dt < 2, "round $round: answered in ${dt}s, bounded by the timeout");
    }
    check_error_log('mute redis');
    stop_mute_server($pid);
}

check_error_log();
done_testing();
