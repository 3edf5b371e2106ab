#!/usr/bin/perl
# The LLM pre-filter: "behave_prefilter on" in front of a proxied upstream.
# A test upstream (Behave::Echo, a small perl HTTP server) answers with the
# headers it got and the SHA-256 of the body it got, so each case proves
# that the $behave_* headers arrive and that the body is unchanged.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Behave::Echo;
use Digest::SHA qw(sha256_hex);
use IO::Socket::INET;
use JSON::PP;
use File::Temp qw(tempdir);
use POSIX ();
use Test::More;

my $JSON = JSON::PP->new->canonical;

# the access log of the test, where this file can read it
my $LOGDIR = tempdir('behave-pf-XXXXXX', TMPDIR => 1, CLEANUP => 1);
chmod 0777, $LOGDIR;

# HTTP/2 (cleartext, prior knowledge) goes to a second listener
my $H2_PORT = free_port();

my $CALM = 'Could you summarise this article about gardening for me, please?';
my $CRISIS = 'I want to kill myself tonight, I have the pills ready';

my %SETS = (
    valence        => [qw(positive neutral negative mixed)],
    'cognitive-load' => [qw(low moderate high overload)],
    urgency        => [qw(passive low medium high critical)],
    engagement     => [qw(disengaged browsing focused immersed)],
    register       => [qw(formal semi-formal informal crisis)],
    posture        => [qw(standard supportive de-escalate expedite crisis)],
    tone           => [qw(warm neutral formal casual empathetic plain calm)],
    action         => [qw(answer clarify simplify prioritize route_specialist
                          escalate_human)],
);


# --- the test upstream (Behave::Echo) -------------------------------------

my $up_port = start_echo();


# --- nginx -------------------------------------------------------------------

my $headers = join "\n", map {
    my $h = $_; (my $v = $h) =~ s/-/_/g;
    "proxy_set_header X-Behave-\u$h \$behave_$v;"
} qw(valence cognitive-load urgency engagement register posture tone action
     confidence annotation status);

start_nginx(http => <<"E2");
    log_format prefilter '\$request_uri \$behave_status \$behave_urgency';

    map \$behave_urgency \$behave_is_urgent {
        critical  yes;
        high      yes;
        default   no;
    }

    upstream llm {
        server 127.0.0.1:$up_port;
    }

    server {
        listen 127.0.0.1:%%PORT%%;
        listen 127.0.0.1:$H2_PORT http2;
        behave_keys %%KEYS%%;
        client_max_body_size 4m;
        access_log $LOGDIR/prefilter.log prefilter;

        $headers
        proxy_set_header X-Urgent \$behave_is_urgent;

        location = /v1/analyze { behave_analyze; }

        location /v1/ {
            behave_prefilter on;
            behave_prefilter_max_size 2m;
            behave_route urgency_level=critical \@human;
            proxy_pass http://llm;
        }

        location /custom/ {
            behave_prefilter on;
            behave_prefilter_field /payload/0/words;
            behave_route urgency_level=critical \@human;
            proxy_pass http://llm;
        }

        location /small/ {
            behave_prefilter on;
            behave_prefilter_max_size 1k;
            behave_max_message_size 64;
            proxy_pass http://llm;
        }

        location /route-uri/ {
            behave_prefilter on;
            behave_route posture=crisis action=escalate_human
                         /humans/queue?from=prefilter;
            proxy_pass http://llm;
        }

        location /humans/ {
            proxy_pass http://llm;
        }

        location /iff/ {
            behave_prefilter on;
            if (\$behave_posture = crisis) {
                return 200 "if:\$behave_urgency\\n";
            }
            proxy_pass http://llm;
        }

        location /metered/ {
            behave_prefilter on;
            behave_prefilter_tenant small;
            proxy_pass http://llm;
        }

        location /unbuffered/ {
            behave_prefilter on;
            behave_route urgency_level=critical \@human;
            proxy_http_version 1.1;
            proxy_request_buffering off;
            proxy_pass http://llm;
        }

        location /off/ {
            proxy_pass http://llm;
        }

        location \@human {
            add_header X-Behave-Urgency \$behave_urgency always;
            return 200 "human:\$behave_urgency:\$behave_status\\n";
        }
    }
E2


# --- helpers -------------------------------------------------------------------

# POSTs body to path; returns the upstream's echo (or undef) and the reply
sub post {
    my ($path, $body, %o) = @_;
    my $r = req_json(POST => $path, body => $body, %o);
    my $echo = eval { JSON::PP->new->decode($r->{body}) };
    return ($echo, $r);
}

# the request the upstream got is the one sent, with the $behave_* headers
sub passed_ok {
    my ($name, $echo, $body, $status) = @_;
    ok($echo, "$name: reached the upstream") or return;
    is($echo->{sha256}, sha256_hex($body), "$name: body unchanged");
    is($echo->{length}, length $body, "$name: body length unchanged");
    is($echo->{headers}{'x-behave-status'}, $status, "$name: status $status");
}

sub annotated_ok {
    my ($name, $echo) = @_;
    my $h = $echo->{headers} // {};
    for my $f (sort keys %SETS) {
        my $v = $h->{"x-behave-$f"};
        ok(defined $v && grep({ $_ eq $v } @{ $SETS{$f} }),
           "$name: X-Behave-\u$f in its set") or diag explain $h;
    }
    like($h->{'x-behave-confidence'}, qr/^(0|1|0\.\d{1,3})$/,
         "$name: confidence");
    my $a = eval { JSON::PP->new->decode($h->{'x-behave-annotation'}) };
    is(ref $a, 'HASH', "$name: annotation is JSON");
    is($a->{urgency_level}, $h->{'x-behave-urgency'},
       "$name: annotation agrees with urgency");
    is($a->{emotional_valence}, $h->{'x-behave-valence'},
       "$name: annotation agrees with valence");
    is(ref $a->{cultural_context}, 'ARRAY', "$name: cultural_context");
    unlike($h->{'x-behave-annotation'}, qr/\s/, "$name: annotation compact");
    is($h->{'x-urgent'}, 'no', "$name: map of a variable");
}

sub not_annotated_ok {
    my ($name, $echo) = @_;
    my @set = grep { defined $echo->{headers}{"x-behave-$_"} }
              qw(valence urgency posture action confidence annotation);
    is("@set", '', "$name: no annotation headers");
}

# the upstream's echo of a raw HTTP/1.1 request
sub raw_echo {
    my ($req) = @_;
    # no half-close: proxy_pass would take it for a client that left
    my $resp = raw_request($req, keep_open => 1);
    my ($head, $body) = split /\r\n\r\n/, $resp, 2;
    diag $resp if $ENV{PF_DEBUG};
    return (scalar eval { JSON::PP->new->decode($body // "") }, $head // "",
            $body);
}

sub chunked {
    my ($path, $body, $size) = @_;
    my $req = "POST $path HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
            . "Content-Type: application/json\r\n"
            . "Transfer-Encoding: chunked\r\n\r\n";
    for (my $i = 0; $i < length $body; $i += $size) {
        my $c = substr($body, $i, $size);
        $req .= sprintf("%x\r\n%s\r\n", length $c, $c);
    }
    return $req . "0\r\n\r\n";
}


# --- every body format, calm: annotated and passed on ------------------------

my %FORMATS = (
    'openai chat, string content' => ['/v1/chat/completions', sub {
        { model => 'gpt-4o-mini', messages => [
            { role => 'system', content => 'You are a helpful assistant.' },
            { role => 'user', content => 'Hi there' },
            { role => 'assistant', content => 'Hello! How can I help?' },
            { role => 'user', content => $_[0] } ] } }],
    'openai chat, content parts' => ['/v1/chat/completions', sub {
        { model => 'gpt-4o-mini', messages => [
            { role => 'user', content => [
                { type => 'text', text => $_[0] },
                { type => 'image_url',
                  image_url => { url => 'https://example.com/a.png' } } ] } ],
          stream => JSON::PP::true } }],
    'openai responses, input string' => ['/v1/responses', sub {
        { model => 'gpt-4.1', input => $_[0] } }],
    'openai responses, input items' => ['/v1/responses', sub {
        { model => 'gpt-4.1', instructions => 'Be brief.', input => [
            { role => 'user', content => 'earlier question' },
            { type => 'message', role => 'assistant',
              content => [ { type => 'output_text', text => 'answer' } ] },
            { type => 'message', role => 'user',
              content => [ { type => 'input_text', text => $_[0] } ] } ] } }],
    'anthropic, string content' => ['/v1/messages', sub {
        { model => 'claude-sonnet-4', max_tokens => 256,
          system => 'You are kind.',
          messages => [ { role => 'user', content => $_[0] } ] } }],
    'anthropic, content blocks' => ['/v1/messages', sub {
        { model => 'claude-sonnet-4', max_tokens => 256, messages => [
            { role => 'user', content => [
                { type => 'text', text => $_[0] } ] } ] } }],
    'own {"message"}' => ['/v1/own', sub { { message => $_[0] } }],
    'own {"text"}' => ['/v1/own', sub { { text => $_[0] } }],
    'custom pointer' => ['/custom/generate', sub {
        { payload => [ { words => $_[0], lang => 'en' } ],
          messages => [ { role => 'user', content => 'not this one' } ] } }],
);

for my $round (1, 2) {
    for my $name (sort keys %FORMATS) {
        my ($path, $make) = @{ $FORMATS{$name} };
        my $body = $JSON->encode($make->($CALM));
        my ($echo) = post($path, $body);
        passed_ok("$round: $name", $echo, $body, 'ok');
        is($echo->{uri}, $path, "$round: $name: same URI upstream");
        annotated_ok("$round: $name", $echo);
    }
}


# --- critical messages go to @human, in every format ------------------------

for my $round (1, 2) {
    for my $name (sort keys %FORMATS) {
        my ($path, $make) = @{ $FORMATS{$name} };
        my ($echo, $r) = post($path, $JSON->encode($make->($CRISIS)));
        is($r->{status}, 200, "$round: $name, critical: 200");
        is($r->{body}, "human:critical:ok\n",
           "$round: $name, critical: answered by \@human, variables kept")
            or diag $r->{body};
        is($r->{headers}{'x-behave-urgency'}, 'critical',
           "$round: $name, critical: add_header in \@human");
    }
}


# --- a route to a URI, with conditions on two dimensions ------------------------

for my $round (1, 2) {
    my $body = $JSON->encode({ message => $CRISIS });
    my ($echo) = post('/route-uri/x?a=1', $body);
    passed_ok("$round: route to a URI", $echo, $body, 'ok');
    is($echo->{uri}, '/humans/queue?from=prefilter',
       "$round: route to a URI: the target URI and args");
    is($echo->{headers}{'x-behave-urgency'}, 'critical',
       "$round: route to a URI: variables after the redirect");

    $body = $JSON->encode({ message => $CALM });
    ($echo) = post('/route-uri/x?a=1', $body);
    is($echo->{uri}, '/route-uri/x?a=1', "$round: no match: not routed");
}


# --- "if" in the same location sees the annotation ----------------------------

for my $round (1, 2) {
    my ($echo, $r) = post('/iff/x', { message => $CRISIS });
    is($r->{body}, "if:critical\n", "$round: if sees \$behave_posture");

    my $body = $JSON->encode({ message => $CALM });
    ($echo) = post('/iff/x', $body);
    passed_ok("$round: if, no match", $echo, $body, 'ok');
}


# --- 1 MiB body held in a temp file ------------------------------------------------

for my $round (1, 2) {
    my $pad = join ' ', map { "context line $_ of a long document." } 1 .. 30000;
    $pad = substr($pad, 0, 1024 * 1024 - 200);
    my $body = $JSON->encode({ model => 'gpt-4o', messages => [
        { role => 'system', content => $pad },
        { role => 'user', content => $CALM } ] });
    ok(length $body > 1024 * 1024 - 100 && length $body <= 1024 * 1024,
       "$round: the body is about 1 MiB (" . length($body) . ')');
    my ($echo) = post('/v1/chat/completions', $body, timeout => 30);
    passed_ok("$round: 1 MiB", $echo, $body, 'ok');
    annotated_ok("$round: 1 MiB", $echo);

    my (undef, $r) = post('/v1/chat/completions', $JSON->encode({ messages => [
        { role => 'system', content => $pad },
        { role => 'user', content => $CRISIS } ] }), timeout => 30);
    is($r->{body}, "human:critical:ok\n", "$round: 1 MiB, critical: routed");
}
like(error_log(), qr/client request body is buffered to a temporary file/,
     'the 1 MiB bodies were in a temp file');


# --- chunked request bodies ----------------------------------------------------------

for my $round (1, 2) {
    my $body = $JSON->encode({ model => 'm', messages => [
        { role => 'user', content => $CALM } ] });
    my ($echo) = raw_echo(chunked('/v1/chat/completions', $body, 7));
    passed_ok("$round: chunked", $echo, $body, 'ok');
    annotated_ok("$round: chunked", $echo);

    my $big = $JSON->encode({ model => 'm', messages => [
        { role => 'system', content => 'x' x 300_000 },
        { role => 'user', content => $CALM } ] });
    ($echo) = raw_echo(chunked('/v1/chat/completions', $big, 65536));
    passed_ok("$round: chunked, 300 KB in a temp file", $echo, $big, 'ok');

    my (undef, undef, $resp) = raw_echo(chunked('/v1/messages',
        $JSON->encode({ messages => [ { role => 'user', content => $CRISIS } ] }),
        5));
    is($resp, "human:critical:ok\n", "$round: chunked, critical: routed");
}


# --- proxy_request_buffering off: the body was read first, sent whole ----------

for my $round (1, 2) {
    my $body = $JSON->encode({ model => 'm', messages => [
        { role => 'system', content => 'y' x 200_000 },
        { role => 'user', content => $CALM } ] });
    my ($echo) = post('/unbuffered/v1/chat/completions', $body);
    passed_ok("$round: unbuffered", $echo, $body, 'ok');
    ($echo) = raw_echo(chunked('/unbuffered/v1/chat/completions', $body,
                               10_000));
    passed_ok("$round: unbuffered, chunked", $echo, $body, 'ok');
    my (undef, $r) = post('/unbuffered/v1/messages',
                          { messages => [ { role => 'user',
                                            content => $CRISIS } ] });
    is($r->{body}, "human:critical:ok\n", "$round: unbuffered, critical");
}


# --- HTTP/2 ------------------------------------------------------------------------

SKIP: {
    my $v = `curl --version 2>/dev/null` // '';
    skip 'curl with HTTP/2 is not installed', 12 unless $v =~ /HTTP2/;

    my $dir = tempdir('behave-pf-h2-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    for my $round (1, 2) {
        for my $case ([small => $CALM, 1], [large => $CALM, 300_000],
                      [critical => $CRISIS, 1]) {
            my ($name, $msg, $pad) = @$case;
            my $body = $JSON->encode({ messages => [
                { role => 'system', content => 'z' x $pad },
                { role => 'user', content => $msg } ] });
            open my $fh, '>', "$dir/body" or die $!;
            print $fh $body;
            close $fh;
            my $out = `curl -s --http2-prior-knowledge -H 'Content-Type: application/json' --data-binary \@$dir/body http://127.0.0.1:$H2_PORT/v1/chat/completions`;
            if ($name eq 'critical') {
                is($out, "human:critical:ok\n", "$round: HTTP/2 $name: routed");
                unlike($out, qr/sha256/, "$round: HTTP/2 $name: not proxied");
                next;
            }
            my $echo = eval { JSON::PP->new->decode($out) };
            is($echo->{sha256}, sha256_hex($body),
               "$round: HTTP/2 $name: body unchanged");
            is($echo->{headers}{'x-behave-status'}, 'ok',
               "$round: HTTP/2 $name: status ok");
        }
    }
}


# --- keepalive: pipelined requests on one connection, routed or not -------------

for my $round (1, 2) {
    my @bodies = map { $JSON->encode({ message => $_ }) }
                 $CRISIS, $CALM, $CRISIS, $CALM;
    my $req = '';
    for my $i (0 .. $#bodies) {
        $req .= "POST /v1/own HTTP/1.1\r\nHost: t\r\n"
              . ($i == $#bodies ? "Connection: close\r\n" : '')
              . "Content-Type: application/json\r\n"
              . "Content-Length: " . length($bodies[$i]) . "\r\n\r\n"
              . $bodies[$i];
    }
    my $resp = raw_request($req, keep_open => 1);
    my @status = $resp =~ m{HTTP/1\.1 (\d+) }g;
    is("@status", '200 200 200 200', "$round: pipelined: four answers");
    my @kinds = map { /^human:/ ? 'human' : /"sha256"/ ? 'upstream' : '?' }
                $resp =~ m{\r\n\r\n(human:[^\n]*\n|\{.*?"uri":"[^"]*"\})}sg;
    is("@kinds", 'human upstream human upstream',
       "$round: pipelined: routed, passed, routed, passed");
    my @sums = $resp =~ m{"sha256":"([0-9a-f]+)"}g;
    is("@sums", join(' ', map { sha256_hex($_) } @bodies[1, 3]),
       "$round: pipelined: bodies unchanged");
}


# --- unparsed and too large pass through untouched ---------------------------------------

my %UNPARSED = (
    'not JSON'          => 'this is { not json',
    'unknown format'    => '{"prompt":"Complete this sentence"}',
    'JSON array'        => '["message"]',
    'no user message'   => '{"messages":[{"role":"system","content":"x"}]}',
    'invalid UTF-8'     => qq({"message":"caf\xe9 \xff"}),
    'truncated JSON'    => '{"messages":[{"role":"user","content":"hel',
);

for my $round (1, 2) {
    for my $name (sort keys %UNPARSED) {
        my $body = $UNPARSED{$name};
        my ($echo) = post('/v1/chat/completions', $body);
        passed_ok("$round: $name", $echo, $body, 'unparsed');
        not_annotated_ok("$round: $name", $echo);
    }

    # over behave_prefilter_max_size (1k): not even read
    my $body = $JSON->encode({ message => 'a' x 2000 });
    my ($echo) = post('/small/x', $body);
    passed_ok("$round: body over the max size", $echo, $body, 'too_large');
    not_annotated_ok("$round: body over the max size", $echo);

    # the same, chunked: read, then found too large
    ($echo) = raw_echo(chunked('/small/x', $body, 100));
    passed_ok("$round: chunked body over the max size", $echo, $body,
              'too_large');

    # a message over behave_max_message_size (64)
    $body = $JSON->encode({ message => 'word ' x 20 });
    ($echo) = post('/small/x', $body);
    passed_ok("$round: message over behave_max_message_size", $echo, $body,
              'too_large');

    # under both: annotated
    $body = $JSON->encode({ message => 'hello there' });
    ($echo) = post('/small/x', $body);
    passed_ok("$round: small message", $echo, $body, 'ok');

    # no body at all, and no pre-filter in the location
    my $r = req_json(GET => '/v1/models');
    $echo = eval { JSON::PP->new->decode($r->{body}) };
    is($echo->{headers}{'x-behave-status'}, 'skipped', "$round: GET: skipped");
    not_annotated_ok("$round: GET", $echo);

    $body = $JSON->encode({ message => $CRISIS });
    ($echo) = post('/off/x', $body);
    passed_ok("$round: location without the pre-filter", $echo, $body,
              'skipped');
    not_annotated_ok("$round: location without the pre-filter", $echo);
}


# --- log_format sees the variables -------------------------------------------------

{
    my $log = do {
        local $/;
        open my $fh, '<', "$LOGDIR/prefilter.log" or die $!;
        <$fh>;
    };
    like($log, qr{^/v1/responses ok \S+$}m, 'access log: ok and urgency');
    like($log, qr{^/v1/messages ok critical$}m,
         'access log: the routed request, after the redirect');
    like($log, qr{^/v1/chat/completions unparsed -$}m, 'access log: unparsed');
    like($log, qr{^/off/x skipped -$}m, 'access log: skipped');
}


# --- behave_prefilter_tenant counts against the tenant's meter --------------------------

{
    # tenant "small" has a quota of 3 a day (KEY_QUOTA)
    post('/metered/x', { message => $CALM }) for 1 .. 2;
    post('/metered/x', 'not json');
    my $r = req_json(POST => '/v1/analyze', key => KEY_QUOTA,
                     body => { message => 'hi' });
    is($r->{json}{_meta}{tenant_remaining}, 0,
       'two annotations by the pre-filter and one by /v1/analyze: 0 left')
        or diag $r->{body};
}


diag join "\n", grep { /\[(error|warn)\]/ } split /\n/, error_log() if $ENV{PF_DEBUG};
check_error_log();

done_testing();

