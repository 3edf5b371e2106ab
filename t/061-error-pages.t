#!/usr/bin/perl
# nginx's own refusals answer the JSON error shape: the server's
# error_page sends them to an internal location with "behave_error_page"
# (as in conf/behave.conf).  Each case is sent as raw bytes, since most of them
# are refused while nginx reads the header, before any location.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use JSON::PP;
use Test::More;

start_nginx(http => <<'E2');
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        client_max_body_size 64k;
        large_client_header_buffers 4 8k;

        error_page 400 404 405 408 413 414 494 500 501 503 /behave-error;
        location = /behave-error { internal; behave_error_page; }

        location = /v1/analyze { behave_analyze; behave_max_body_size 64k; }
        location /static/ { root %%PREFIX%%; }
        location = /direct { behave_error_page; }
    }

    # the same without error_page: nginx's HTML, the reason for the above
    server {
        listen 127.0.0.1:%%PORT%%;
        server_name plain;
        location = /v1/analyze { behave_analyze; behave_keys %%KEYS%%; }
    }
E2

# status, headers (lower-case names) and decoded JSON of a raw answer
sub parse {
    my ($raw) = @_;
    my ($head, $body) = split /\r\n\r\n/, $raw, 2;
    $head //= '';
    my ($status) = $head =~ m{^HTTP/1\.[01] (\d{3})};
    my %h = map { /^([^:]+):\s*(.*)$/ ? (lc $1 => $2) : () }
            split /\r\n/, $head;
    return ($status // 0, \%h, $body // '',
            scalar eval { JSON::PP->new->decode($body // '') });
}

sub json_error_is {
    my ($raw, $status, $code, $name) = @_;
    my ($st, $h, $body, $j) = parse($raw);
    is($st, $status, "$name: $status");
    is($h->{'content-type'}, 'application/json', "$name: JSON");
    is(ref $j eq 'HASH' && $j->{error}{code}, $code, "$name: code $code")
        or diag $raw;
    ok(ref $j eq 'HASH' && length($j->{error}{message} // ''),
       "$name: a message");
    is($h->{'content-length'}, length $body, "$name: Content-Length")
        if defined $h->{'content-length'};
}

my $key = KEY_ANALYZE;
my $host = "Host: localhost\r\n";

json_error_is(raw_request("GET /v1/analyze?q=" . ('a' x 9000)
                          . " HTTP/1.1\r\n$host\r\n"),
              414, 'uri_too_long', 'a 9 KB request line');

json_error_is(raw_request("POST /v1/analyze HTTP/1.1\r\n$host"
                          . "X-Big: " . ('b' x 9000) . "\r\n\r\n"),
              400, 'bad_request', 'a 9 KB header line');

json_error_is(raw_request("POST /v1/analyze HTTP/1.1\r\n$host"
                          . join('', map { "X-H$_: " . ('c' x 4000) . "\r\n" }
                                 1 .. 10) . "\r\n"),
              400, 'bad_request', 'a 40 KB header');

json_error_is(raw_request("GET /v1/analyze%00 HTTP/1.1\r\n$host\r\n"),
              400, 'bad_request', '%00 in the URI');

json_error_is(raw_request("POST /v1/analyze HTTP/1.1\r\n$host"
                          . "X-Bad: a\0b\r\n\r\n"),
              400, 'bad_request', 'a NUL in a header');

json_error_is(raw_request("POST /v1/analyze HTTP/1.1\r\n$host"
                          . "Authorization: Bearer $key\r\n"
                          . "Authorization: Bearer $key\r\n\r\n"),
              400, 'bad_request', 'Authorization twice');

json_error_is(raw_request("THIS IS NOT HTTP\r\n\r\n"),
              400, 'bad_request', 'a broken request line');

json_error_is(raw_request("POST /v1/analyze HTTP/1.1\r\n$host"
                          . "Content-Type: application/json\r\n"
                          . "Authorization: Bearer $key\r\n"
                          . "Transfer-Encoding: gzip\r\n\r\n"),
              501, 'not_implemented', 'Transfer-Encoding: gzip');

json_error_is(raw_request("POST /v1/analyze HTTP/1.1\r\n$host"
                          . "Content-Length: 5\r\n"
                          . "Transfer-Encoding: chunked\r\n\r\n"),
              400, 'bad_request', 'Content-Length and chunked');

json_error_is(raw_request("GET /v1/analyze/../nothing HTTP/1.1\r\n$host"
                          . "Connection: close\r\n\r\n"),
              404, 'not_found', 'a URI that normalises out of /v1/analyze');

json_error_is(raw_request("GET /v1/../../x HTTP/1.1\r\n$host\r\n"),
              400, 'bad_request', 'a URI above the root');

json_error_is(raw_request("DELETE /static/x HTTP/1.1\r\n$host"
                          . "Connection: close\r\n\r\n"),
              405, 'method_not_allowed', 'DELETE on a static location');

json_error_is(raw_request("POST /v1/analyze HTTP/1.1\r\n$host"
                          . "Authorization: Bearer $key\r\n"
                          . "Content-Type: application/json\r\n"
                          . "Content-Length: 100000\r\n"
                          . "Connection: close\r\n\r\n"),
              413, 'payload_too_large', 'a body over the limit');

json_error_is(raw_request("GET /direct HTTP/1.1\r\n$host"
                          . "Connection: close\r\n\r\n"),
              404, 'not_found', 'the handler reached without an error');

json_error_is(raw_request("GET /behave-error HTTP/1.1\r\n$host"
                          . "Connection: close\r\n\r\n"),
              404, 'not_found', 'the internal error location from outside');

# the module's own answers are untouched by error_page
{
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => '{"message":"x"} trailing');
    is($r->{status}, 400, 'the module\'s own 400');
    is($r->{json}{error}{code}, 'invalid_json', 'keeps its own code');
    $r = req_json(POST => '/v1/analyze', body => '{"message":"x"}');
    is($r->{json}{error}{code}, 'unauthorized', 'and its 401');
}

# a 404 keeps the connection: the next request on it is answered
{
    my $raw = raw_request("GET /nothing HTTP/1.1\r\n$host\r\n"
                          . "POST /v1/analyze HTTP/1.1\r\n$host"
                          . "Authorization: Bearer $key\r\n"
                          . "Content-Type: application/json\r\n"
                          . "Content-Length: 19\r\n"
                          . "Connection: close\r\n\r\n"
                          . '{"message":"hello"}', keep_open => 1);
    my @st = $raw =~ m{HTTP/1\.1 (\d{3}) }g;
    is("@st", "404 200", "after a JSON 404 the keep-alive request is answered") or diag $raw;
}

# HEAD gets the status and no body
{
    my ($st, $h, $body) = parse(raw_request("HEAD /nothing HTTP/1.1\r\n$host"
                                            . "Connection: close\r\n\r\n"));
    is($st, 404, 'HEAD: 404');
    is($body, '', 'HEAD: no body');
}

# without error_page, nginx's page is HTML: what the mapping is for (the
# header must be read to choose this server, so a 404 shows it)
{
    my ($st, $h) = parse(raw_request("GET /nothing HTTP/1.1\r\n"
                                     . "Host: plain\r\n\r\n"));
    is($st, 404, 'plain server: 404');
    like($h->{'content-type'}, qr{^text/html}, 'plain server: HTML');
}

check_error_log();
done_testing();
