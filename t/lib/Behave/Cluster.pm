package Behave::Cluster;

# Redis topologies for the tests, on loopback, started and stopped by the
# tests (by pid): a Redis Cluster of N masters, a master with a replica
# watched by sentinels, and a second nginx next to Behave::Test's own.

use strict;
use warnings;

use File::Path qw(make_path);
use File::Temp qw(tempdir);
use IO::Socket::INET;
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(sleep time);

use Behave::Test qw($TOP free_port keys_file);

use Exporter 'import';
our @EXPORT = qw(
    start_cluster cluster_ports cluster_cli stop_node restart_node
    node_of_key start_replicated start_sentinels sentinel_cli
    redis_server kill_server server_cli server_log start_nginx2 stop_nginx2
    wait_until
);

my %st = (servers => {});
my $owner = $$;
my $dir = tempdir('behave-cluster-XXXXXX', TMPDIR => 1, CLEANUP => 1);

END {
    # waitpid() below sets $?, the test file's exit status: keep it
    local $?;
    if ($$ == $owner) {
        stop_nginx2();
        kill_server($_) for keys %{ $st{servers} };
    }
}


# redis_server(port => P, args => [...]): a redis-server in its own dir
sub redis_server {
    my (%o) = @_;
    my $port = $o{port} // free_port();
    my $d = "$dir/$port";
    make_path($d);
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open STDOUT, '>>', "$d/log";
        open STDERR, '>&', \*STDOUT;
        exec $o{bin} // 'redis-server', @{ $o{pre} // [] },
             '--port', $port, '--bind', '127.0.0.1', '--save', '',
             '--dir', $d, '--daemonize', 'no', @{ $o{args} // [] };
        exit 127;
    }
    $st{servers}{$port} = { pid => $pid, %o, port => $port };
    wait_port($port, 10) or die "redis-server on $port did not start";
    return $port;
}

sub kill_server {
    my ($port, $sig) = @_;
    my $s = $st{servers}{$port} or return;
    return unless $s->{pid};
    kill $sig // 'KILL', $s->{pid};
    waitpid($s->{pid}, 0);
    delete $s->{pid};
}

sub server_log {
    my ($port) = @_;
    open my $fh, '<', "$dir/$port/log" or return '';
    local $/;
    return <$fh>;
}

sub server_cli {
    my ($port, @args) = @_;
    my $out = `redis-cli -p $port @args 2>&1`;
    chomp $out;
    return $out;
}

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

sub wait_until {
    my ($secs, $cond) = @_;
    my $deadline = time + $secs;
    while (time < $deadline) {
        return 1 if $cond->();
        sleep 0.1;
    }
    return 0;
}


# --- Redis Cluster

my @CLUSTER_ARGS = ('--cluster-enabled', 'yes', '--cluster-node-timeout',
                    '1500', '--cluster-require-full-coverage', 'no',
                    '--cluster-replica-validity-factor', '0',
                    '--appendonly', 'yes');

# the cluster bus listens on port + 10000: both must be free, and the port
# at most 55535
sub cluster_port {
    for (1 .. 200) {
        my $p = 20000 + int(rand(35000));
        my @s = map {
            IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => $_,
                                  Proto => 'tcp', Listen => 1, ReuseAddr => 1)
        } $p, $p + 10000;
        next if grep { !$_ } @s;
        close $_ for @s;
        return $p;
    }
    die "no free port pair for a cluster node";
}

# start_cluster(N, replicas => R): N masters (and N * R replicas)
sub start_cluster {
    my ($n, %o) = @_;
    my $r = $o{replicas} // 0;
    my @ports = map {
        my $p = cluster_port();
        redis_server(port => $p,
                     args => [@CLUSTER_ARGS, '--cluster-config-file',
                              "nodes-$p.conf"]);
    } 1 .. $n * (1 + $r);
    my $nodes = join ' ', map { "127.0.0.1:$_" } @ports;
    my $out = `redis-cli --cluster create $nodes --cluster-replicas $r --cluster-yes 2>&1`;
    die "cluster create failed:\n$out" if $?;
    wait_until(15, sub {
        !grep { server_cli($_, 'CLUSTER INFO') !~ /cluster_state:ok/ } @ports
    }) or die "the cluster did not become ok";
    # every node must know every other one
    wait_until(10, sub {
        !grep { (() = server_cli($_, 'CLUSTER NODES') =~ /connected/g) < @ports }
            @ports
    });
    $st{cluster} = \@ports;
    return @ports;
}

sub cluster_ports { @{ $st{cluster} // [] } }

sub cluster_cli {
    my ($port, @args) = @_;
    return server_cli($port, @args);
}

sub stop_node { kill_server($_[0], 'TERM') }

# the same port, dir and nodes.conf: it comes back as the same master
sub restart_node {
    my ($port) = @_;
    redis_server(port => $port,
                 args => [@CLUSTER_ARGS, '--cluster-config-file',
                          "nodes-$port.conf"]);
}

# the port of the master that holds a key's slot
sub node_of_key {
    my ($key) = @_;
    my ($live) = grep { $st{servers}{$_}{pid} } cluster_ports();
    my $slot = server_cli($live, 'CLUSTER KEYSLOT', "'$key'");
    for my $line (split /\n/, server_cli($live, 'CLUSTER NODES')) {
        my @f = split / /, $line;
        next unless $f[2] =~ /master/ && $f[2] !~ /fail/;
        my ($port) = $f[1] =~ /:(\d+)/;
        for my $r (@f[8 .. $#f]) {
            my ($a, $b) = split /-/, $r;
            $b //= $a;
            return $port if $a =~ /^\d+$/ && $slot >= $a && $slot <= $b;
        }
    }
    return undef;
}


# --- Sentinel

# a master and a replica, both with appendonly
sub start_replicated {
    my $m = redis_server(args => ['--appendonly', 'yes']);
    my $r = redis_server(args => ['--appendonly', 'yes', '--replicaof',
                                  '127.0.0.1', $m]);
    wait_until(10, sub {
        server_cli($r, 'INFO replication') =~ /master_link_status:up/
    }) or die "the replica did not sync";
    return ($m, $r);
}

# N sentinels watching master NAME at port M; quorum 1 (loopback tests)
sub start_sentinels {
    my ($n, $name, $m) = @_;
    my @ports;
    for (1 .. $n) {
        my $p = free_port();
        my $conf = "$dir/sentinel-$p.conf";
        open my $fh, '>', $conf or die $!;
        print $fh "port $p\nbind 127.0.0.1\n",
                  "sentinel monitor $name 127.0.0.1 $m 1\n",
                  "sentinel down-after-milliseconds $name 1000\n",
                  "sentinel failover-timeout $name 5000\n",
                  "sentinel parallel-syncs $name 1\n";
        close $fh;
        push @ports, redis_server(port => $p, pre => [$conf, '--sentinel']);
    }
    return @ports;
}

sub sentinel_cli { server_cli(@_) }


# --- a second nginx, independent of Behave::Test's

sub start_nginx2 {
    my (%o) = @_;
    stop_nginx2();
    my $prefix = tempdir('behave-t2-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    make_path("$prefix/logs", "$prefix/conf", "$prefix/tmp");
    my $port = free_port();
    my $keys = keys_file("$prefix/conf");
    my $so = $ENV{BEHAVE_MODULE} // "$TOP/build/ngx_http_behave_module.so";
    my $user = $> == 0 ? "user root;\n" : '';
    my $http = $o{http};
    $http =~ s/%%PORT%%/$port/g;
    $http =~ s/%%KEYS%%/$keys/g;
    $http =~ s/%%TOP%%/$TOP/g;
    open my $fh, '>', "$prefix/conf/nginx.conf" or die $!;
    print $fh <<"CONF";
load_module $so;
$user
worker_processes @{[ $o{workers} // 2 ]};
daemon off;
master_process on;
pid $prefix/logs/nginx.pid;
error_log $prefix/logs/error.log info;
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
    close $fh;
    my $pid = fork // die;
    if (!$pid) {
        open STDOUT, '>', "$prefix/logs/stdout.log";
        open STDERR, '>', "$prefix/logs/stderr.log";
        exec $Behave::Test::NGINX, '-p', $prefix, '-c', "$prefix/conf/nginx.conf";
        exit 127;
    }
    @st{qw(n2_pid n2_prefix n2_port)} = ($pid, $prefix, $port);
    wait_port($port, 10) or die "the second nginx did not start";
    return $port;
}

sub stop_nginx2 {
    my $pid = delete $st{n2_pid} or return;
    kill 'QUIT', $pid;
    my $deadline = time + 10;
    while (time < $deadline) {
        return if waitpid($pid, WNOHANG) == $pid;
        sleep 0.05;
    }
    kill 'KILL', $pid;
    waitpid($pid, 0);
}

sub nginx2_error_log {
    open my $fh, '<', "$st{n2_prefix}/logs/error.log" or return '';
    local $/;
    return <$fh>;
}

push @EXPORT, 'nginx2_error_log';


1;
