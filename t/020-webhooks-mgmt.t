#!/usr/bin/perl
# Surface C management: POST/GET/PATCH /v1/webhooks with portal keys,
# tenants kept apart, the secret sealed and never shown.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

my $key = master_key_file();

start_redis();
my $conf = <<"E";
    behave_redis %%REDIS%%;
    behave_redis_timeout 300ms;
    behave_secret_key $key;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/webhooks { behave_webhooks; behave_max_body_size 4m; }
        location /pub/v1/webhooks {
            behave_webhooks;
            behave_public_url https://hooks.example.com/;
        }
    }
E
my $port = start_nginx(http => $conf);

my $SECRET = 'wsec_' . 'Zq8' x 8 . $$;
my @bodies;
sub post { my $r = req_json(POST => '/v1/webhooks', @_); push @bodies, $r->{body} // ''; $r }

# auth
is(post(body => { secret => $SECRET })->{status}, 401, 'no key: 401');
my $r = post(key => KEY_ANALYZE, body => { secret => $SECRET });
is($r->{status}, 403, 'key without portal scope: 403');
is($r->{json}{error}{code}, 'forbidden', 'error shape: error.code');

# validation
$r = post(key => KEY_PORTAL, body => { description => 'x' });
is($r->{status}, 400, 'missing secret: 400');
is($r->{json}{error}{code}, 'missing_field', 'missing secret: missing_field');
$r = post(key => KEY_PORTAL, body => { secret => 'short-secret' });
is($r->{status}, 400, '12-byte secret: 400');
is($r->{json}{error}{code}, 'invalid_field', 'short secret: invalid_field');
like($r->{json}{error}{message}, qr/16/, 'message gives the minimum');
unlike($r->{body}, qr/short-secret/, 'error does not echo the secret');
is(post(key => KEY_PORTAL, body => { secret => 123456789012345678 })->{status},
   400, 'non-string secret: 400');
is(post(key => KEY_PORTAL, body => { secret => $SECRET, provider => 'twilio' })->{status},
   400, 'unknown provider: 400');
is(post(key => KEY_PORTAL, body => { secret => $SECRET, auth => 'shared_secret' })->{status},
   400, 'shared_secret auth without vapi: 400');
is(post(key => KEY_PORTAL, body => { secret => 'whsec_not*base64*at*all!!', provider => 'standard' })->{status},
   400, 'standard secret that does not decode: 400');
is(post(key => KEY_PORTAL, body => { secret => 'whsec_' . 'QUFB' x 2, provider => 'standard' })->{status},
   400, 'standard secret under 16 bytes: 400');
is(post(key => KEY_PORTAL, body => { secret => $SECRET, description => 'd' x 300 })->{status},
   400, 'description over 256 bytes: 400');
is(post(key => KEY_PORTAL, body => '{"secret":')->{status}, 400, 'bad JSON: 400');
is(req_json(POST => '/v1/webhooks', key => KEY_PORTAL, body => 'x',
            headers => { 'Content-Type' => 'text/plain' })->{status}, 415,
   'not JSON: 415');

# create
$r = post(key => KEY_PORTAL, body => { secret => $SECRET, description => 'clinic line' });
is($r->{status}, 201, 'create: 201');
my $ep = $r->{json};
like($ep->{id}, qr/^wh_[0-9a-f]{32}$/, 'id wh_ + 128 bits');
like($ep->{slug}, qr/^[A-Za-z0-9_-]{24}$/, 'slug: 24 URL-safe characters (144 bits)');
unlike($ep->{slug}, qr/acme/i, 'slug carries no account name');
is($ep->{receiver_url}, "http://127.0.0.1:$port/v1/webhooks/$ep->{slug}",
   'receiver_url from scheme and Host');
is($ep->{provider}, 'elevenlabs', 'provider defaults to elevenlabs');
ok(JSON::PP::is_bool($ep->{active}) && $ep->{active}, 'active true');
is($ep->{description}, 'clinic line', 'description');
like($ep->{created_at}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'created_at ISO 8601');
ok(!exists $ep->{secret}, 'no secret field');

my $r2 = post(key => KEY_PORTAL, body => { secret => $SECRET, provider => 'vapi', auth => 'shared_secret' });
is($r2->{status}, 201, 'vapi shared_secret: 201');
is($r2->{json}{auth}, 'shared_secret', 'auth echoed');
isnt($r2->{json}{slug}, $ep->{slug}, 'slugs differ');
my $std = post(key => KEY_PORTAL, body => { secret => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', provider => 'standard' });
is($std->{status}, 201, 'standard whsec_ secret: 201');

$r = req_json(POST => '/pub/v1/webhooks', key => KEY_PORTAL, body => { secret => $SECRET });
is($r->{json}{receiver_url}, "https://hooks.example.com/v1/webhooks/$r->{json}{slug}",
   'receiver_url from behave_public_url');
push @bodies, $r->{body};

# the secret at rest: sealed, bound to the id
my $sealed = redis_cli('HGET', "'behave:wh:{acme}:ep:$ep->{id}'", 'secret');
like($sealed, qr/^v1:[A-Za-z0-9+\/=]+$/, 'stored sealed (v1:base64)');
unlike($sealed, qr/\Q$SECRET\E/, 'not stored in clear');
is(redis_cli('GET', "behave:wh:slug:$ep->{slug}"), "acme $ep->{id}", 'slug index');

# list, per tenant
$r = req_json(GET => '/v1/webhooks', key => KEY_PORTAL);
push @bodies, $r->{body};
is($r->{status}, 200, 'GET: 200');
my @mine = grep { $_->{id} eq $ep->{id} } @{ $r->{json}{webhooks} };
is(scalar @mine, 1, 'GET lists the endpoint');
is(ref $mine[0]{deliveries}, 'ARRAY', 'with its deliveries');
is(scalar @{ $r->{json}{webhooks} }, 4, 'all four of acme');
$r = req_json(GET => '/v1/webhooks', key => KEY_OTHER);
is($r->{status}, 200, 'GET other tenant: 200');
is(scalar @{ $r->{json}{webhooks} }, 0, 'other tenant sees none of acme');

# patch
$r = req_json(PATCH => "/v1/webhooks?id=$ep->{id}", key => KEY_OTHER, body => { active => JSON::PP::false });
is($r->{status}, 404, "another tenant's id: 404");
is($r->{json}{error}{code}, 'not_found', '404 code');
$r = req_json(PATCH => "/v1/webhooks?id=wh_doesnotexist", key => KEY_PORTAL, body => { active => JSON::PP::false });
is($r->{status}, 404, 'unknown id: 404');
is(req_json(PATCH => "/v1/webhooks?id=../x", key => KEY_PORTAL, body => {})->{status}, 404,
   'malformed id: 404');
is(req_json(PATCH => '/v1/webhooks', key => KEY_PORTAL, body => { active => JSON::PP::false })->{status},
   400, 'PATCH without id: 400');
is(req_json(PATCH => "/v1/webhooks?id=$ep->{id}", key => KEY_PORTAL, body => { active => 'no' })->{status},
   400, 'active not boolean: 400');
$r = req_json(PATCH => "/v1/webhooks?id=$ep->{id}", key => KEY_PORTAL,
              body => { active => JSON::PP::false, description => 'paused for now' });
push @bodies, $r->{body};
is($r->{status}, 200, 'pause: 200');
ok(!$r->{json}{active}, 'active false');
is($r->{json}{description}, 'paused for now', 'description changed');
like($r->{json}{updated_at}, qr/Z$/, 'updated_at set');
is($r->{json}{slug}, $ep->{slug}, 'slug kept');
$r = req_json(GET => '/v1/webhooks', key => KEY_PORTAL);
@mine = grep { $_->{id} eq $ep->{id} } @{ $r->{json}{webhooks} };
ok(!$mine[0]{active}, 'GET shows it paused');
$r = req_json(PATCH => "/v1/webhooks?id=$ep->{id}", key => KEY_PORTAL, body => { active => JSON::PP::true });
ok($r->{json}{active}, 'resume');
is($r->{json}{description}, 'paused for now', 'description kept on resume');

# methods
$r = req_json(DELETE => '/v1/webhooks', key => KEY_PORTAL);
is($r->{status}, 405, 'DELETE: 405');
is($r->{headers}{allow}, 'GET, POST, PATCH', 'Allow header');
is($r->{json}{error}{code}, 'method_not_allowed', '405 error shape');
is(req_json(GET => "/v1/webhooks/$ep->{slug}")->{status}, 405, 'GET on receiver: 405');
is(req_json(POST => '/v1/webhooks/a/b', body => '{}')->{status}, 401,
   'slug with a slash: 401 like any unknown slug');
is(req_json(GET => '/v1/webhooksX', key => KEY_PORTAL)->{status}, 404, 'other path: 404');

# Redis down: 503 with Retry-After
stop_redis();
$r = post(key => KEY_PORTAL, body => { secret => $SECRET });
is($r->{status}, 503, 'create with Redis down: 503');
ok($r->{headers}{'retry-after'}, 'Retry-After');
is(req_json(GET => '/v1/webhooks', key => KEY_PORTAL)->{status}, 503, 'list with Redis down: 503');
start_redis();

ok(!grep({ /\Q$SECRET\E/ } @bodies), 'secret in no response');
unlike(error_log(), qr/\Q$SECRET\E|Zq8Zq8/, 'secret not in error.log');
check_error_log();

done_testing();
