#!/usr/bin/perl
# A client that goes away while its Redis command is in flight: the
# request ends (499), the late reply is dropped, the worker lives on.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use IO::Socket::INET;
use Test::More;
use Time::HiRes qw(sleep);

# a Redis that accepts and reads, but never answers
my ($port, $pid) = start_mute_server();

start_analyze_on($port, '1500ms', workers => 1);

for my $round (1, 2) {
    my $mark = length error_log();
    my $body = '{"message":"hello?","conversation_id":"abort-1"}';
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => nginx_port(),
                                  Proto => 'tcp') or die $!;
    print $s "POST /v1/analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        . KEY_ANALYZE . "\r\nContent-Type: application/json\r\nContent-Length: "
        . length($body) . "\r\n\r\n$body";
    sleep 0.3;
    close $s;
    sleep 0.5;
    # this round's lines only: round 1's must not pass round 2
    like(substr(error_log(), $mark), qr/client prematurely closed connection/,
         "round $round: the abort is noticed while Redis works");
}

sleep 2;    # past the timeout: the dropped commands' replies never come
my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => { message => 'still alive?' });
is($r->{status}, 200, 'the worker still answers');
unlike(error_log(), qr/signal 11|exited on signal/, 'no worker crashed');
check_error_log();

stop_mute_server($pid);
done_testing();
