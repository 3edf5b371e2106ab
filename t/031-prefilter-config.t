#!/usr/bin/perl
# The pre-filter's directives are checked at "nginx -t", with messages that
# say what is wrong.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp ();
use Test::More;

sub conf_test {
    my ($server) = @_;
    return start_nginx(test_only => 1, http => <<"E2");
    server {
        listen 127.0.0.1:%%PORT%%;
        location \@human { return 200; }
        $server
    }
E2
}

sub conf_ok {
    my ($server, $name) = @_;
    my ($ok, $out) = conf_test($server);
    ok($ok, $name) or diag $out;
}

sub conf_fails {
    my ($server, $re, $name) = @_;
    my ($ok, $out) = conf_test($server);
    ok(!$ok, "$name: refused");
    like($out, $re, "$name: says why") or diag $out;
}

conf_ok(<<'C', 'a complete pre-filter location');
    behave_prefilter_tenant acme;
    location /v1/ {
        behave_prefilter on;
        behave_prefilter_field /input/0/content;
        behave_prefilter_max_size 512k;
        behave_route urgency_level=critical @human;
        behave_route urgency=high,critical posture=expedite /fast?x=1;
        behave_route emotional_valence=negative,mixed cognitive_load=overload
                     engagement_state=disengaged social_register=crisis
                     recommended_tone=calm suggested_action=escalate_human
                     @human;
        proxy_pass http://127.0.0.1:1;
    }
C

conf_ok('behave_prefilter on; behave_prefilter_field ""; '
        . 'location / { return 200; }',
        'at server level, with the root pointer');

conf_fails('location / { behave_prefilter on; '
           . 'behave_route urgent=critical @human; }',
           qr/unknown dimension "urgent" in "urgent=critical"/,
           'an unknown dimension');

conf_fails('location / { behave_route urgency_level=critcal @human; }',
           qr/unknown urgency_level value "critcal"/, 'an unknown value');

conf_fails('location / { behave_route urgency_level=high, @human; }',
           qr/unknown urgency_level value ""/, 'an empty value');

conf_fails('location / { behave_route posture=calm @human; }',
           qr/unknown response_posture value "calm"/,
           'a value of another dimension');

conf_fails('location / { behave_route urgency_level @human; }',
           qr/"urgency_level" is not DIMENSION=VALUE/, 'no "="');

conf_fails('location / { behave_route urgency=high urgency_level=low '
           . '@human; }',
           qr/dimension "urgency_level" is given twice/,
           'a dimension twice');

conf_fails('location / { behave_route urgency=critical human; }',
           qr/route target "human" is neither a URI/, 'a bad target');

conf_fails('location / { behave_route urgency=critical; }',
           qr/invalid number of arguments/, 'no target');

conf_fails('location / { behave_prefilter on; '
           . 'behave_route urgency=critical @nobody; }',
           qr/behave_route target "\@nobody" is not a named location of the server in \S+:\d+/,
           'a named location that does not exist');

conf_ok('behave_route urgency=critical @elsewhere; location / { return 200; }',
        'routes where the pre-filter is off are not looked up');

conf_fails('location / { behave_prefilter_field messages/0; }',
           qr/"messages\/0" is not a JSON pointer/, 'a pointer without /');

conf_fails('location / { behave_prefilter_field /a~2; }',
           qr/"\/a~2" is not a JSON pointer/, 'a pointer with ~2');

conf_fails('location / { behave_prefilter_field /a; '
           . 'behave_prefilter_field /b; }',
           qr/is duplicate/, 'a pointer twice');

conf_fails('location / { behave_prefilter_tenant "bad tenant!"; }',
           qr/invalid tenant name "bad tenant!"/, 'a bad tenant');

conf_fails('location / { behave_prefilter_max_size 0; }',
           qr/must be greater than 0/, 'a zero max size');

conf_fails('location / { behave_prefilter maybe; }',
           qr/invalid value "maybe"/, 'not on or off');

# the chat's history, its conditions, the risk threshold, shadow mode

conf_ok(<<'C', 'history, conversation conditions, risk thresholds, shadow');
    location /v1/ {
        behave_prefilter on;
        behave_prefilter_history 20;
        behave_route_shadow on;
        behave_route conv_action=handoff @human;
        behave_route peak_urgency=critical @human;
        behave_route false_resolution=true repetition=true,false
                     escalating=false urgency=low,medium @human;
        behave_route risk>=0.7 @human;
        behave_route risk>0.5 urgency=high /fast;
        behave_route risk<0.2 /calm?x=1;
        behave_route risk<=0.333 conv_action=resolve,clarify /calm;
        behave_route risk>=1 @human;
        behave_route risk<0 @human;
        behave_route risk>=1.000 @human;
        proxy_pass http://127.0.0.1:1;
    }
    location /off/ { behave_prefilter on; behave_prefilter_history off; }
    location /one/ { behave_prefilter on; behave_prefilter_history 1; }
    location /max/ { behave_prefilter on; behave_prefilter_history 1000; }
C

for my $bad ('risk>=1.5', 'risk>=0.7777', 'risk>=.7', 'risk>=0.', 'risk>=',
             'risk>=abc', 'risk=0.5', 'risk=>0.5', 'risk>>0.5', 'risk<-0.1',
             'risk>=0.7x', 'risk>=2') {
    conf_fails("location / { behave_route $bad \@human; }",
               qr/invalid risk threshold "\Q$bad\E": risk>=, risk>, risk<= or risk< and a number from 0 to 1 with at most three decimals/,
               "risk: \"$bad\"");
}

conf_ok('location / { behave_prefilter on; '
        . 'behave_route risk>0.3 risk<0.7 @human; } location @human {}',
        'risk twice: a band');

conf_fails('location / { behave_route risk>0.3 risk<0.7 risk<0.5 @human; }',
           qr/dimension "risk" is given three times/, 'risk three times');

conf_fails('location / { behave_route urgency<3 @human; }',
           qr/"urgency<3" is not DIMENSION=VALUE/,
           'a threshold on a dimension of values');

conf_fails('location / { behave_route conv_action=escalate @human; }',
           qr/unknown conv_action value "escalate"/,
           'a conversation action that is not one');

conf_fails('location / { behave_route escalating=yes @human; }',
           qr/unknown escalating value "yes"/, 'a boolean that is not one');

conf_fails('location / { behave_route peak_urgency=urgent @human; }',
           qr/unknown peak_urgency value "urgent"/, 'an unknown peak urgency');

conf_fails('location / { behave_route peak=critical @human; }',
           qr/unknown dimension "peak" in "peak=critical": one of .*conv_action, false_resolution, repetition, escalating, peak_urgency, risk/,
           'the error lists the new dimensions');

for my $bad ('0', '1001', 'many', '-3', '') {
    conf_fails("location / { behave_prefilter_history \"$bad\"; }",
               qr/invalid value "\Q$bad\E": "off" or the number of turns read, 1 to 1000/,
               "history \"$bad\"");
}

conf_fails('location / { behave_prefilter_history 5; '
           . 'behave_prefilter_history 6; }',
           qr/is duplicate/, 'history twice');

conf_fails('location / { behave_route_shadow maybe; }',
           qr/invalid value "maybe"/, 'shadow: not on or off');

# conf/prefilter.conf itself passes "nginx -t" (paths and upstream made local)
{
    my $dir = File::Temp::tempdir('behave-pfconf-XXXXXX', TMPDIR => 1,
                                  CLEANUP => 1);
    mkdir "$dir/logs";
    open my $in, '<', "$TOP/conf/prefilter.conf" or die $!;
    my $conf = do { local $/; <$in> };
    my $so = $ENV{BEHAVE_MODULE} // "$TOP/build/ngx_http_behave_module.so";
    $conf =~ s{/usr/lib/nginx/modules/ngx_http_behave_module\.so}{$so};
    $conf =~ s{/var/log/nginx}{$dir/logs}g;
    $conf =~ s{server api\.openai\.com:443;}{server 127.0.0.1:9;};
    $conf =~ s{^(events)}{pid $dir/logs/nginx.pid;\n$1}m;
    open my $out, '>', "$dir/nginx.conf" or die $!;
    print $out $conf;
    close $out;
    my $res = `$NGINX -t -p $dir -c $dir/nginx.conf 2>&1`;
    is($?, 0, 'conf/prefilter.conf passes nginx -t') or diag $res;
}

done_testing();
