#!/usr/bin/perl
# The Debian package: dpkg-buildpackage -us -uc -b from debian/, lintian
# without errors, the nginx ABI in Depends, then installed on the
# machine's stock nginx (the load_module snippet enabled the Debian way),
# a request answered with a key from the packaged behave-keygen, and the
# package removed and purged cleanly.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use HTTP::Tiny;
use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep);
use Fcntl qw(:flock);

plan skip_all => 'installing a package needs root (CI runs as root)' if $> != 0;

my $PKG = 'libnginx-mod-http-behave';
my $ENABLED = '/etc/nginx/modules-enabled/50-mod-http-behave.conf';
my $tmp = tempdir('behave-deb-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $nginx_pid;

# One dpkg install at a time on this machine: two suites run at once (a
# second checkout, the ASan mode) would remove each other's package.
open(my $lock, '>', '/tmp/behave-debian-package.lock') or die "lock: $!";
flock($lock, LOCK_EX) or die "flock: $!";

sub sh {
    my ($cmd) = @_;
    my $out = `$cmd 2>&1`;
    return ($? >> 8, $out);
}

# dpkg waits for its own lock (another checkout's apt-get may hold it)
sub dpkg {
    my ($args) = @_;
    my ($rc, $out);
    for (1 .. 60) {
        ($rc, $out) = sh("dpkg $args");
        last unless $rc != 0 && $out =~ /lock/i;
        sleep 1;
    }
    return ($rc, $out);
}

sub purge { dpkg("-P $PKG") }

END {
    local $?;       # the clean-up's exit codes are not the test's
    if ($nginx_pid) { kill 'QUIT', $nginx_pid; waitpid($nginx_pid, 0); }
    purge() if defined $tmp;
}

# a leftover of an interrupted run would hide what this one installs
purge();

# --- build from a copy of the tree (the build writes debian/ and build/)
my $src = "$tmp/ngx-http-behave";
mkdir $src or die;
my ($rc, $out) = sh("cd $TOP && tar --exclude=./build --exclude=./.git "
    . "--exclude=./tools/openapi/node_modules -cf - . | tar -C $src -xf -");
is($rc, 0, 'the tree is copied') or diag $out;

# nocheck: the package's check step builds the core's unit tests from
# scratch (a minute here); it is run below on the tree's own build
($rc, $out) = sh("cd $src && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b");
is($rc, 0, 'dpkg-buildpackage -us -uc -b') or diag substr($out, -3000);

# the check step of debian/rules (the core's unit tests), where the core
# is built already (scripts/test builds it first)
($rc, $out) = sh("cd $TOP && make -s -f debian/rules override_dh_auto_test");
is($rc, 0, "debian/rules' check step passes") or diag substr($out, -3000);

my ($deb) = glob("$tmp/${PKG}_*_*.deb");
ok($deb && -f $deb, 'the .deb is built') or BAIL_OUT('no package');

# the package's version is the module's
my ($hver) = slurp("$TOP/src/ngx_http_behave_version.h") =~ /NGX_HTTP_BEHAVE_VERSION\s+"([^"]+)"/;
my ($dver) = slurp("$TOP/debian/changelog") =~ /^\S+ \(([^)]+)\)/;
is($dver, $hver, "debian/changelog's version is the module's ($hver)");

# lintian: no error (warnings are reported)
($rc, $out) = sh("lintian --no-tag-display-limit $deb");
my @errors = grep { /^E: / } split /\n/, $out;
is(scalar @errors, 0, 'lintian: no error') or diag join "\n", @errors;
note("lintian: $_") for grep { /^W: / } split /\n/, $out;

# Depends on the ABI of the nginx it was built against, as Debian's do
my ($abi) = slurp('/usr/share/nginx/src/debian/libnginx-mod.abisubstvars') =~ /^nginx:abi=(\S+)/m;
($rc, $out) = sh("dpkg-deb -f $deb Depends");
like($out, qr/(^|, )\Q$abi\E(,|$)/m, "Depends on $abi");

($rc, $out) = sh("dpkg-deb -c $deb");
for my $f ('./usr/lib/nginx/modules/ngx_http_behave_module.so',
           './usr/share/nginx/modules-available/mod-http-behave.conf',
           './usr/bin/behave-keygen',
           './usr/share/doc/libnginx-mod-http-behave/examples/behave.conf',
           './usr/share/man/man1/behave-keygen.1.gz') {
    like($out, qr/\Q$f\E$/m, "ships $f");
}

# --- installed on the stock nginx
($rc, $out) = dpkg("-i $deb");
is($rc, 0, 'dpkg -i') or diag $out;
is(slurp('/usr/share/nginx/modules-available/mod-http-behave.conf'),
   "load_module modules/ngx_http_behave_module.so;\n", 'the load_module snippet');
ok(-l $ENABLED, "enabled: $ENABLED");

my $keys = "$tmp/behave.keys";
# the key on stdout, a note on stderr
my $key = `/usr/bin/behave-keygen --tenant pkg --scopes analyze --file $keys 2>/dev/null`;
chomp $key;
is($?, 0, 'the packaged behave-keygen makes a key');
like($key, qr/^bk_[A-Za-z0-9_-]{43}$/, '... printed once');

my $port = free_port();
open my $fh, '>', "$tmp/nginx.conf" or die;
print $fh <<"E";
# what an operator writes: Debian's nginx.conf pulls the snippets in
include /etc/nginx/modules-enabled/*.conf;
worker_processes 1;
daemon off;
pid $tmp/nginx.pid;
error_log $tmp/error.log info;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $tmp/body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;
    server {
        listen 127.0.0.1:$port;
        behave_keys $keys;
        location = /v1/analyze { behave_analyze; }
        location = /healthz { behave_health; }
    }
}
E
close $fh;

# Debian's prefix, where modules/ leads to /usr/lib/nginx/modules
($rc, $out) = sh("/usr/sbin/nginx -t -p /usr/share/nginx/ -e $tmp/error.log -c $tmp/nginx.conf");
is($rc, 0, 'stock nginx -t with the package') or diag $out;

$nginx_pid = fork // die;
if (!$nginx_pid) {
    open STDERR, '>', "$tmp/stderr.log";
    exec '/usr/sbin/nginx', '-p', '/usr/share/nginx/', '-e', "$tmp/error.log", '-c', "$tmp/nginx.conf";
    exit 127;
}

my $http = HTTP::Tiny->new(timeout => 5);
my $r;
for (1 .. 100) {
    $r = $http->get("http://127.0.0.1:$port/healthz");
    last if $r->{status} != 599;
    sleep 0.05;
}
is($r->{status}, 200, 'the stock nginx answers with the module loaded');

$r = $http->post("http://127.0.0.1:$port/v1/analyze", {
    headers => { Authorization => "Bearer $key", 'Content-Type' => 'application/json' },
    content => '{"message":"My card was charged twice, please fix it today"}' });
is($r->{status}, 200, 'a request answered with the packaged key') or diag $r->{content};
my $j = eval { decode_json($r->{content}) } // {};
like($j->{annotation}{urgency_level} // '', qr/^(medium|high|critical)$/, '... with an annotation');

kill 'QUIT', $nginx_pid;
waitpid($nginx_pid, 0);
$nginx_pid = undef;

# --- removed, then purged
($rc, $out) = dpkg("-r $PKG");
is($rc, 0, 'dpkg -r') or diag $out;
ok(!-e '/usr/lib/nginx/modules/ngx_http_behave_module.so', 'the module is gone');
ok(!-e $ENABLED, 'the snippet is no longer enabled');
($rc, $out) = sh("/usr/sbin/nginx -t -p /usr/share/nginx/ -e $tmp/error2.log -c /etc/nginx/nginx.conf");
is($rc, 0, 'the stock configuration still passes nginx -t') or diag $out;

($rc, $out) = purge();
is($rc, 0, 'dpkg -P') or diag $out;
ok(!-e "$ENABLED.removed" && !-e '/usr/share/nginx/modules-available/mod-http-behave.conf',
   'nothing left after purge');
($rc, $out) = sh("dpkg -s $PKG");
isnt($rc, 0, 'the package is not installed');

done_testing();

