package Behave::Test;

# A small harness for the integration tests (Test::Nginx is not packaged
# in Debian).  Each test file starts its own nginx, and Redis where it
# needs one, on free loopback ports under a temporary prefix, talks real
# HTTP to them, and stops them by pid.  Every nginx it started has its
# error.log read when it stops: one [alert], [crit] or [emerg] line in any
# of them fails the test file (exit status 1 after the plan), whatever its
# tests said.

use strict;
use warnings;

use Cwd qw(abs_path);
use Digest::SHA qw(sha256_hex);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use HTTP::Tiny;
use IO::Socket::INET;
use JSON::PP;
use POSIX qw(:sys_wait_h);
use Test::More;
use Time::HiRes qw(sleep time);

use Exporter 'import';
our @EXPORT = qw(
    $TOP $DATA $NGINX free_port start_nginx stop_nginx start_redis stop_redis
    http req_json raw_request error_log keys_file decode_json_ok
    check_error_log nginx_port redis_port redis_cli start_mute_server
    stop_mute_server reload_nginx nginx_prefix on_one_connection
    start_analyze_on master_key_file surfaces_http start_clients wait_clients
    slurp spew
    KEY_ANALYZE KEY_GATEWAY KEY_PORTAL KEY_ALL KEY_QUOTA KEY_OTHER
);
# for the helpers that start an nginx of their own (Behave::Cluster)
our @EXPORT_OK = qw(wait_port write_nginx_conf spawn_nginx);

our $TOP = abs_path(dirname(__FILE__) . '/../../..');
our $DATA = $ENV{BEHAVE_DATA} // abs_path("$TOP/..") . '/shared/data';
# the nginx binary (scripts/asan-nginx points it at a sanitized build;
# BEHAVE_MODULE, below, at the module built with it)
our $NGINX = $ENV{BEHAVE_NGINX} // '/usr/sbin/nginx';

use constant KEY_ANALYZE => 'bk_test_analyze_0123456789abcdef';
use constant KEY_GATEWAY => 'bk_test_gateway_0123456789abcdef';
use constant KEY_PORTAL  => 'bk_test_portal_0123456789abcdef0';
use constant KEY_ALL     => 'bk_test_all_0123456789abcdef0123';
use constant KEY_QUOTA   => 'bk_test_quota_0123456789abcdef01';
use constant KEY_OTHER   => 'bk_test_other_0123456789abcdef01';

my $JSON = JSON::PP->new->canonical->utf8;
my %state;
my %bad_lines;          # prefix => [ lines ]
my $owner = $$;

# forked clients must not stop the servers of their parent
END {
    if ($$ == $owner) {
        my $status = $?;
        stop_nginx();
        stop_redis();
        stop_mute_server($_) for keys %{ $state{mute} // {} };
        $? = $status;
        fail_on_bad_lines();
    }
}


# what stop_nginx() found in the error logs: a test file with one fails
sub fail_on_bad_lines {
    my @bad = map { @$_ } values %bad_lines;
    return unless @bad;
    Test::More::diag("error.log has [alert], [crit] or [emerg]:\n"
        . join "\n", @bad[0 .. ($#bad > 9 ? 9 : $#bad)]);
    $? = 1 if $? == 0;
}


sub scan_error_log {
    my ($prefix) = @_;
    $bad_lines{$prefix} = [ grep { /\[(alert|crit|emerg)\]/ }
                            split /\n/, slurp("$prefix/logs/error.log") ];
}


sub free_port {
    my $s = IO::Socket::INET->new(
        LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp',
        Listen => 1, ReuseAddr => 1) or die "no free port: $!";
    my $port = $s->sockport;
    close $s;
    return $port;
}


sub keys_file {
    my ($dir) = @_;
    my $f = "$dir/keys";
    open my $fh, '>', $f or die "$f: $!";
    print $fh "# test keys\n";
    printf $fh "%s acme analyze 0\n", sha256_hex(KEY_ANALYZE);
    printf $fh "%s acme gateway 0\n", sha256_hex(KEY_GATEWAY);
    printf $fh "%s acme portal 0\n", sha256_hex(KEY_PORTAL);
    printf $fh "%s acme analyze,gateway,portal 0\n", sha256_hex(KEY_ALL);
    printf $fh "%s small analyze 3\n", sha256_hex(KEY_QUOTA);
    printf $fh "%s globex analyze,gateway,portal 0\n", sha256_hex(KEY_OTHER);
    close $fh;
    return $f;
}


# master_key_file(): a fresh file with the test master key (32 bytes of
# 0x6f in hex), for behave_secret_key

sub master_key_file {
    my $dir = tempdir('behave-key-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    open my $fh, '>', "$dir/master.key" or die "$dir/master.key: $!";
    print $fh ('6f' x 32), "\n";
    close $fh;
    return "$dir/master.key";
}


# surfaces_http(redis => ADDR, trace_sample => N, http => LINES,
# analyze => LINES, server => LINES): the http snippet of a test nginx
# with the three JSON surfaces at their documented paths (/v1/analyze,
# /v1/webhooks, /api/v1/), the test master key and the models catalog.
# Redis is Behave::Test's unless ADDR is given; traces are not sampled
# unless N says so; LINES go into the http block, /v1/analyze's location
# and the server after the three locations.

sub surfaces_http {
    my (%o) = @_;
    my $key = master_key_file();
    my $redis = $o{redis} // '%%REDIS%%';
    my $sample = $o{trace_sample} // 0;
    my ($http, $analyze, $server) =
        map { $_ // '' } @o{qw(http analyze server)};

    return <<"E";
    behave_redis $redis;
    behave_secret_key $key;
    behave_models %%TOP%%/conf/models.json;
    behave_trace_sample $sample;
$http
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; $analyze}
        location /v1/webhooks { behave_webhooks; }
        location /api/v1/ { behave_gateway; }
$server
    }
E
}


# start_nginx(http => '...', main => '...', workers => 2)
# The http snippet may use %%PORT%%, %%PREFIX%%, %%KEYS%%, %%REDIS%%.

sub start_nginx {
    my (%o) = @_;

    stop_nginx();

    my $prefix = tempdir('behave-t-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    make_path("$prefix/logs", "$prefix/conf", "$prefix/tmp");
    chmod 0755, $prefix;

    my $port = $o{port} // free_port();
    write_nginx_conf($prefix, $port, %o);

    if ($o{test_only}) {
        my $out = `$NGINX -t -p $prefix -c $prefix/conf/nginx.conf 2>&1`;
        return ($? == 0, $out);
    }

    my $pid = spawn_nginx($prefix);

    @state{qw(nginx_pid prefix port)} = ($pid, $prefix, $port);

    wait_port($port, 10) or do {
        my $err = slurp("$prefix/logs/stderr.log") . slurp("$prefix/logs/error.log");
        stop_nginx();
        die "nginx did not start:\n$err";
    };

    return $port;
}


# write_nginx_conf(PREFIX, PORT, http => '...', main => '...',
# workers => N): PREFIX/conf/nginx.conf (and its keys file) for a test
# nginx on PORT; the snippets' %%PORT%%, %%PREFIX%%, %%KEYS%%, %%REDIS%%
# (Behave::Test's Redis) and %%TOP%% are replaced.

sub write_nginx_conf {
    my ($prefix, $port, %o) = @_;

    my $keys = keys_file("$prefix/conf");
    my $so = $ENV{BEHAVE_MODULE} // "$TOP/build/ngx_http_behave_module.so";
    die "$so is missing: run scripts/build\n" unless -f $so;

    my $workers = $o{workers} // 2;
    my $user = $> == 0 ? "user root;\n" : '';
    my $http = $o{http} // '';
    my $redis = $state{redis_port} ? "127.0.0.1:$state{redis_port}" : '';

    for ($http, $o{main}) {
        next unless defined;
        s/%%PORT%%/$port/g;
        s/%%PREFIX%%/$prefix/g;
        s/%%KEYS%%/$keys/g;
        s/%%REDIS%%/$redis/g;
        s/%%TOP%%/$TOP/g;
    }

    my $conf = <<"CONF";
load_module $so;
$user
worker_processes $workers;
daemon off;
master_process on;
pid $prefix/logs/nginx.pid;
error_log $prefix/logs/error.log info;
@{[ $o{main} // '' ]}
events { worker_connections 1024; }

http {
    access_log off;
    client_body_temp_path $prefix/tmp/body;
    proxy_temp_path $prefix/tmp/proxy;
    fastcgi_temp_path $prefix/tmp/fastcgi;
    uwsgi_temp_path $prefix/tmp/uwsgi;
    scgi_temp_path $prefix/tmp/scgi;

    $http
}
CONF

    open my $fh, '>', "$prefix/conf/nginx.conf" or die $!;
    print $fh $conf;
    close $fh;
}


# spawn_nginx(PREFIX): nginx in the foreground of a child process, its
# output in PREFIX/logs; returns the pid

sub spawn_nginx {
    my ($prefix) = @_;

    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open STDOUT, '>', "$prefix/logs/stdout.log";
        open STDERR, '>', "$prefix/logs/stderr.log";
        exec $NGINX, '-p', $prefix, '-c', "$prefix/conf/nginx.conf";
        exit 127;
    }

    return $pid;
}


# start_analyze_on(REDIS_PORT, TIMEOUT, workers => N): nginx with one
# /v1/analyze location whose Redis is 127.0.0.1:REDIS_PORT (a mute server,
# a stopped one...), commands timing out after TIMEOUT

sub start_analyze_on {
    my ($redis_port, $timeout, %o) = @_;
    my $port = start_nginx(%o, http => <<"E");
    behave_redis 127.0.0.1:$redis_port;
    behave_redis_timeout $timeout;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
    }
E
    sleep 0.3;      # the workers connect, or fail to
    return $port;
}


# start_clients(N, CODE): N client processes at once, the i-th running
# CODE->(i) for i in 1..N and failing when it returns false; their pids,
# for wait_clients()

sub start_clients {
    my ($n, $code) = @_;
    my @pids;

    for my $i (1 .. $n) {
        my $pid = fork // die "fork: $!";
        if ($pid == 0) {
            exit($code->($i) ? 0 : 1);
        }
        push @pids, $pid;
    }

    return @pids;
}


# wait_clients(PIDS): waits for every client; how many failed

sub wait_clients {
    my $failed = 0;
    for (@_) { waitpid($_, 0); $failed++ if $? }
    return $failed;
}


# graceful stop (QUIT); returns the seconds it took, or undef if killed

sub stop_nginx {
    my $pid = delete $state{nginx_pid} or return;
    my $t0 = time;
    my $took;
    kill 'QUIT', $pid;
    my $deadline = time + 10;
    while (time < $deadline) {
        if (waitpid($pid, WNOHANG) == $pid) {
            $took = time - $t0;
            last;
        }
        sleep 0.05;
    }
    if (!defined $took) {
        kill 'KILL', $pid;
        waitpid($pid, 0);
    }
    scan_error_log($state{prefix});
    return $took;
}


# "nginx -s reload": the master reads the configuration again
sub reload_nginx {
    my $pid = $state{nginx_pid} or die "no nginx";
    my $before = () = error_log() =~ /start worker process/g;
    kill 'HUP', $pid;
    my $deadline = time + 10;
    while (time < $deadline) {
        my $now = () = error_log() =~ /start worker process/g;
        last if $now > $before;
        sleep 0.05;
    }
    sleep 0.3;
}


sub start_redis {
    my (%o) = @_;
    my $port = $o{port} // $state{redis_port} // free_port();
    my $dir = $state{redis_dir} //= tempdir('behave-redis-XXXXXX', TMPDIR => 1,
                                            CLEANUP => 1);
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open STDOUT, '>', "$dir/redis.log";
        open STDERR, '>&', \*STDOUT;
        exec 'redis-server', '--port', $port, '--bind', '127.0.0.1',
             '--save', '', '--appendonly', 'no', '--dir', $dir,
             '--daemonize', 'no';
        exit 127;
    }
    @state{qw(redis_pid redis_port)} = ($pid, $port);
    wait_port($port, 10) or die "redis did not start";
    return $port;
}


sub stop_redis {
    my $pid = delete $state{redis_pid} or return;
    kill 'TERM', $pid;
    waitpid($pid, 0);
}


# a TCP server that accepts and reads but never answers (a hung Redis)

sub start_mute_server {
    my $port = free_port();
    my $l = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => $port,
                                  Listen => 16, ReuseAddr => 1) or die $!;
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        my @keep;
        while (my $s = $l->accept) { push @keep, $s }
        exit 0;
    }
    close $l;
    $state{mute}{$pid} = 1;
    return ($port, $pid);
}


sub stop_mute_server {
    my ($pid) = @_;
    kill 'KILL', $pid;
    waitpid($pid, 0);
    delete $state{mute}{$pid};
}


sub redis_cli {
    my $port = $state{redis_port} or die "no redis";
    my $out = `redis-cli -p $port @_ 2>&1`;
    chomp $out;
    return $out;
}


sub nginx_port { $state{port} }
sub nginx_prefix { $state{prefix} }
sub redis_port { $state{redis_port} }


sub wait_port {
    my ($port, $secs) = @_;
    my $deadline = time + $secs;
    while (time < $deadline) {
        my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
                                      PeerPort => $port, Proto => 'tcp');
        if ($s) { close $s; return 1; }
        sleep 0.05;
    }
    return 0;
}


sub http { state_http() }

sub state_http {
    return $state{http} //= HTTP::Tiny->new(timeout => 10, keep_alive => 1);
}


# req_json(METHOD, PATH, body => STR|REF, key => KEY, headers => {...})
# returns a hash: status, headers, body, json (decoded or undef)

sub req_json {
    my ($method, $path, %o) = @_;
    my %h = %{ $o{headers} // {} };
    $h{Authorization} //= "Bearer $o{key}" if defined $o{key};
    my $body = $o{body};
    if (ref $body) {
        $body = $JSON->encode($body);
    }
    if (defined $body) {
        $h{'Content-Type'} //= 'application/json';
    }
    my $url = "http://127.0.0.1:" . ($o{port} // $state{port}) . $path;
    my $res = HTTP::Tiny->new(timeout => $o{timeout} // 10)->request(
        $method, $url, { headers => \%h, defined $body ? (content => $body) : () });
    my $json = eval { JSON::PP->new->utf8->decode($res->{content}) };
    return { status => $res->{status}, headers => $res->{headers},
             body => $res->{content}, json => $json };
}


# sends bytes as they are; returns the raw response

sub raw_request {
    my ($bytes, %o) = @_;
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
        PeerPort => $o{port} // $state{port}, Proto => 'tcp', Timeout => 10)
        or die "connect: $!";
    print $s $bytes;
    shutdown($s, 1) unless $o{keep_open};
    local $/;
    my $resp = <$s> // '';
    close $s;
    return $resp;
}


# on_one_connection([METHOD, PATH, body => STR, key => KEY, headers => {...}],
#                   ...): the requests one after another on one keep-alive
# connection, each sent when the previous answer is read whole; returns a
# hash per request (status, headers, body, json), status undef when the
# connection gave no answer.  pipelined => 1 sends them all at once.

sub on_one_connection {
    my (@reqs) = @_;
    my %o = ref $reqs[-1] eq 'HASH' ? %{ pop @reqs } : ();
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
        PeerPort => $o{port} // $state{port}, Proto => 'tcp', Timeout => 10)
        or die "connect: $!";
    my @raw = map { http_bytes(@$_) } @reqs;
    my @res;
    print $s join '', @raw if $o{pipelined};
    my $buf = '';
    for my $bytes (@raw) {
        print $s $bytes unless $o{pipelined};
        push @res, read_response($s, \$buf);
    }
    close $s;
    return @res;
}


sub http_bytes {
    my ($method, $path, %o) = @_;
    my %h = (Host => 'localhost', %{ $o{headers} // {} });
    $h{Authorization} //= "Bearer $o{key}" if defined $o{key};
    my $body = $o{body};
    $body = $JSON->encode($body) if ref $body;
    if (defined $body) {
        $h{'Content-Type'} //= 'application/json';
        $h{'Content-Length'} = length $body;
    }
    return "$method $path HTTP/1.1\r\n"
        . join('', map { "$_: $h{$_}\r\n" } sort keys %h) . "\r\n"
        . ($body // '');
}


# one response (Content-Length or chunked) from a socket, or status undef
sub read_response {
    my ($s, $buf) = @_;
    my $deadline = time + 10;
    my $fill = sub {
        return 0 if time > $deadline;
        my $n = sysread($s, my $chunk, 65536);
        return 0 unless $n;
        $$buf .= $chunk;
        return 1;
    };
    while ($$buf !~ /\r\n\r\n/) { $fill->() or return { status => undef } }
    $$buf =~ s/^(.*?)\r\n\r\n//s;
    my ($line, @lines) = split /\r\n/, $1;
    my ($status) = $line =~ m{^HTTP/1\.\d (\d+)};
    my %h = map { /^([^:]+):\s*(.*)$/ ? (lc $1 => $2) : () } @lines;
    my $body = '';
    if (defined $h{'content-length'}) {
        while (length $$buf < $h{'content-length'}) {
            $fill->() or return { status => undef };
        }
        $body = substr($$buf, 0, $h{'content-length'}, '');
    } elsif (($h{'transfer-encoding'} // '') =~ /chunked/i) {
        while (1) {
            while ($$buf !~ /\r\n/) { $fill->() or return { status => undef } }
            $$buf =~ s/^([0-9a-fA-F]+)[^\r]*\r\n// or return { status => undef };
            my $n = hex $1;
            while (length $$buf < $n + 2) { $fill->() or return { status => undef } }
            $body .= substr($$buf, 0, $n, '');
            substr($$buf, 0, 2, '');
            last if $n == 0;
        }
    }
    my $json = eval { JSON::PP->new->utf8->decode($body) };
    return { status => $status, headers => \%h, body => $body, json => $json };
}


# the file's content, '' when it cannot be read
sub slurp {
    my ($f) = @_;
    open my $fh, '<', $f or return '';
    local $/;
    my $c = <$fh>;
    return $c // '';
}


# writes the bytes as they are into the file; returns its path
sub spew {
    my ($f, $bytes) = @_;
    open my $fh, '>:raw', $f or die "$f: $!";
    print $fh $bytes;
    close $fh or die "$f: $!";
    return $f;
}


sub error_log { slurp("$state{prefix}/logs/error.log") }


sub check_error_log {
    my ($name) = @_;
    my @bad = grep { /\[(alert|crit|emerg)\]/ } split /\n/, error_log();
    ok(!@bad, ($name // 'error.log') . ' has no [alert], [crit] or [emerg]')
        or diag(join "\n", @bad[0 .. ($#bad > 9 ? 9 : $#bad)]);
}


sub decode_json_ok { eval { JSON::PP->new->utf8->decode($_[0]) } }


1;
