package Behave::Echo;

# A test upstream for the pre-filter's tests: a forked perl HTTP server on
# a free loopback port that answers every request with JSON naming the
# method, the URI, the headers it got and the SHA-256 and length of the
# body it got, so a test proves what reached "the model" and that the
# body was unchanged.  A URI with "/stream" is answered as a stream of
# server-sent events, one every STREAM_GAP seconds (chunked), for the
# tests that the answer still goes out as it comes.  Stopped by pid at
# the end of the test file.

use strict;
use warnings;

use Digest::SHA qw(sha256_hex);
use IO::Socket::INET;
use JSON::PP;
use POSIX ();
use Time::HiRes qw(sleep);

use Exporter 'import';
our @EXPORT = qw(start_echo STREAM_GAP);

use constant STREAM_GAP => 0.6;

my $JSON = JSON::PP->new->canonical;
my @pids;
my $owner = $$;

END {
    if ($$ == $owner) {
        local $?;
        for (@pids) { kill 'TERM', $_; waitpid($_, 0); }
    }
}


# start_echo(): the port it listens on
sub start_echo {
    my $srv = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
        Proto => 'tcp', Listen => 64, ReuseAddr => 1) or die "listen: $!";
    my $port = $srv->sockport;
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        while (my $c = $srv->accept) {
            eval { serve($c) };
            close $c;
        }
        POSIX::_exit(0);
    }
    close $srv;
    push @pids, $pid;
    return $port;
}


sub serve {
    my ($c) = @_;
    binmode $c;
    local $/ = "\r\n";
    my $line = <$c> // return;
    my ($method, $uri) = split ' ', $line;
    my %h;
    while (defined(my $l = <$c>)) {
        last if $l eq "\r\n";
        $l =~ s/\r\n\z//;
        my ($k, $v) = split /:\s*/, $l, 2;
        $h{lc $k} = $v;
    }
    my $body = '';
    if (defined $h{'content-length'}) {
        read_n($c, \$body, $h{'content-length'});
    } elsif (($h{'transfer-encoding'} // '') =~ /chunked/i) {
        while (defined(my $size = <$c>)) {
            $size = hex $size;
            last if $size == 0;
            read_n($c, \$body, $size);
            <$c>;
        }
    }
    my $resp = $JSON->encode({ method => $method, uri => $uri, headers => \%h,
                               sha256 => sha256_hex($body),
                               length => length $body });
    if ($uri =~ m{/stream}) {
        $c->autoflush(1);
        print $c "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
               . "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        for my $ev ("data: $resp\n\n", "data: [DONE]\n\n") {
            printf $c "%x\r\n%s\r\n", length $ev, $ev;
            sleep STREAM_GAP;
        }
        print $c "0\r\n\r\n";
        return;
    }
    print $c "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
           . "Content-Length: " . length($resp) . "\r\nConnection: close"
           . "\r\n\r\n$resp";
}


sub read_n {
    my ($c, $buf, $n) = @_;
    while ($n > 0) {
        my $got = read($c, $$buf, $n, length $$buf);
        die "short body" unless $got;
        $n -= $got;
    }
}

1;
