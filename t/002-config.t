#!/usr/bin/perl
# Directives are validated at "nginx -t" with clear messages.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

sub conf_test {
    my ($http, $main) = @_;
    return start_nginx(test_only => 1, main => $main,
                       http => "server { listen 127.0.0.1:%%PORT%%; $http }");
}

my ($ok, $out);

($ok, $out) = conf_test('behave_keys %%KEYS%%; location /a { behave_analyze; }');
ok($ok, 'a valid configuration passes nginx -t') or diag $out;

($ok, $out) = conf_test('location /a { behave_analyze; }');
ok(!$ok, 'behave_analyze without keys fails');
like($out, qr/needs "behave_keys"/, '... saying behave_keys is needed');

($ok, $out) = conf_test('behave_keys /nonexistent/keys; location /a { behave_analyze; }');
ok(!$ok, 'a missing keys file fails');
like($out, qr{cannot open "/nonexistent/keys"}, '... naming the file');

{
    my $bad = "/tmp/behave-bad-keys-$$";
    open my $fh, '>', $bad or die;
    print $fh "# ok\n" . ('a' x 64) . " acme analyze 0\nnot-a-hash acme analyze 0\n";
    close $fh;
    ($ok, $out) = conf_test("behave_keys $bad; location /a { behave_analyze; }");
    ok(!$ok, 'a malformed keys file fails');
    like($out, qr{\Q$bad\E:3: the first field must be 64 hex}, '... with file:line');

    open $fh, '>', $bad or die;
    print $fh ('a' x 64) . " acme analyze,admin 0\n";
    close $fh;
    ($ok, $out) = conf_test("behave_keys $bad; location /a { behave_analyze; }");
    like($out, qr{:1: scopes must be}, 'an unknown scope fails with file:line');
    unlink $bad;
}

($ok, $out) = conf_test('behave_keys %%KEYS%%; location /a { behave_analyze; behave_analyze; }');
ok(!$ok, 'a duplicate handler fails');
like($out, qr/is duplicate/, '... as duplicate');

($ok, $out) = conf_test('behave_keys %%KEYS%%; location /a { proxy_pass http://127.0.0.1:1; behave_analyze; }');
ok(!$ok, 'behave_analyze after another content handler fails');
like($out, qr/conflicts with another content handler/, '... saying so');

($ok, $out) = conf_test('behave_keys %%KEYS%%; behave_max_message_size 0; location /a { behave_analyze; }');
ok(!$ok, 'behave_max_message_size 0 fails');
like($out, qr/must be greater than 0/, '... with a reason');

($ok, $out) = conf_test('behave_keys %%KEYS%%; behave_max_message_size 2m; location /a { behave_analyze; }');
ok(!$ok, 'message size above body size fails');
like($out, qr/larger than "behave_max_body_size"/, '... with a reason');

($ok, $out) = conf_test('behave_keys %%KEYS%%; location /a { behave_analyze on; }');
ok(!$ok, 'behave_analyze takes no argument');

($ok, $out) = conf_test('location /a { behave_keys %%KEYS%%; behave_keys %%KEYS%%; }');
ok(!$ok, 'duplicate behave_keys fails');

done_testing();
