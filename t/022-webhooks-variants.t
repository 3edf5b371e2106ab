#!/usr/bin/perl
# Surface C: Svix's own header names for the standard scheme, and Vapi's
# HMAC options (header name, prefix, encoding, signed content) chosen per
# endpoint at registration.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256_hex hmac_sha256);
use JSON::PP;
use MIME::Base64 qw(encode_base64 decode_base64);
use Test::More;

my $key = master_key_file();

start_redis();
start_nginx(workers => 1, http => <<"E");
    behave_redis %%REDIS%%;
    behave_secret_key $key;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/webhooks { behave_webhooks; }
    }
E

my $J = JSON::PP->new->canonical;
my $n = 0;

sub create {
    my (%b) = @_;
    return req_json(POST => '/v1/webhooks', key => KEY_PORTAL, body => \%b);
}

sub vapi_body {
    my $id = 'v' . $$ . 'x' . ++$n;
    return $J->encode({ message => { type => 'end-of-call-report', call => { id => $id },
        artifact => { messages => [
            { role => 'bot', message => 'Hello, how can I help?' },
            { role => 'user', message => 'My internet is down since this morning.' } ] },
        analysis => { summary => 'Outage', successEvaluation => 'true' } } });
}

sub deliver {
    my ($slug, $body, $h) = @_;
    return req_json(POST => "/v1/webhooks/$slug", body => $body, headers => $h);
}

# --- Svix: svix-id / svix-timestamp / svix-signature
my $sw_secret = 'whsec_' . encode_base64('s' x 32, '');
my $std = create(provider => 'standard', secret => $sw_secret);
is($std->{status}, 201, 'standard endpoint created');
ok(!exists $std->{json}{signature}, '... no Vapi options on a standard endpoint');

sub std_sign {
    my ($body, $prefix, %o) = @_;
    my $t = $o{t} // time;
    my $id = 'msg_' . $$ . '_' . ++$n;
    my $sig = 'v1,' . encode_base64(hmac_sha256("$id.$t.$body", decode_base64(substr($sw_secret, 6))), '');
    return { "$prefix-id" => $id, "$prefix-timestamp" => $t, "$prefix-signature" => $sig };
}

my $sbody = $J->encode({ type => 'call.transcript', data => { call_id => 'svx' . $$,
    transcript => [ { speaker => 'customer', text => 'My card was charged twice.' } ] } });
my $r = deliver($std->{json}{slug}, $sbody, std_sign($sbody, 'svix'));
is($r->{status}, 200, 'Svix default names (svix-*): 200') or diag $r->{body};
is($r->{json}{status}, 'processed', '... processed');

$r = deliver($std->{json}{slug}, $sbody, std_sign($sbody, 'webhook'));
is($r->{status}, 200, 'webhook-* names still: 200');
is($r->{json}{status}, 'duplicate', '... the same call: duplicate');

$r = deliver($std->{json}{slug}, $sbody, std_sign($sbody, 'svix', t => time - 600));
is($r->{status}, 401, 'svix-* outside the 5-minute window: 401');

{
    my $h = std_sign($sbody, 'svix');
    my $sig = delete $h->{'svix-signature'};
    $h->{'webhook-signature'} = $sig;
    $r = deliver($std->{json}{slug}, $sbody, $h);
    is($r->{status}, 401, 'a mix of svix-* and webhook-* names: 401');
}

# --- Vapi options at registration
$r = create(provider => 'vapi', secret => 'vapi_secret_' . 'v9' x 8);
is($r->{status}, 201, 'vapi endpoint with defaults');
is_deeply($r->{json}{signature}, { header => 'x-signature', timestamp_header => 'x-timestamp',
    prefix => '', encoding => 'hex', signed => 'timestamp.body' }, '... the defaults shown');

my %bad = (
    'on elevenlabs' => [ provider => 'elevenlabs', signature => { encoding => 'base64' } ],
    'encoding sha1' => [ provider => 'vapi', signature => { encoding => 'sha1' } ],
    'signed url'    => [ provider => 'vapi', signature => { signed => 'url' } ],
    'header x_sig'  => [ provider => 'vapi', signature => { header => 'x_sig' } ],
    'prefix space'  => [ provider => 'vapi', signature => { prefix => 'sha 256=' } ],
    'unknown member' => [ provider => 'vapi', signature => { algorithm => 'sha256' } ],
    'not an object' => [ provider => 'vapi', signature => 'base64' ],
);
for my $k (sort keys %bad) {
    $r = create(secret => 'vapi_secret_' . 'v9' x 8, @{ $bad{$k} });
    is($r->{status}, 400, "signature $k: 400");
    is($r->{json}{error}{code}, 'invalid_field', '... invalid_field');
}

my $secret = 'vapi_hmac_secret_' . 'q' x 12;
my %variant = (
    'x-vapi-signature, sha256=, base64, body' => [
        { header => 'X-Vapi-Signature', prefix => 'sha256=', encoding => 'base64', signed => 'body' },
        sub { my ($b) = @_; { 'x-vapi-signature' => 'sha256=' . encode_base64(hmac_sha256($b, $secret), '') } } ],
    'body only, hex' => [
        { signed => 'body' },
        sub { my ($b) = @_; { 'x-signature' => hmac_sha256_hex($b, $secret) } } ],
    'sha256= prefix, timestamp, hex' => [
        { prefix => 'sha256=' },
        sub { my ($b) = @_; my $t = time;
              { 'x-timestamp' => $t, 'x-signature' => 'sha256=' . hmac_sha256_hex("$t.$b", $secret) } } ],
    'base64, timestamp in x-vapi-timestamp' => [
        { encoding => 'base64', timestamp_header => 'x-vapi-timestamp' },
        sub { my ($b) = @_; my $t = time;
              { 'x-vapi-timestamp' => $t, 'x-signature' => encode_base64(hmac_sha256("$t.$b", $secret), '') } } ],
);

for my $k (sort keys %variant) {
    my ($opts, $sign) = @{ $variant{$k} };
    my $ep = create(provider => 'vapi', secret => $secret, signature => $opts);
    is($ep->{status}, 201, "vapi $k: registered") or diag $ep->{body};
    my $body = vapi_body();
    $r = deliver($ep->{json}{slug}, $body, $sign->($body));
    is($r->{status}, 200, "vapi $k: signed delivery 200") or diag $r->{body};
    is($r->{json}{status}, 'processed', '... processed');

    my $h = $sign->($body);
    my ($name) = grep { /signature/ } keys %$h;
    # the digest's first character, another value in hex and in base64
    # alike (a last one may be padding bits, or a case hex ignores)
    my $at = length($opts->{prefix} // '');
    substr($h->{$name}, $at, 1) = substr($h->{$name}, $at, 1) eq '0' ? '1' : '0';
    $r = deliver($ep->{json}{slug}, $body, $h);
    is($r->{status}, 401, "vapi $k: one character of the signature changed 401");
    $r = deliver($ep->{json}{slug}, vapi_body(), $sign->('{"other":1}'));
    is($r->{status}, 401, "vapi $k: a signature of other bytes 401");
}

# the default scheme's headers do not pass an endpoint set to other ones
my $ep = create(provider => 'vapi', secret => $secret,
                signature => { header => 'x-vapi-signature', signed => 'body' });
is($ep->{json}{signature}{header}, 'x-vapi-signature', 'header name stored lowercase');
my $body = vapi_body();
my $t = time;
$r = deliver($ep->{json}{slug}, $body,
             { 'x-timestamp' => $t, 'x-signature' => hmac_sha256_hex("$t.$body", $secret) });
is($r->{status}, 401, 'default x-signature on an x-vapi-signature endpoint: 401');
is($r->{json}{error}{code}, 'unauthorized', '... unauthorized');

# the list shows the options
$r = req_json(GET => '/v1/webhooks', key => KEY_PORTAL);
my ($listed) = grep { $_->{id} eq $ep->{json}{id} } @{ $r->{json}{webhooks} };
is_deeply($listed->{signature}, { header => 'x-vapi-signature', timestamp_header => 'x-timestamp',
    prefix => '', encoding => 'hex', signed => 'body' }, 'GET /v1/webhooks lists the options');

check_error_log();
done_testing();
