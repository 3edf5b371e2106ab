#!/usr/bin/perl
# nginx -t: a behave handler with proxy_pass or return in one location is
# refused, and errors found across directives name the directive's own
# file and line, not the closing "}" of http{}.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

sub conf_test {
    my ($http) = @_;
    return start_nginx(test_only => 1, http => $http);
}

# conf_test() of one "location /a" holding these directives
sub location_test {
    my ($directives) = @_;
    return conf_test(<<"E");
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /a {
$directives
        }
    }
E
}

# the line the error names must hold the directive it is about
sub names_line {
    my ($out, $want, $name) = @_;
    my ($file, $line) = $out =~ /\[emerg\].* in (\S+):(\d+)\s*$/m;
    unless (defined $file) {
        fail("$name: no file:line in the error");
        diag $out;
        return;
    }
    open my $f, '<', $file or die "$file: $!";
    my @lines = <$f>;
    like($lines[$line - 1] // '', $want, "$name: the error names the line of the directive")
        or diag "$out\nline $line: " . ($lines[$line - 1] // '');
}

my ($ok, $out);

# --- a behave handler and proxy_pass / return
($ok, $out) = location_test(<<'E');
            behave_analyze;
            proxy_pass http://127.0.0.1:1;
E
ok(!$ok, 'behave_analyze then proxy_pass: refused');
like($out, qr/"behave_analyze" and another content handler/, '... saying why');
names_line($out, qr/behave_analyze;/, 'behave_analyze then proxy_pass');

($ok, $out) = location_test(<<'E');
            proxy_pass http://127.0.0.1:1;
            behave_gateway;
E
ok(!$ok, 'proxy_pass then behave_gateway: refused');
names_line($out, qr/behave_gateway;/, 'proxy_pass then behave_gateway');

($ok, $out) = location_test(<<'E');
            behave_analyze;
            return 200 "never";
E
ok(!$ok, 'behave_analyze then return: refused');
like($out, qr/"return" in a location with "behave_analyze" \(\S+:\d+\): the behave handler would never run/,
     '... naming both');
names_line($out, qr/return 200/, 'behave_analyze then return');

($ok, $out) = conf_test(<<'E');
    server {
        listen 127.0.0.1:%%PORT%%;
        location = /h {
            return 204;
            behave_health;
        }
    }
E
ok(!$ok, 'return then behave_health: refused');
like($out, qr/"behave_health" in a location with "return"/, '... saying why');
names_line($out, qr/behave_health;/, 'return then behave_health');

($ok, $out) = conf_test(<<'E');
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /a {
            if ($arg_deny) { return 403; }
            behave_analyze;
        }
        location /b {
            behave_prefilter on;
            return 200 "passed";
        }
        location /c { return 200; }
        location /d { behave_analyze; }
    }
E
ok($ok, 'return inside if, prefilter with return, return elsewhere: accepted') or diag $out;

# --- cross-directive errors, each at its directive's line
($ok, $out) = conf_test(<<'E');
    server {
        listen 127.0.0.1:%%PORT%%;
        location /a {
            behave_analyze;
        }
    }
E
ok(!$ok, 'no behave_keys: refused');
like($out, qr/"behave_analyze" needs "behave_keys"/, '... saying so');
names_line($out, qr/behave_analyze;/, 'no behave_keys');

($ok, $out) = conf_test(<<'E');
    behave_keys %%KEYS%%;
    behave_max_body_size 64k;
    server {
        listen 127.0.0.1:%%PORT%%;
        location /a {
            behave_max_message_size 128k;
            behave_analyze;
        }
    }
E
ok(!$ok, 'message size above body size: refused');
names_line($out, qr/behave_max_message_size 128k/, 'message size above body size');

($ok, $out) = conf_test(<<'E');
    behave_keys %%KEYS%%;
    server {
        listen 127.0.0.1:%%PORT%%;
        location /v1/webhooks {
            behave_webhooks;
        }
    }
E
ok(!$ok, 'behave_webhooks without Redis: refused');
names_line($out, qr/behave_webhooks;/, 'behave_webhooks without Redis');

for my $c (['behave_redis_timeout 0;', qr/must be at least 1ms/],
           ['behave_shm_size 8k;', qr/must be at least/],
           ['behave_public_url ftp://x;', qr/must start with http/]) {
    ($ok, $out) = conf_test("\n    $c->[0]\n    server { listen 127.0.0.1:%%PORT%%; }\n");
    ok(!$ok, "$c->[0] refused");
    like($out, $c->[1], '... with its reason');
    my $d = quotemeta $c->[0];
    names_line($out, qr/$d/, $c->[0]);
}

# --- the guard leaves "return" as it was once the check is over
my $port = start_nginx(http => <<'E');
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /r { return 200 "plain return\n"; }
        location /a { if ($arg_deny) { return 403; } behave_analyze; }
    }
E
is(http()->get("http://127.0.0.1:$port/r")->{content}, "plain return\n", 'return still answers');
is(req_json(POST => '/a?deny=1', key => KEY_ANALYZE, body => { message => 'hi' })->{status},
   403, 'return inside if still answers');
is(req_json(POST => '/a', key => KEY_ANALYZE, body => { message => 'hi' })->{status},
   200, '... and the handler runs otherwise');
reload_nginx();
is(http()->get("http://127.0.0.1:$port/r")->{content}, "plain return\n", 'after a reload too');
check_error_log();

done_testing();
