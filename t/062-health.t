#!/usr/bin/perl
# behave_health: liveness always 200; readiness reports Redis, the key
# file's age and the version, needs no key, and with "strict" answers 503
# while Redis is away.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;
use Time::HiRes qw(sleep time);

my $version = do {
    open my $fh, '<', "$TOP/src/ngx_http_behave_version.h" or die $!;
    local $/;
    (<$fh> =~ /NGX_HTTP_BEHAVE_VERSION\s+"([^"]+)"/)[0];
};

# configuration checks
my ($ok, $out) = start_nginx(test_only => 1, http =>
    'server { listen 127.0.0.1:%%PORT%%; location /h { behave_health sometimes; } }');
ok(!$ok, 'an unknown behave_health option fails nginx -t');
like($out, qr/behave_health: unknown "sometimes".*nginx\.conf:\d+/,
     '... naming it and the line');

($ok, $out) = start_nginx(test_only => 1, http =>
    'server { listen 127.0.0.1:%%PORT%%; location /h { behave_health; } }');
ok($ok, 'behave_health needs no behave_keys') or diag $out;

start_redis();
my $conf = <<'E';
    behave_redis %%REDIS%%;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /live { behave_health live; }
        location = /ready { behave_health; }
        location = /strict { behave_health strict; }
    }
    server {
        listen 127.0.0.1:%%PORT%%;
        server_name nokeys;
        location = /ready { behave_health; }
    }
E
start_nginx(workers => 1, http => $conf);

sub until_redis {
    my ($want) = @_;
    my $r;
    for (1 .. 100) {
        $r = req_json(GET => '/ready');
        last if ($r->{json}{redis} // '') eq $want;
        sleep 0.1;
    }
    return $r;
}

my $r = req_json(GET => '/live');
is($r->{status}, 200, 'liveness: 200');
is_deeply($r->{json}, { status => 'live', version => $version },
          '... {"status":"live","version":...}');
like($r->{headers}{'content-type'}, qr{^application/json}, '... as JSON');
is($r->{headers}{'cache-control'}, 'no-store', '... never cached');

$r = until_redis('connected');
is($r->{status}, 200, 'readiness without a key: 200');
is($r->{json}{status}, 'ready', '... ready');
is($r->{json}{redis}, 'connected', '... Redis connected');
is($r->{json}{version}, $version, '... the module version');
like($r->{json}{annotator}, qr{^behave-annotator/\d+\.\d+\.\d+$}, '... the annotator version');
is($r->{json}{keys}{count}, 6, '... the number of keys loaded');
ok($r->{json}{keys}{file_age_seconds} >= 0
   && $r->{json}{keys}{file_age_seconds} < 600, '... the key file age in seconds');
ok(defined $r->{json}{keys}{loaded_seconds_ago}, '... and when it was loaded');
unlike($r->{body}, qr/keys"?:.*(?:conf|\/)/, '... and never the key file path');

$r = req_json(GET => '/ready', headers => { Authorization => 'Bearer nonsense' });
is($r->{status}, 200, 'a wrong key does not matter to the probe');

$r = req_json(HEAD => '/ready');
is($r->{status}, 200, 'HEAD: 200');

$r = req_json(POST => '/ready', body => '{}');
is($r->{status}, 405, 'POST: 405');
is($r->{json}{error}{code}, 'method_not_allowed', '... as a JSON error');
is($r->{headers}{allow}, 'GET, HEAD', '... with Allow');

my $raw = raw_request("GET /ready HTTP/1.0\r\nHost: nokeys\r\n\r\n");
like($raw, qr{^HTTP/1\.1 200}, 'a location without keys: 200');
like($raw, qr/"keys":null\}$/, '... keys null');

$r = req_json(GET => '/strict');
is($r->{status}, 200, 'strict with Redis up: 200');

# Redis goes away: readiness says degraded, strict refuses, liveness holds
stop_redis();
$r = until_redis('disconnected');
is($r->{json}{redis}, 'disconnected', 'Redis stopped: readiness sees it');
is($r->{status}, 200, '... still 200 (the module answers degraded)');
is($r->{json}{status}, 'degraded', '... status degraded');

$r = req_json(GET => '/strict');
is($r->{status}, 503, 'strict: 503 without Redis');
is($r->{json}{status}, 'not_ready', '... not_ready');

$r = req_json(GET => '/live');
is($r->{status}, 200, 'liveness is unaffected');

start_redis();
$r = until_redis('connected');
is($r->{json}{status}, 'ready', 'Redis back: ready again');
is(req_json(GET => '/strict')->{status}, 200, '... and strict 200');

check_error_log();
done_testing();
