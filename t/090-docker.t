#!/usr/bin/perl
# The production image's configuration without Docker: docker/entrypoint.sh
# renders docker/nginx.conf.template from the environment (keys and master
# key as files, a Redis host name resolved once, the demo flag) and the
# result passes nginx -t with the module; the image's files are checked
# for what the issue asks (multi-stage, one build, non-root workers,
# HEALTHCHECK on the health endpoint, Redis with AOF).  Where Docker runs,
# the image itself is built too.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use Test::More;

my $tmp = tempdir('behave-docker-XXXXXX', TMPDIR => 1, CLEANUP => 1);
# the harness's nginx and module (scripts/asan-nginx: the sanitized ones)
my $so = $ENV{BEHAVE_MODULE} // "$TOP/build/ngx_http_behave_module.so";

sub slurp { open my $f, '<', $_[0] or return ''; local $/; my $c = <$f>; $c // '' }

# the etc directory the image would have
mkdir "$tmp/etc";
system("cp $TOP/docker/nginx.conf.template $TOP/conf/models.json $TOP/conf/access-log-json.conf $tmp/etc/") == 0 or die;
my $alog = slurp("$tmp/etc/access-log-json.conf");
$alog =~ s{/var/log/nginx/behave-access\.json}{$tmp/access.json};
open my $fh, '>', "$tmp/etc/access-log-json.conf" or die;
print $fh $alog;
close $fh;

sub render {
    my (%env) = @_;
    my $run = "$tmp/run-" . join('-', map { lc } sort keys %env);
    local %ENV = (%ENV, BEHAVE_RENDER_ONLY => 1, BEHAVE_RUN_DIR => $run,
                  BEHAVE_ETC_DIR => "$tmp/etc", PATH => "$TOP/scripts:$ENV{PATH}", %env);
    my $out = `sh $TOP/docker/entrypoint.sh 2>&1`;
    return ($? >> 8, $out, "$run/nginx.conf");
}

# nginx -t of a rendered file: the module from the build, not modules-enabled
sub conf_ok {
    my ($conf) = @_;
    my $text = slurp($conf);
    $text =~ s{^include /etc/nginx/modules-enabled/\*\.conf;}{load_module $so;}m;
    $text =~ s{^user www-data;}{$> == 0 ? 'user root;' : ''}me;
    $text =~ s{^error_log stderr notice;}{error_log $tmp/error.log notice;}m;
    open my $f, '>', "$conf.test" or die;
    print $f $text;
    close $f;
    my $out = `$NGINX -t -p $tmp -e $tmp/error.log -c $conf.test 2>&1`;
    return ($? == 0, $out);
}

open $fh, '>', "$tmp/keys" or die;
printf $fh "%s acme analyze 0\n", 'a' x 64;
close $fh;
open $fh, '>', "$tmp/master" or die;
print $fh ('6f' x 32), "\n";
close $fh;

# no secrets, no demo: refused with the fix
my ($rc, $out) = render(BEHAVE_KEYS_FILE => "$tmp/none", BEHAVE_MASTER_KEY_FILE => "$tmp/none");
isnt($rc, 0, 'no keys file: the entrypoint refuses');
like($out, qr/no keys file at .*BEHAVE_DEMO=1/s, '... saying how to give one');
($rc, $out) = render(BEHAVE_KEYS_FILE => "$tmp/keys", BEHAVE_MASTER_KEY_FILE => "$tmp/none");
like($out, qr/no master key/, 'no master key: refused');

# secrets as files, Redis by name
my $conf;
($rc, $out, $conf) = render(BEHAVE_KEYS_FILE => "$tmp/keys", BEHAVE_MASTER_KEY_FILE => "$tmp/master",
                            BEHAVE_REDIS => 'localhost:6390', BEHAVE_PUBLIC_URL => 'https://hooks.example.com');
is($rc, 0, 'rendered with mounted secrets') or diag $out;
my $text = slurp($conf);
like($text, qr/behave_keys \Q$tmp\E\/keys;/, '... the mounted keys file');
like($text, qr/behave_secret_key \Q$tmp\E\/master;/, '... the mounted master key');
like($text, qr/behave_redis 127\.0\.0\.1:6390;/, '... the Redis host name resolved to its address');
like($text, qr/behave_public_url https:\/\/hooks\.example\.com;/, '... the public URL');
unlike($text, qr/@@/, '... no placeholder left');
my ($ok, $t) = conf_ok($conf);
ok($ok, '... and nginx -t passes') or diag $t;

# the master key as an environment secret, a lexicon
($rc, $out, $conf) = render(BEHAVE_KEYS_FILE => "$tmp/keys", BEHAVE_MASTER_KEY => '70' x 32,
                            BEHAVE_REDIS => '127.0.0.1:6390',
                            BEHAVE_LEXICON_FILE => "$TOP/conf/lexicon-example.txt");
is($rc, 0, 'rendered with BEHAVE_MASTER_KEY') or diag $out;
my ($mfile) = slurp($conf) =~ /behave_secret_key (\S+);/;
is(slurp($mfile), ('70' x 32) . "\n", '... written to a file');
is((stat $mfile)[2] & 0777, 0600, '... readable by its owner only');
like(slurp($conf), qr/behave_lexicon \Q$TOP\E\/conf\/lexicon-example\.txt;/, '... the lexicon');
($ok, $t) = conf_ok($conf);
ok($ok, '... nginx -t passes') or diag $t;

# the demo flag: a key made and printed, a master key made
($rc, $out, $conf) = render(BEHAVE_DEMO => 1, BEHAVE_KEYS_FILE => "$tmp/none",
                            BEHAVE_MASTER_KEY_FILE => "$tmp/none", BEHAVE_REDIS => '127.0.0.1:6390');
is($rc, 0, 'BEHAVE_DEMO=1 needs no secret') or diag $out;
like($out, qr/DEMO mode, API key \(tenant demo\): bk_\S{43}/, '... prints a demo key');
($ok, $t) = conf_ok($conf);
ok($ok, '... nginx -t passes') or diag $t;

# the image's files
my $df = slurp("$TOP/Dockerfile");
my @from = $df =~ /^FROM /mg;
is(scalar @from, 2, 'Dockerfile: two stages');
is(() = $df =~ /dpkg-buildpackage/g, 1, 'the module is built once, in the build stage');
unlike($df =~ s/.*?^FROM debian:bookworm-slim//msr, qr/scripts\/build|make /,
       'the runtime stage builds nothing');
like($df, qr/^HEALTHCHECK .*\n?.*\/healthz/m, 'HEALTHCHECK on the health endpoint');
like(slurp("$TOP/docker/nginx.conf.template"), qr/^user www-data;/m, 'workers run as www-data');
unlike($df, qr/behave-keygen --tenant|openssl rand/, 'no key made at build time');
my $compose = slurp("$TOP/compose.yaml");
like($compose, qr/--appendonly", "yes"/, 'compose: Redis with AOF on');
like($compose, qr/secrets:\s+- behave_keys\s+- behave_master_key/, 'compose: keys as secrets');

SKIP: {
    skip 'no Docker daemon here: the image is not built', 1
        unless system('docker info >/dev/null 2>&1') == 0;
    my $b = `cd $TOP && docker build -q -t behave-test . 2>&1`;
    is($?, 0, 'docker build') or diag $b;
}

done_testing();
