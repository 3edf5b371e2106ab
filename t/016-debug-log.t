#!/usr/bin/perl
# With error_log ... debug, the debug lines tell the story of a request:
# a conversation turn (the script sent by name, Redis's reply, the
# answer), a webhook delivery and its duplicate (slug, endpoint,
# signature, event, commit, outcome) and a gateway call (operation, key,
# limits, the answer), each on its request's connection; never a text
# the request carried.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256);
use JSON::PP;
use MIME::Base64 qw(encode_base64 decode_base64);
use Test::More;

my $debug = `nginx -V 2>&1` =~ /--with-debug/;
plan skip_all => 'nginx without --with-debug writes no debug line'
    unless $debug;

my $key = master_key_file();

start_redis();
start_nginx(http => <<"E");
    behave_redis %%REDIS%%;
    behave_secret_key $key;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        error_log %%PREFIX%%/logs/story.log debug;
        location = /v1/analyze { behave_analyze; }
        location /v1/webhooks { behave_webhooks; }
        location /api/v1/ { behave_gateway; }
    }
E

sub story { my $f = nginx_prefix() . '/logs/story.log';
            -f $f ? Behave::Test::slurp($f) : '' }

# the lines of one connection: "*N" is nginx's connection number
sub lines_of {
    my ($log, $marker) = @_;
    my ($conn) = $log =~ /\*(\d+) [^\n]*\Q$marker\E/ or return '';
    return join "\n", grep { /\*$conn / } split /\n/, $log;
}

my $secret_text = "my card number is 4111 1111 1111 1111 and I am upset $$";

# --- a conversation turn
my $conv = "dbg-$$";
for my $msg ('Hello, my order never arrived.', $secret_text) {
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => { conversation_id => $conv, message => $msg });
    is($r->{status}, 200, 'conversation turn: 200');
}

my $log = story();
my $turn = lines_of($log, "behave conversation: \"behave:{acme:$conv}:state\"");
like($turn, qr/behave conversation: .* customer turn/, 'turn: the step');
like($turn, qr/behave redis: script redis\.conversation-turn, 2 keys, 10 arguments/,
     'turn: the script, by name');
like($turn, qr/behave redis: send "redis\.conversation-turn"/, 'turn: sent');
like($turn, qr/behave redis: reply to "redis\.conversation-turn": type/,
     'turn: the reply');
like($turn, qr/behave redis: "redis\.conversation-turn" answered in/,
     'turn: answered');
unlike($log, qr/4111/, 'no text of the request in the debug log');

# --- a webhook delivery, then the same again
my $whsec = 'whsec_' . encode_base64('d' x 32, '');
my $ep = req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
                  body => { secret => $whsec, provider => 'standard' });
is($ep->{status}, 201, 'endpoint created');
my $slug = $ep->{json}{slug};

my $body = encode_json({ type => 'call.transcript',
                         data => { call_id => "dbg-$$", verdict => 'success',
                                   transcript => [ { speaker => 'customer',
                                                     text => 'It broke.' } ] } });
my $n = 0;
sub signed {
    my $t = time;
    my $id = "msg_$$" . '_' . ++$n;
    return { 'webhook-id' => $id, 'webhook-timestamp' => $t,
             'webhook-signature' => 'v1,' . encode_base64(
                 hmac_sha256("$id.$t.$body", decode_base64(substr($whsec, 6))), '') };
}

my @r = map { req_json(POST => "/v1/webhooks/$slug", body => $body,
                       headers => signed()) } 1 .. 2;
is($r[0]{json}{status}, 'processed', 'first delivery processed');
is($r[1]{json}{status}, 'duplicate', 'second delivery a duplicate');

$log = story();
my @dl = map { lines_of($log, "behave webhook: delivery to slug \"$slug\"") } 1;
my ($first) = @dl;
like($first, qr/behave webhook: webhook slug/, 'webhook: the slug lookup');
like($first, qr/behave webhook: endpoint wh_\w+ of "acme", provider standard, active/,
     'webhook: the endpoint');
like($first, qr/behave webhook: signature of \d+ bytes verified/, 'webhook: the signature');
like($first, qr/behave webhook: event "call\.transcript" \(transcript\), 1 turns/,
     'webhook: the event');
like($first, qr/behave webhook: commit of call/, 'webhook: the commit');
like($first, qr/behave webhook: commit of endpoint wh_\w+: processed/, 'webhook: processed');
like($log, qr/behave webhook: commit of endpoint wh_\w+: duplicate/, 'webhook: duplicate');

# --- a gateway call
my $g = req_json(POST => '/api/v1/adaptive-ui', key => KEY_ALL,
                 body => { user_id => "u$$", interactions => [] });
ok($g->{status} == 200 || $g->{status} == 400, 'gateway call answered');
$log = story();
my $gw = lines_of($log, 'behave gateway: operation "adaptive-ui"');
like($gw, qr/behave gateway: key of tenant/, 'gateway: the key');
like($gw, qr/behave gateway: body of \d+ bytes/, 'gateway: the body');
like($gw, qr/behave gateway: limits \(\w+\)/, 'gateway: the limits');

check_error_log();
done_testing();
