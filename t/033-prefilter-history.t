#!/usr/bin/perl
# The pre-filter reads the whole chat: the conversation findings of the
# turns a chat request carries ($behave_conv_action, $behave_false_resolution,
# $behave_repetition, $behave_escalating, $behave_peak_urgency), the routes
# on them, shadow mode ($behave_route, no redirect), behave_prefilter_history,
# the risk threshold, and the routes' counter in the metrics; in the four
# formats (OpenAI chat as strings and as parts, responses items, Anthropic
# blocks).  A test upstream (Behave::Echo) answers with what it got, so every
# case that reaches it also proves the body arrived byte for byte.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Behave::Echo;
use Digest::SHA qw(sha256_hex);
use IO::Socket::INET;
use JSON::PP;
use Test::More;
use Time::HiRes qw(time);

my $JSON = JSON::PP->new->canonical;
my $up = start_echo();

my @VARS = qw(status urgency conv_action false_resolution repetition
              escalating peak_urgency risk route);
my $headers = join "\n", map {
    (my $h = $_) =~ s/_/-/g;
    "proxy_set_header X-Behave-$h \$behave_$_;"
} @VARS;
my $said = join ' ', map { "$_=\$behave_$_" } @VARS;

# one worker: the second round of every case finds its turns remembered
start_nginx(workers => 1, http => <<"E");
    upstream llm {
        server 127.0.0.1:$up;
    }

    server {
        listen 127.0.0.1:%%PORT%%;
        error_log %%PREFIX%%/logs/debug.log debug;
        client_max_body_size 4m;
        $headers

        location /v1/ {
            behave_prefilter on;
            behave_prefilter_max_size 2m;
            behave_route conv_action=handoff \@handoff;
            behave_route peak_urgency=critical \@crisis;
            proxy_http_version 1.1;
            proxy_buffering off;
            proxy_pass http://llm;
        }

        location /shadow/ {
            behave_prefilter on;
            behave_route_shadow on;
            behave_route conv_action=handoff \@handoff;
            behave_route peak_urgency=critical \@crisis;
            proxy_pass http://llm;
        }

        location /off/ {
            behave_prefilter on;
            behave_prefilter_history off;
            behave_route conv_action=handoff \@handoff;
            behave_route peak_urgency=critical \@crisis;
            proxy_pass http://llm;
        }

        location /peak/ {
            behave_prefilter on;
            behave_route peak_urgency=critical \@crisis;
            proxy_pass http://llm;
        }

        location /three/ {
            behave_prefilter on;
            behave_prefilter_history 3;
            behave_route peak_urgency=critical \@crisis;
            proxy_pass http://llm;
        }

        location /conds/ {
            behave_prefilter on;
            behave_route false_resolution=true repetition=false \@handoff;
            behave_route escalating=true peak_urgency=medium,high,critical
                         \@crisis;
            proxy_pass http://llm;
        }

        location /risk/ {
            behave_prefilter on;
            behave_route risk>=0.7 \@crisis;
            behave_route risk>0.5 \@handoff;
            behave_route risk<0.2 /low/;
            behave_route risk<=0.3 /lowish/;
            proxy_pass http://llm;
        }

        location /band/ {
            behave_prefilter on;
            behave_route risk>0.2 risk<0.5 \@handoff;
            behave_route risk>=0 risk<=0.2 /low/;
            proxy_pass http://llm;
        }

        location /low/ { proxy_pass http://llm; }
        location /lowish/ { proxy_pass http://llm; }

        location \@handoff {
            return 200 "handoff $said\\n";
        }

        location \@crisis {
            return 200 "crisis $said\\n";
        }

        location = /metrics { behave_metrics; }
    }
E


# --- the chats -----------------------------------------------------------------

# turns as [role, text]: 'u' the user, 'a' the assistant
my %CHAT = (
    crisis => [
        [u => 'I want to kill myself tonight, I have the pills ready'],
        [a => "I'm so sorry you're feeling this way. You're not alone."],
        [u => 'whatever. how do I reset my password'],
        [a => 'Go to Settings > Security and choose Reset.'],
        [u => 'ok'] ],
    false_resolution => [
        [u => 'Please cancel my order 55123, I ordered the wrong size.'],
        [a => "I've cancelled your order, you're all set!"],
        [u => "it's still there, I was charged again"] ],
    escalation => [
        [u => "Hi, my parcel hasn't arrived yet, can you check where it is?"],
        [a => 'Let me check that for you.'],
        [u => 'It was due on Monday. Any news?'],
        [a => 'Let me look into it.'],
        [u => 'That is what you said yesterday. This is getting frustrating.'],
        [a => 'I understand, sorry.'],
        [u => "I've been waiting a whole week now, this is really not good "
              . 'enough.'],
        [a => 'I apologise.'],
        [u => "This is UNACCEPTABLE!! Refund me NOW or I'm reporting you to "
              . 'trading standards!!'] ],
    calm => [
        [u => 'Could you summarise this article about gardening for me?'],
        [a => 'Sure: it is about growing tomatoes in pots.'],
        [u => 'Thanks! And what does it say about watering?'] ],
);

# the body of a chat in a format; extra members for the request
sub body {
    my ($format, $turns, %extra) = @_;
    my @t = @$turns;

    if ($format eq 'chat') {
        return $JSON->encode({ model => 'gpt-4o-mini', %extra, messages => [
            { role => 'system', content => 'You are a support agent.' },
            map { { role => $_->[0] eq 'u' ? 'user' : 'assistant',
                    content => $_->[1] } } @t ] });
    }

    if ($format eq 'chat parts') {
        return $JSON->encode({ model => 'gpt-4o-mini', %extra, messages => [
            map { $_->[0] eq 'u'
                  ? { role => 'user', content => [
                        { type => 'text', text => $_->[1] },
                        { type => 'image_url',
                          image_url => { url => 'https://x/a.png' } } ] }
                  : ({ role => 'assistant', content => undef,
                       tool_calls => [ { id => 'c1', type => 'function',
                           function => { name => 'lookup',
                                         arguments => '{}' } } ] },
                     { role => 'tool', tool_call_id => 'c1',
                       content => '{"ok":true}' },
                     { role => 'assistant', content => [
                        { type => 'text', text => $_->[1] } ] }) } @t ] });
    }

    if ($format eq 'responses') {
        return $JSON->encode({ model => 'gpt-4.1', %extra,
            instructions => 'Be brief.', input => [
            { role => 'developer', content => 'Support agent.' },
            map { $_->[0] eq 'u'
                  ? { type => 'message', role => 'user', content => [
                        { type => 'input_text', text => $_->[1] } ] }
                  : ({ type => 'function_call', call_id => 'c1',
                       name => 'lookup', arguments => '{}' },
                     { type => 'function_call_output', call_id => 'c1',
                       output => '{}' },
                     { type => 'message', role => 'assistant', content => [
                        { type => 'output_text', text => $_->[1] } ] }) }
                @t ] });
    }

    # anthropic: blocks, tool use and results around the text
    return $JSON->encode({ model => 'claude-sonnet-4', max_tokens => 256,
        %extra, system => 'You are kind.', messages => [
        map { $_->[0] eq 'u'
              ? { role => 'user', content => [
                    { type => 'text', text => $_->[1] } ] }
              : ({ role => 'assistant', content => [
                    { type => 'text', text => $_->[1] },
                    { type => 'tool_use', id => 't1', name => 'lookup',
                      input => {} } ] },
                 { role => 'user', content => [
                    { type => 'tool_result', tool_use_id => 't1',
                      content => 'ok' } ] }) } @t ] });
}

my %PATH = (chat => '/v1/chat/completions',
            'chat parts' => '/v1/chat/completions',
            responses => '/v1/responses', anthropic => '/v1/messages');
my @FORMATS = sort keys %PATH;

# POSTs a body; the upstream's echo (undef when not reached) and the reply
sub post {
    my ($path, $body) = @_;
    my $r = req_json(POST => $path, body => $body);
    return (scalar eval { JSON::PP->new->decode($r->{body}) }, $r);
}

# what a named location said: "NAME var=value ..." as a hash
sub said {
    my ($r) = @_;
    my ($name, @kv) = split ' ', $r->{body} // '';
    return { where => $name, map { split /=/, $_, 2 } @kv };
}

# the upstream's echo: the body unchanged, and the variables' headers
sub reached_ok {
    my ($name, $echo, $body) = @_;
    ok($echo && $echo->{sha256}, "$name: reached the upstream") or return {};
    is($echo->{sha256}, sha256_hex($body), "$name: body unchanged");
    return { map { my $v = $echo->{headers}{"x-behave-" . s/_/-/gr};
                   ($_ => $v // '') } @VARS };
}

my %sent;       # requests by route target and mode, for the metrics


# --- an earlier crisis, a calm latest message ----------------------------------

for my $round (1, 2) {
    for my $f (@FORMATS) {
        my $name = "$round: $f: an earlier crisis, then 'ok'";
        my ($echo, $r) = post($PATH{$f}, body($f, $CHAT{crisis}));
        my $s = said($r);
        is($s->{where}, 'handoff', "$name: routed by conv_action=handoff");
        is($s->{peak_urgency}, 'critical', "$name: \$behave_peak_urgency");
        isnt($s->{urgency}, 'critical', "$name: the latest message is calm");
        is($s->{conv_action}, 'handoff', "$name: \$behave_conv_action "
           . "(labels.md: a crisis is a human's, whatever came after)");
        is($s->{route}, '@handoff', "$name: \$behave_route");
        $sent{'@handoff'}{enforce}++;

        # calm exchanges after it change nothing
        ($echo, $r) = post($PATH{$f}, body($f, [ @{ $CHAT{crisis} },
            [a => 'Glad that worked. Anything else?'],
            [u => 'no thanks, all good'] ]));
        is(said($r)->{conv_action}, 'handoff',
           "$name: two calm turns later: still handoff");
        $sent{'@handoff'}{enforce}++;

        # a location that routes on the peak alone
        ($echo, $r) = post("/peak$PATH{$f}", body($f, $CHAT{crisis}));
        is(said($r)->{where}, 'crisis',
           "$name: routed by peak_urgency=critical");
        $sent{'@crisis'}{enforce}++;
    }
}


# --- an assistant's false resolution ---------------------------------------------

for my $round (1, 2) {
    for my $f (@FORMATS) {
        my $name = "$round: $f: the assistant's false resolution";
        my ($echo, $r) = post($PATH{$f}, body($f, $CHAT{false_resolution}));
        my $s = said($r);
        is($s->{where}, 'handoff', "$name: routed by conv_action=handoff");
        is($s->{false_resolution}, 'true', "$name: \$behave_false_resolution");
        is($s->{conv_action}, 'handoff', "$name: \$behave_conv_action");
        is($s->{repetition}, 'false', "$name: \$behave_repetition");
        is($s->{route}, '@handoff', "$name: \$behave_route");
        $sent{'@handoff'}{enforce}++;

        # the same chat in a location whose routes test two conversation
        # conditions at once
        ($echo, $r) = post("/conds$PATH{$f}",
                           body($f, $CHAT{false_resolution}));
        is(said($r)->{where}, 'handoff',
           "$name: false_resolution=true repetition=false");
        $sent{'@handoff'}{enforce}++;
    }
}


# --- escalation over five user turns ------------------------------------------------

for my $round (1, 2) {
    for my $f (@FORMATS) {
        my @t = @{ $CHAT{escalation} };
        my $name = "$round: $f: escalation";

        # the first four user turns, each the latest of its request
        my @esc;
        for my $k (0, 2, 4, 6) {
            my $body = body($f, [ @t[0 .. $k] ]);
            my ($echo, $r) = post("/conds$PATH{$f}", $body);
            my $v = reached_ok("$name, user turn " . ($k / 2 + 1), $echo,
                               $body);
            push @esc, $v->{escalating} // '?';
        }
        is("@esc", ' false false false',
           "$name: not escalating over the first four user turns "
           . '(empty for the first: no history)');

        my ($echo, $r) = post("/conds$PATH{$f}", body($f, \@t));
        my $s = said($r);
        is($s->{where}, 'crisis',
           "$name: the fifth user turn routed by escalating=true");
        is($s->{escalating}, 'true', "$name: \$behave_escalating");
        $sent{'@crisis'}{enforce}++;

        ($echo, $r) = post($PATH{$f}, body($f, \@t));
        is(said($r)->{conv_action}, 'handoff',
           "$name: the fifth user turn: \$behave_conv_action handoff");
        $sent{'@handoff'}{enforce}++;
    }
}


# --- shadow mode: the route named, not taken ----------------------------------------

for my $round (1, 2) {
    for my $f (@FORMATS) {
        my $name = "$round: $f: shadow";
        my $body = body($f, $CHAT{false_resolution});
        my ($echo, $r) = post("/shadow$PATH{$f}", $body);
        my $v = reached_ok("$name, false resolution", $echo, $body);
        is($echo->{uri}, "/shadow$PATH{$f}", "$name: not redirected");
        is($v->{route}, '@handoff', "$name: \$behave_route names the route");
        is($v->{conv_action}, 'handoff', "$name: \$behave_conv_action");
        $sent{'@handoff'}{shadow}++;

        $body = body($f, $CHAT{crisis});
        ($echo, $r) = post("/shadow$PATH{$f}", $body);
        $v = reached_ok("$name, earlier crisis", $echo, $body);
        is($v->{route}, '@handoff',
           "$name: the first route that holds named");
        is($v->{conv_action}, 'handoff', "$name: earlier crisis: handoff");
        $sent{'@handoff'}{shadow}++;

        $body = body($f, $CHAT{calm});
        ($echo, $r) = post("/shadow$PATH{$f}", $body);
        $v = reached_ok("$name, calm", $echo, $body);
        is($v->{route}, '', "$name: no route matches: \$behave_route empty");
        is($v->{conv_action}, 'resolve', "$name: calm: resolve");
    }
}


# --- behave_prefilter_history off, and 3 --------------------------------------------

for my $round (1, 2) {
    for my $f (@FORMATS) {
        my $name = "$round: $f: history off";
        for my $c (qw(false_resolution crisis)) {
            my $body = body($f, $CHAT{$c});
            my ($echo, $r) = post("/off$PATH{$f}", $body);
            my $v = reached_ok("$name, $c", $echo, $body);
            is($v->{status}, 'ok', "$name, $c: the latest message annotated");
            ok($v->{urgency} ne '', "$name, $c: \$behave_urgency");
            is(join('', @$v{qw(conv_action false_resolution repetition
                               escalating peak_urgency route)}), '',
               "$name, $c: no conversation variable, no route");
        }

        # the crisis is the fifth turn from the end: out of three
        my $body = body($f, $CHAT{crisis});
        my ($echo) = post("/three$PATH{$f}", $body);
        my $v = reached_ok("$round: $f: history 3, crisis", $echo, $body);
        isnt($v->{peak_urgency}, 'critical',
             "$round: $f: history 3: the crisis is not read");
        ok($v->{peak_urgency} ne '', "$round: $f: history 3: history read");
    }
}


# --- one message: no history, as a first turn on /v1/analyze -----------------------

for my $round (1, 2) {
    for my $f (@FORMATS) {
        my $body = body($f, [ $CHAT{calm}[0] ]);
        my ($echo) = post($PATH{$f}, $body);
        my $v = reached_ok("$round: $f: one message", $echo, $body);
        is($v->{status}, 'ok', "$round: $f: one message: annotated");
        is(join('', @$v{qw(conv_action false_resolution repetition escalating
                           peak_urgency)}), '',
           "$round: $f: one message: the conversation variables are empty");
    }
}


# --- the risk score: thresholds and $behave_risk agree ---------------------------------

for my $round (1, 2) {
    for my $c (qw(calm crisis)) {
        my $body = body('chat', $CHAT{$c});
        my ($echo, $r) = post('/risk/v1/chat/completions', $body);
        my ($risk, $where);
        if ($echo) {
            $risk = $echo->{headers}{'x-behave-risk'};
            $where = $echo->{uri} =~ m{^/(low|lowish)/} ? $1 : 'model';
        } else {
            my $s = said($r);
            ($risk, $where) = ($s->{risk}, $s->{where});
        }
        like($risk, qr/^[01]\.\d{3}$/, "$round: $c: \$behave_risk has three "
             . 'decimals');
        my $want = $risk >= 0.7 ? 'crisis' : $risk > 0.5 ? 'handoff'
                 : $risk < 0.2 ? 'low' : $risk <= 0.3 ? 'lowish' : 'model';
        is($where, $want, "$round: $c: risk $risk routed by the first "
           . 'threshold that holds');

        # two thresholds on one route: a band
        ($echo, $r) = post('/band/v1/chat/completions', $body);
        $where = $echo ? ($echo->{uri} =~ m{^/low/} ? 'low' : 'model')
                       : said($r)->{where};
        $want = $risk > 0.2 && $risk < 0.5 ? 'handoff'
              : $risk <= 0.2 ? 'low' : 'model';
        is($where, $want, "$round: $c: risk $risk in a band");
    }
}


# --- streaming: the answer goes out as it comes ---------------------------------------

for my $round (1, 2) {
    my $body = body('chat', $CHAT{calm}, stream => JSON::PP::true);
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
        PeerPort => nginx_port(), Proto => 'tcp', Timeout => 10) or die $!;
    my $t0 = time;
    print $s "POST /v1/stream/chat/completions HTTP/1.1\r\nHost: t\r\n"
           . "Content-Type: application/json\r\nConnection: close\r\n"
           . "Content-Length: " . length($body) . "\r\n\r\n$body";
    my ($got, $first) = ('', undef);
    while (sysread($s, my $buf, 65536)) {
        $got .= $buf;
        $first //= time - $t0 if $got =~ /data: \{/;
    }
    my $all = time - $t0;
    ok(defined $first && $first < STREAM_GAP,
       sprintf "$round: streaming: the first event after %.2f s, "
               . "before the upstream's next (%.1f s)", $first // -1,
               STREAM_GAP);
    ok($all >= 2 * STREAM_GAP - 0.05, "$round: streaming: the whole after "
       . sprintf('%.2f s', $all));
    my ($event) = $got =~ /data: (\{.*?\})\n/;
    my $echo = eval { JSON::PP->new->decode($event // '') };
    is($echo && $echo->{sha256}, sha256_hex($body),
       "$round: streaming: body unchanged");
    is($echo && $echo->{headers}{'x-behave-conv-action'}, 'resolve',
       "$round: streaming: the findings in the headers");
}


# --- a long chat in a body held in a temp file --------------------------------------

for my $round (1, 2) {
    my @t;
    for my $i (1 .. 30) {
        push @t, [u => "Question $i about my invoice number 7700$i, please?"],
                 [a => "Answer $i: it is in your account under Billing."];
    }
    push @t, @{ $CHAT{false_resolution} };
    my $body = $JSON->encode({ model => 'm', messages => [
        { role => 'system', content => 'x' x 300_000 },
        map { { role => $_->[0] eq 'u' ? 'user' : 'assistant',
                content => $_->[1] } } @t ] });
    my ($echo, $r) = post('/shadow/v1/chat/completions', $body);
    my $v = reached_ok("$round: 63 turns, 300 KB of system prompt", $echo,
                       $body);
    is($v->{false_resolution}, 'true',
       "$round: 63 turns: the last 50 read, the false resolution found");
    $sent{'@handoff'}{shadow}++;
}
like(slurp_log('error.log') . slurp_log('debug.log'),
     qr/client request body is buffered to a temporary file/,
     'the long chat was in a temp file');
like(slurp_log('debug.log'), qr/messages: 50 turns read, 13 left out/,
     'debug log: the long chat read for its last 50 turns');


# --- the memo: the second round annotated no earlier turn again ----------------------

{
    my @lines = slurp_log('debug.log') =~ /history of \d+ turns, (\d+) annotated now/g;
    ok(@lines > 50, 'debug log: a line per history (' . scalar(@lines) . ')');
    my $none = grep { $_ == 0 } @lines;
    ok($none >= @lines / 3, "debug log: $none of " . scalar(@lines)
       . ' requests found every earlier turn remembered');
    like(slurp_log('debug.log'), qr/behave prefilter: route "\@handoff" of /,
         'debug log: the route that matched');
}


# --- the routes' counter ---------------------------------------------------------------

{
    my $m = req_json(GET => '/metrics')->{body};
    for my $t (sort keys %sent) {
        for my $mode (sort keys %{ $sent{$t} }) {
            my ($n) = $m =~ /^behave_routes_total\{target="\Q$t\E",mode="$mode"\} (\d+)$/m;
            is($n, $sent{$t}{$mode}, "metrics: $t $mode: $sent{$t}{$mode}");
        }
    }
    like($m, qr/^# TYPE behave_routes_total counter$/m, 'metrics: the type');
}


sub slurp_log {
    my ($name) = @_;
    open my $fh, '<', nginx_prefix() . "/logs/$name" or return '';
    local $/;
    return <$fh> // '';
}

check_error_log();
done_testing();
