#!/usr/bin/perl
# /v1/analyze echoes "metadata" byte for byte as sent: the raw span of
# the request body is copied, never parsed and printed again (which would
# turn 1e400 into null and 1.50 into 1.5), with and without Redis.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

start_redis();
start_nginx(workers => 1, http => <<'E');
    behave_redis %%REDIS%%;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
    }
E

my @metadata = (
    '{"big":1e400,"price":1.50,"neg":-0,"exp":2E-3}',
    "{ \"spaced\" :\t[1 , 2]\n, \"nested\":{\"a\":[{\"b\":null}]} }",
    '{"esc":"caf\u00e9 \"q\" \\\\ \/","raw":"café ✓"}',
    '{"dup":1,"dup":2}',
    '{}',
);

my $n = 0;
for my $meta (@metadata) {
    for my $conv (undef, 'conv-meta-' . $$ . '-' . ++$n) {
        my $body = '{"message":"I was charged twice, please fix it"'
            . (defined $conv ? qq{,"conversation_id":"$conv"} : '')
            . qq{,"metadata":$meta}
            . ',"speaker":"customer"}';
        my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => $body);
        my $what = defined $conv ? 'with a conversation' : 'stateless';
        is($r->{status}, 200, "metadata $n ($what): 200") or diag $r->{body};
        ok(index($r->{body}, qq{"metadata":$meta}) >= 0,
           "... echoed byte for byte") or diag $r->{body};
        ok(defined decode_json_ok($r->{body}), '... in a JSON answer');
    }
}

# the first of two metadata members is the one echoed (as cJSON reads it)
my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                 body => '{"message":"hello","metadata":{"first":1.0},"metadata":{"second":2}}');
like($r->{body}, qr/"metadata":\{"first":1\.0\}/, 'duplicate member: the first, as sent');

# not an object: refused as before
$r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
              body => '{"message":"hello","metadata":[1.50]}');
is($r->{status}, 400, 'metadata an array: 400');
is($r->{json}{error}{code}, 'invalid_field', '... invalid_field');

# absent and null: no metadata in the answer
for my $b ('{"message":"hello"}', '{"message":"hello","metadata":null}') {
    $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => $b);
    ok($r->{status} == 200 && $r->{body} !~ /"metadata"/, "no metadata echoed for $b");
}

check_error_log();
done_testing();
