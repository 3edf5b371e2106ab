#!/usr/bin/perl
# The production image's configuration without Docker: docker/entrypoint.sh
# renders docker/nginx.conf.template from the environment (keys and master
# key as files, a Redis host name resolved once, the demo flag) and the
# result passes nginx -t with the module; the image's files are checked
# for what a production image needs (multi-stage, one build, non-root workers,
# HEALTHCHECK on the health endpoint, Redis with AOF).  Then the image
# itself is built (scripts/image: debootstrap and buildah, no Docker
# daemon) and run beside a test Redis, or the file says why it cannot.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use HTTP::Tiny;
use POSIX qw(WNOHANG);
use Test::More;
use Time::HiRes qw(sleep time);

my $tmp = tempdir('behave-docker-XXXXXX', TMPDIR => 1, CLEANUP => 1);
# the harness's nginx and module (scripts/asan-nginx: the sanitized ones)
my $so = $ENV{BEHAVE_MODULE} // "$TOP/build/ngx_http_behave_module.so";


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

# --- the image itself, built and run without a Docker daemon ----------
# scripts/image: a base from Debian's archive (debootstrap, cached under
# build/image), the Dockerfile built by buildah (chroot isolation, vfs
# storage); then a container of it run beside a test Redis on loopback
# (chroot isolation shares the host's network), asked for its health and
# an analysis, and stopped by its nginx master's pid.

sub image_unavailable {
    return 'BEHAVE_IMAGE_TEST=0' if ($ENV{BEHAVE_IMAGE_TEST} // '') eq '0';
    return 'a sanitized nginx is under test (the image has its own nginx)'
        if $ENV{BEHAVE_NGINX};
    return 'building with buildah needs root here' if $> != 0;
    for my $tool (qw(buildah debootstrap)) {
        return "no $tool (scripts/deps test installs it)"
            unless system("command -v $tool >/dev/null 2>&1") == 0;
    }
    my $mirror = $ENV{BEHAVE_DEBIAN_MIRROR} // 'http://deb.debian.org/debian';
    my $r = HTTP::Tiny->new(timeout => 15)->head("$mirror/dists/bookworm/Release");
    return "Debian's archive is not reachable ($mirror: $r->{status} $r->{reason})"
        unless $r->{success};
    return '';
}

my $IMAGE = 'localhost/behave:test';
my $ctr = "behave-test-$$";
my ($run_pid, $master_pid, $created, $mounted);

sub image {
    my ($args, $prefix) = @_;
    my $o = `@{[ $prefix // '' ]} $TOP/scripts/image $args 2>&1`;
    return ($? >> 8, $o);
}

END {
    local $?;
    if ($master_pid && kill 0, $master_pid) { kill 'KILL', $master_pid }
    if ($run_pid) { kill 'TERM', $run_pid; waitpid($run_pid, 0) }
    if ($mounted) { image("buildah umount $ctr") }
    image("buildah rm $ctr") if $created;
}

SKIP: {
    my $why = image_unavailable();
    skip "the image is not built: $why", 12 if $why;

    my $t0 = time;
    # niced: scripts/test runs this beside the other files, whose timing
    # matters more than this build's
    my ($rc, $out) = image("build $IMAGE", 'nice -n 10');
    is($rc, 0, sprintf('scripts/image build: the Dockerfile built by buildah (%d s)', time - $t0))
        or diag substr($out, -4000);
    skip 'no image', 11 if $rc;

    ($rc, $out) = image("buildah inspect --type image $IMAGE");
    my $cfg = decode_json_ok($out) // {};
    my $hc = join ' ', @{ $cfg->{Docker}{config}{Healthcheck}{Test} // [] };
    like($hc, qr{curl -fsS http://127\.0\.0\.1:8080/healthz}, "the image's HEALTHCHECK calls /healthz");
    my $ep = $cfg->{Docker}{config}{Entrypoint} // [];
    is_deeply($ep, ['/usr/local/bin/behave-entrypoint'], 'its entrypoint is docker/entrypoint.sh');

    my $rport = start_redis();
    my $port = free_port();
    ($rc, $out) = image("buildah from --name $ctr $IMAGE");
    is($rc, 0, 'a container of the image') or diag $out;
    $created = 1;

    open my $log, '>', "$tmp/container.log" or die;
    $run_pid = fork // die "fork: $!";
    if (!$run_pid) {
        open STDOUT, '>&', $log;
        open STDERR, '>&', $log;
        exec "$TOP/scripts/image", 'buildah', 'run', '--isolation', 'chroot',
            '-e', 'BEHAVE_DEMO=1', '-e', "BEHAVE_REDIS=127.0.0.1:$rport",
            '-e', "BEHAVE_LISTEN=127.0.0.1:$port", $ctr, '--', @$ep;
        exit 127;
    }
    close $log;
    ok(Behave::Test::wait_port($port, 30), "the container listens on 127.0.0.1:$port")
        or diag slurp("$tmp/container.log");

    my $h = req_json(GET => '/healthz', port => $port);
    is($h->{status}, 200, 'its health endpoint answers 200') or diag $h->{body};
    is_deeply([$h->{json}{status}, $h->{json}{redis}], ['ready', 'connected'],
              '... ready, with the test Redis connected');

    my ($key) = slurp("$tmp/container.log") =~ /DEMO mode, API key \(tenant demo\): (bk_\S+)/;
    my $r = req_json(POST => '/v1/analyze', port => $port, key => $key // '',
                     body => { message => 'I was charged twice and nobody answers, please fix it today',
                               conversation_id => "image-$$" });
    is($r->{status}, 200, '/v1/analyze with the demo key the container printed') or diag $r->{body};
    ok($r->{json}{annotation}{urgency_level} && !$r->{json}{conversation}{degraded},
       '... annotated, the turn stored in the test Redis');

    ($rc, my $mnt) = image("buildah mount $ctr");
    chomp $mnt;
    $mounted = 1 if $rc == 0;
    ($master_pid) = slurp("$mnt/run/behave/nginx.pid") =~ /(\d+)/;
    ok($master_pid && kill('QUIT', $master_pid), "stopped by its nginx master's pid ("
       . ($master_pid // 'none') . ')');
    my $gone = 0;
    for (1 .. 100) {
        if (waitpid($run_pid, WNOHANG) == $run_pid) { $gone = 1; last }
        sleep 0.1;
    }
    ok($gone, '... and the container is gone');
    undef $run_pid if $gone;
    my @bad = grep { /\[(alert|crit|emerg)\]/ } split /\n/, slurp("$tmp/container.log");
    is(scalar @bad, 0, "no [alert], [crit] or [emerg] in the container's log") or diag join "\n", @bad;
}

done_testing();
