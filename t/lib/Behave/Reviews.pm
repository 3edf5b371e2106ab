package Behave::Reviews;

# What the review-queue tests share: an nginx with the webhook receiver,
# /v1/analyze, the read API and the console, and a few processed calls
# and conversations to look at.

use strict;
use warnings;

use Behave::Test;
use Digest::SHA qw(hmac_sha256);
use JSON::PP;
use MIME::Base64 qw(encode_base64 decode_base64);
use Time::HiRes qw(sleep time);

use Exporter 'import';
our @EXPORT = qw(reviews_start endpoint deliver_call analyze_turns
                 wait_review CALL_FALSE_RESOLUTION CALL_ESCALATED CALL_OK);

my $J = JSON::PP->new->canonical;
my $n = 0;

# agent claims the refund done, the customer says it is not
use constant CALL_FALSE_RESOLUTION => [
    [ agent => 'Hello, thanks for calling, how can I help?' ],
    [ customer => 'Hi, I was promised a refund for order 5521 last week.' ],
    [ agent => 'I have processed your refund, it is all sorted now.' ],
    [ customer => 'It is still not there, nothing has come in! '
                  . 'Write to me at jane.doe@example.com' ],
    [ agent => 'I am sorry, let me check again.' ],
    [ customer => 'Please do, I have been waiting for ages.' ],
];

# a crisis: escalated
# a medical emergency during a call (a card fraud worded as urgently sat
# below the risk head's default threshold: docs/quality.md, targets)
use constant CALL_ESCALATED => [
    [ agent => 'Hello, how can I help?' ],
    [ customer => 'My father just collapsed in the shop and he is not '
                  . 'breathing, please help!!' ],
    [ agent => 'I understand, please call an ambulance now.' ],
    [ customer => 'He is still not breathing, the ambulance is not here, '
                  . 'HURRY!!' ],
];

use constant CALL_OK => [
    [ agent => 'Hello, how can I help?' ],
    [ customer => 'I would like to change my delivery address.' ],
    [ agent => 'Done, it is updated.' ],
    [ customer => 'Great, thank you.' ],
];


# starts Redis and nginx; the console is served from html/
sub reviews_start {
    my (%o) = @_;
    my $key = master_key_file();

    start_redis();
    return start_nginx(workers => $o{workers} // 2, http => <<"E");
    behave_redis %%REDIS%%;
    behave_redis_timeout 500ms;
    behave_secret_key $key;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/webhooks { behave_webhooks; behave_redact on; }
        location /v1/analyze { behave_analyze; }
        location /v1/reviews { behave_reviews; }
        location /console/ {
            alias %%TOP%%/html/console/;
            types { text/html html; text/css css;
                    application/javascript js; }
            charset utf-8;
            charset_types text/css application/javascript;
            add_header Content-Security-Policy "default-src 'self'" always;
            add_header X-Content-Type-Options nosniff always;
            add_header Referrer-Policy no-referrer always;
        }
    }
E
}


# a Standard Webhooks endpoint of the key's tenant: { slug, secret }
sub endpoint {
    my ($key) = @_;
    my $secret = 'whsec_' . encode_base64('s' x 32, '');
    my $r = req_json(POST => '/v1/webhooks', key => $key,
                     body => { secret => $secret, provider => 'standard' });
    die "endpoint: $r->{status} $r->{body}" unless $r->{status} == 201;
    return { slug => $r->{json}{slug}, secret => $secret };
}


# delivers a call of [ [speaker, text]... ]; returns the summary
sub deliver_call {
    my ($ep, $turns, %o) = @_;
    my $id = $o{call_id} // 'call-' . $$ . '-' . ++$n;
    my $body = $J->encode({ type => 'call.transcript', data => {
        call_id => $id, verdict => $o{verdict} // 'success',
        transcript => [ map { { speaker => $_->[0], text => $_->[1] } }
                        @$turns ] } });
    my $t = int(time);
    my $msg = 'msg_' . $$ . '_' . $n;
    my $key = decode_base64(substr($ep->{secret}, 6));
    my $sig = 'v1,' . encode_base64(hmac_sha256("$msg.$t.$body", $key), '');
    my $r = req_json(POST => "/v1/webhooks/$ep->{slug}", body => $body,
                     headers => { 'webhook-id' => $msg,
                                  'webhook-timestamp' => $t,
                                  'webhook-signature' => $sig });
    die "deliver: $r->{status} $r->{body}" unless $r->{status} == 200;
    return $r->{json};
}


# sends the turns of a conversation to /v1/analyze; returns the last answer
sub analyze_turns {
    my ($key, $conv, $turns) = @_;
    my $last;
    for my $t (@$turns) {
        $last = req_json(POST => '/v1/analyze', key => $key,
                         body => { message => $t->[1], speaker => $t->[0],
                                   conversation_id => $conv });
        die "analyze: $last->{status} $last->{body}"
            unless $last->{status} == 200;
    }
    return $last->{json};
}


# a conversation is filed in the background: wait until it is there
sub wait_review {
    my ($key, $id, $pred) = @_;
    for (1 .. 50) {
        my $r = req_json(GET => "/v1/reviews/$id", key => $key);
        return $r->{json}
            if $r->{status} == 200 && (!$pred || $pred->($r->{json}));
        sleep 0.05;
    }
    return undef;
}

1;
