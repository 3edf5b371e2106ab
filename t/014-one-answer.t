#!/usr/bin/perl
# One answer per request, on every surface: a bad body is refused with its
# JSON error, and the next request on the same keep-alive connection (sent
# after the answer, or pipelined behind the bad one) is answered too.  A
# second answer to one request ("header already sent") would close the
# connection and leave an [alert] in error.log, which fails this file.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256);
use MIME::Base64 qw(encode_base64 decode_base64);
use Test::More;

start_redis();

start_nginx(http => surfaces_http(server => <<"E"));
        location /llm/ {
            behave_prefilter on;
            proxy_set_header X-Behave-Status \$behave_status;
            proxy_pass http://127.0.0.1:%%PORT%%/upstream/;
        }
        location /upstream/ { return 200 '{"upstream":"\$http_x_behave_status"}'; }
E

my $CALM = 'Could you tell me when my order ships?';

# the bad bodies every JSON surface refuses; UTF-8 is checked before JSON
my @BAD = (['not JSON', '{"message": '], ['not an object', '[1, 2]'],
           ['not UTF-8', "{\"message\": \"\xff\xfe\"}"]);

sub twice {
    my ($name, $bad, $good, $want, $next_status) = @_;
    for my $mode ('sequential', 'pipelined') {
        my ($r1, $r2) = on_one_connection($bad, $good,
                                          { pipelined => $mode eq 'pipelined' });
        is($r1->{status}, $want, "$name ($mode): refused with $want");
        ok($r1->{json} && $r1->{json}{error}{code},
           "$name ($mode): a JSON error")
            or diag($r1->{body});
        is($r2->{status}, $next_status,
           "$name ($mode): the next request on the connection is answered");
    }
}

# --- Surface B: /v1/analyze
for my $b (@BAD) {
    twice("analyze, $b->[0]",
          [POST => '/v1/analyze', key => KEY_ANALYZE, body => $b->[1]],
          [POST => '/v1/analyze', key => KEY_ANALYZE,
           body => { message => $CALM }], 400, 200);
}
twice('analyze, conversation, not an object',
      [POST => '/v1/analyze', key => KEY_ANALYZE, body => '"x"'],
      [POST => '/v1/analyze', key => KEY_ANALYZE,
       body => { message => $CALM, conversation_id => 'one-answer' }],
      400, 200);

# --- Surface C: the management API
for my $b (@BAD) {
    twice("webhooks POST, $b->[0]",
          [POST => '/v1/webhooks', key => KEY_PORTAL, body => $b->[1]],
          [GET => '/v1/webhooks', key => KEY_PORTAL], 400, 200);
    twice("webhooks PATCH, $b->[0]",
          [PATCH => '/v1/webhooks', key => KEY_PORTAL, body => $b->[1]],
          [GET => '/v1/webhooks', key => KEY_PORTAL], 400, 200);
}

# --- Surface C: the receiver, a signed body that is not a delivery
my $secret = 'whsec_' . encode_base64('s' x 32, '');
my ($ep) = on_one_connection([POST => '/v1/webhooks', key => KEY_PORTAL,
                              body => { secret => $secret,
                                        provider => 'standard' }]);
is($ep->{status}, 201, 'a standard-webhooks endpoint');

my $n = 0;
sub signed {
    my ($body) = @_;
    my $id = 'msg_one_' . $n++;
    my $t = time;
    my $sig = encode_base64(hmac_sha256("$id.$t.$body",
                                        decode_base64(substr($secret, 6))), '');
    return [POST => "/v1/webhooks/$ep->{json}{slug}", body => $body,
            headers => { 'webhook-id' => $id, 'webhook-timestamp' => $t,
                         'webhook-signature' => "v1,$sig" }];
}
for my $b (@BAD[0, 1]) {
    twice("receiver, $b->[0]", signed($b->[1]),
          [GET => '/v1/webhooks', key => KEY_PORTAL], 400, 200);
}
twice('receiver, unknown slug',
      [POST => '/v1/webhooks/AAAAAAAAAAAAAAAAAAAAAAAA', body => '{}'],
      [GET => '/v1/webhooks', key => KEY_PORTAL], 401, 200);

# --- Surface A: every operation of the gateway
my %OPS = ('behavioral-signals' => 'POST', 'orchestrate-models' => 'POST',
           'analyze-behavior' => 'POST', 'adaptive-ui' => 'POST',
           'agent-status' => 'GET', 'observability/traces' => 'GET');
for my $op (sort keys %OPS) {
    for my $b (@BAD) {
        twice("gateway $op, $b->[0]",
              [$OPS{$op} => "/api/v1/$op", key => KEY_GATEWAY,
               body => $b->[1]],
              [GET => '/api/v1/agent-status', key => KEY_GATEWAY], 400, 200);
    }
}

# --- the pre-filter: a body it cannot read goes on unannotated
my ($u1, $u2) = on_one_connection(
    [POST => '/llm/chat', body => '{"messages": '],
    [POST => '/llm/chat', body => { messages => [
        { role => 'user', content => $CALM } ] }]);
is($u1->{status}, 200, 'prefilter, not JSON: passed on');
is($u1->{json}{upstream}, 'unparsed', 'prefilter, not JSON: marked unparsed');
is($u2->{status}, 200, 'prefilter: the next request on the connection');
is($u2->{json}{upstream}, 'ok', 'prefilter: the next request annotated');

unlike(error_log(), qr/header already sent/, 'no second answer logged');
check_error_log();

done_testing();
