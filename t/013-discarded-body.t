#!/usr/bin/perl
# A GET with a body that arrives while its Redis command is in flight: the
# body is still discarded as it comes, so the connection is an ordinary
# keep-alive one afterwards, not one left waiting for the rest of a body
# and closed at lingering_timeout.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use IO::Socket::INET;
use Test::More;
use Time::HiRes qw(sleep);

my $key = master_key_file();

# a Redis that accepts and reads, but never answers: every command waits
# for behave_redis_timeout
my ($rport, $pid) = start_mute_server();

start_nginx(workers => 1, http => <<"E");
    behave_redis 127.0.0.1:$rport;
    behave_redis_timeout 400ms;
    behave_secret_key $key;
    lingering_timeout 1s;
    keepalive_timeout 60s;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/webhooks { behave_webhooks; }
    }
E
sleep 0.3;

# one response off a keep-alive connection: status, or undef on EOF
sub read_response {
    my ($s) = @_;
    my ($head, $buf) = ('', '');
    while ($head !~ /\r\n\r\n/) {
        my $n = sysread($s, $buf, 4096);
        return undef unless $n;
        $head .= $buf;
    }
    my ($status) = $head =~ m{^HTTP/1\.1 (\d+)};
    my ($len) = $head =~ /Content-Length: (\d+)/i;
    my $body = substr($head, index($head, "\r\n\r\n") + 4);
    while (length($body) < ($len // 0)) {
        my $n = sysread($s, $buf, 4096);
        return undef unless $n;
        $body .= $buf;
    }
    return $status;
}

my $get = "GET /v1/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
          . KEY_PORTAL . "\r\n";

my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => nginx_port(),
                              Proto => 'tcp') or die $!;
print $s $get, "Content-Length: 8\r\n\r\n";
sleep 0.1;                      # the command is in flight now
print $s "12345678";

is(read_response($s), 503, 'first GET: Redis never answers, 503');

sleep 1.5;                      # past lingering_timeout, idle
print $s $get, "\r\n";
is(read_response($s), 503,
   'the idle connection is still open for the next request');

close $s;
stop_mute_server($pid);
check_error_log();
done_testing();
