#!/usr/bin/perl
# No API key and no webhook secret in any log, at the levels docs/API.md
# ("What the logs hold") allows: every surface is driven with every test
# key and with secrets, honestly and abusively (the header lines nginx
# itself quotes when it refuses them: a duplicate Authorization, a NUL in
# it, a line too long), with the logging of conf/behave.conf: notice for
# the server, info inside the behave locations.  Then every file under
# the logs directory is searched for every key and secret.
#
# The second server logs at info for the whole server, as docs/API.md
# warns against: there nginx core does write the key, which is why the
# example configuration is as it is.  That log is checked apart.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Digest::SHA qw(hmac_sha256_hex);
use File::Temp qw(tempdir);
use Test::More;

my $dir = tempdir('behave-ns-XXXXXX', TMPDIR => 1, CLEANUP => 1);
open my $fh, '>', "$dir/master.key" or die;
print $fh ('6f' x 32), "\n";
close $fh;

my @KEYS = (KEY_ANALYZE, KEY_GATEWAY, KEY_PORTAL, KEY_ALL, KEY_QUOTA,
            KEY_OTHER);
my %SECRET = (elevenlabs => 'el_secret_nolog_' . 'q8' x 10,
              vapi       => 'vapi_secret_nolog_' . 'z4' x 10,
              bad        => 'bad_secret_nolog_' . 'x1' x 10);

start_redis();
my $port = start_nginx(http => <<"E2");
    behave_redis %%REDIS%%;
    behave_secret_key $dir/master.key;
    behave_trace_sample 1;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        error_log %%PREFIX%%/logs/behave.log notice;

        error_page 400 404 405 408 413 414 494 500 501 503 /behave-error;
        location = /behave-error {
            internal;
            behave_error_page;
            error_log %%PREFIX%%/logs/behave.log info;
        }

        location = /v1/analyze {
            behave_analyze;
            error_log %%PREFIX%%/logs/behave.log info;
        }
        location /v1/webhooks {
            behave_webhooks;
            error_log %%PREFIX%%/logs/behave.log info;
        }
        location /api/v1/ {
            behave_gateway;
            error_log %%PREFIX%%/logs/behave.log info;
        }
    }
    server {
        listen 127.0.0.1:%%PORT%%;
        server_name verbose;
        behave_keys %%KEYS%%;
        error_log %%PREFIX%%/logs/verbose.log info;
        location = /v1/analyze { behave_analyze; }
    }
E2

my $H = "Host: localhost\r\n";

sub raw { raw_request($_[0], keep_open => 0) }

# --- every key, honest and abusive, on every surface
for my $k (@KEYS) {
    req_json(POST => '/v1/analyze', key => $k, body => { message => 'hello there' });
    req_json(POST => '/v1/analyze', key => $k, body => '{"message":"x"} trailing');
    req_json(POST => '/v1/analyze', key => "$k-wrong", body => { message => 'x' });
    req_json(POST => '/api/v1/behavioral-signals', key => $k,
             body => { signals => { semantic => { text => 'help me' } } });
    req_json(POST => '/api/v1/analyze-behavior', key => $k, body => '[1]');
    req_json(GET => '/v1/webhooks', key => $k);

    for my $path ('/v1/analyze', '/api/v1/adaptive-ui', '/v1/webhooks') {
        raw("POST $path HTTP/1.1\r\n$H"
            . "Authorization: Bearer $k\r\nAuthorization: Bearer $k\r\n\r\n");
        raw("POST $path HTTP/1.1\r\n$H" . "Authorization: Bearer $k\0\r\n\r\n");
        raw("POST $path HTTP/1.1\r\n$H"
            . "Authorization: Bearer $k" . ('y' x 9000) . "\r\n\r\n");
        raw("POST $path HTTP/1.1\r\n$H"
            . "X-Note\x01: Bearer $k\r\nAuthorization: Bearer $k\r\n\r\n");
        raw("GET $path HTTP/1.1\r\n$H" . "Authorization: Bearer $k\r\n"
            . "Transfer-Encoding: gzip\r\n\r\n");
    }
}

# --- webhook secrets: created, refused, used, and abused in headers
my %slug;
for my $p (qw(elevenlabs vapi)) {
    my $r = req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
                     body => { provider => $p, secret => $SECRET{$p},
                               $p eq 'vapi' ? (auth => 'shared_secret') : () });
    is($r->{status}, 201, "$p endpoint created");
    $slug{$p} = $r->{json}{slug};
}
req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
         body => '{"secret":"' . $SECRET{bad} . '"} trailing');
req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
         body => { secret => $SECRET{bad}, provider => 'nope' });
req_json(POST => '/v1/webhooks', key => KEY_PORTAL,
         body => { secret => 'whsec_' . $SECRET{bad}, provider => 'standard' });
{
    my $b = '{"type":"post_call_transcription","data":{"conversation_id":"c1",'
          . '"transcript":[{"role":"user","message":"hi"}]}}';
    my $t = time;
    for my $secret ($SECRET{elevenlabs}, $SECRET{bad}) {
        req_json(POST => "/v1/webhooks/$slug{elevenlabs}", body => $b,
                 headers => { 'ElevenLabs-Signature' =>
                              "t=$t,v0=" . hmac_sha256_hex("$t.$b", $secret) });
    }
    for my $secret ($SECRET{vapi}, $SECRET{bad}) {
        req_json(POST => "/v1/webhooks/$slug{vapi}", body => $b,
                 headers => { 'X-Vapi-Secret' => $secret });
        raw("POST /v1/webhooks/$slug{vapi} HTTP/1.1\r\n$H"
            . "X-Vapi-Secret: $secret\0\r\n\r\n");
        raw("POST /v1/webhooks/$slug{vapi} HTTP/1.1\r\n$H"
            . "X-Vapi-Secret: $secret" . ('s' x 9000) . "\r\n\r\n");
    }
}

# the verbose server, once, with one key
raw("POST /v1/analyze HTTP/1.1\r\nHost: verbose\r\n"
    . "Authorization: Bearer " . KEY_QUOTA . "\r\n"
    . "Authorization: Bearer " . KEY_QUOTA . "\r\n\r\n");

sleep 1;    # the last lines are written when the requests end
stop_nginx();

# --- the search
my $logs = nginx_prefix() . '/logs';
opendir my $dh, $logs or die "$logs: $!";
my @files = grep { -f "$logs/$_" && $_ ne 'verbose.log' } readdir $dh;
closedir $dh;

ok(scalar(grep { $_ eq 'behave.log' } @files), 'the server log was written');

my $all = '';
for my $f (sort @files) {
    open my $in, '<', "$logs/$f" or die "$f: $!";
    local $/;
    my $text = <$in> // '';
    $all .= $text;
    for my $s (@KEYS, values %SECRET) {
        my $n = () = $text =~ /\Q$s\E/g;
        is($n, 0, "$f: no " . substr($s, 0, 12) . '...');
    }
}

# what is kept at these levels: the module's lines about client mistakes
like($all, qr/behave: 400 invalid_json/, 'the module\'s info lines are kept');
like($all, qr/behave: 401 unauthorized/, 'and its 401 lines');
unlike($all, qr/client sent duplicate header line/,
       'nginx core\'s quoting lines are not written at notice');

# the contrast: at info for the whole server, nginx core writes the key
{
    open my $in, '<', "$logs/verbose.log" or die "verbose.log: $!";
    local $/;
    my $text = <$in> // '';
    like($text, qr/\Q${\ KEY_QUOTA}\E/,
         'at info for a whole server nginx core does quote the key '
         . '(docs/API.md says so)');
}

done_testing();
