#!/usr/bin/perl
# Counters survive internal redirects: requests the pre-filter routes to a
# named location leave nothing "in flight"; a JSON 413 reaches a client
# that reads slowly, whole.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Socket qw(:all);
use Test::More;
use Time::HiRes qw(sleep time);

my $port = start_nginx(workers => 1, http => <<'E2');
    server {
        listen 127.0.0.1:%%PORT%% sndbuf=4k;
        behave_keys %%KEYS%%;
        send_timeout 3s;
        location = /metrics { behave_metrics; }
        location /chat/ {
            behave_prefilter on;
            behave_route urgency_level=critical @human;
            return 200 "passed\n";
        }
        location @human { return 200 "human\n"; }
        location /big/ { alias %%PREFIX%%/big/; }
        location = /v1/analyze { behave_analyze; }
    }
E2

sub inflight {
    my ($n) = req_json(GET => '/metrics')->{body} =~ /^behave_inflight_requests (\d+)/m;
    return $n;
}

my $before = inflight();
like($before, qr/^\d+$/, 'behave_inflight_requests is exported');
for my $text ('I want to kill myself tonight, I have the pills ready',
              'hello there, how are you') {
    for (1 .. 5) {
        my $r = req_json(POST => '/chat/x', body => { messages => [
                         { role => 'user', content => $text }] });
        is($r->{status}, 200, 'pre-filtered request answered');
    }
}
my $after = inflight();
ok(defined $after && $after == $before,
   'nothing left in flight after routed and passed requests')
    or diag('before ' . ($before // 'absent') . ', after ' . ($after // 'absent'));

# a 413 behind a large response on a full socket: the JSON must arrive
mkdir nginx_prefix() . '/big';
open my $f, '>', nginx_prefix() . '/big/file' or die $!;
print $f 'x' x 150000;
close $f;

socket(my $s, PF_INET, SOCK_STREAM, 0) or die;
setsockopt($s, SOL_SOCKET, SO_RCVBUF, 2048);
connect($s, pack_sockaddr_in($port, inet_aton('127.0.0.1'))) or die "connect: $!";
syswrite($s, "GET /big/file HTTP/1.1\r\nHost: x\r\n\r\n"
    . "POST /v1/analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
    . KEY_ANALYZE . "\r\nContent-Type: application/json\r\n"
    . "Content-Length: 2000000\r\n\r\n");
sleep 0.5;
my ($all, $t0) = ('', time);
while (time - $t0 < 8) {
    my $n = sysread($s, my $buf, 1500);
    last if !$n;
    $all .= $buf;
    sleep 0.002;
}
close $s;
my $tail = substr($all, index($all, 'HTTP/1.1 413') >= 0 ? index($all, 'HTTP/1.1 413') : length $all);
my ($cl) = $tail =~ /Content-Length: (\d+)/i;
my ($body) = $tail =~ /\r\n\r\n(.*)$/s;
ok(defined $cl && defined $body && length($body) == $cl,
   'the JSON 413 arrives whole behind a slow read')
    or diag(sprintf 'got %s of %s bytes', defined $body ? length $body : 'none', $cl // '?');
like($body // '', qr/"code":"payload_too_large"/, '... and it is the JSON error');

check_error_log();
done_testing();
