#!/usr/bin/perl
# behave_redis forms, behave_redis_auth and behave_node_name: checked at
# "nginx -t"; AUTH with a password and with an ACL user, the password
# never logged; the default node name tells instances apart by port.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Behave::Cluster;
use Test::More;

sub conf_test {
    my ($redis) = @_;
    return start_nginx(test_only => 1, http => "$redis
        server { listen 127.0.0.1:%%PORT%%; behave_keys %%KEYS%%;
                 location /a { behave_analyze; } }");
}

my @good = (
    'behave_redis 127.0.0.1:6379;',
    'behave_redis unix:/run/redis.sock;',
    'behave_redis cluster 127.0.0.1:7000;',
    'behave_redis cluster 127.0.0.1:7000 127.0.0.1:7001 127.0.0.1:7002;',
    'behave_redis sentinel mymaster 127.0.0.1:26379 127.0.0.1:26380;',
    "behave_redis 127.0.0.1:6379; behave_redis_auth s3cret;",
    "behave_redis 127.0.0.1:6379; behave_redis_auth behave s3cret;",
    "behave_redis sentinel m 127.0.0.1:26379; behave_sentinel_auth s3cret;",
    "behave_node_name edge-1.eu:8080;",
);
for my $c (@good) {
    my ($ok, $out) = conf_test($c);
    ok($ok, "accepted: $c") or diag $out;
}

my @bad = (
    ['behave_redis cluster;', qr/takes ADDRESS/],
    ['behave_redis 127.0.0.1:1 127.0.0.1:2;', qr/takes ADDRESS/],
    ['behave_redis sentinel mymaster;', qr/takes ADDRESS/],
    ['behave_redis cluster redis.local:7000;', qr/must be IPv4:port/],
    ['behave_redis sentinel m 127.0.0.1:0;', qr/invalid port/],
    ['behave_redis 127.0.0.1:1; behave_redis 127.0.0.1:2;', qr/is duplicate/],
    ['behave_redis_auth a b; behave_redis_auth c d;', qr/is duplicate/],
    ['behave_node_name a/b;', qr/must be 1 to 64/],
    ['behave_node_name "a\"b";', qr/must be 1 to 64/],
);
for my $b (@bad) {
    my ($ok, $out) = conf_test($b->[0]);
    ok(!$ok, "refused: $b->[0]");
    like($out, $b->[1], '... saying why');
}

# AUTH: requirepass, then an ACL user
my $secret = 'pw-' . join('', map { ('a' .. 'z')[rand 26] } 1 .. 20);
my $port = redis_server(args => ['--requirepass', $secret]);
server_cli($port, '-a', $secret, '--no-auth-warning', 'ACL SETUSER behave on',
           "'>$secret-u'", "'~behave:*'", "'+\@all'");

sub turn {
    my ($c) = @_;
    return req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                    body => { conversation_id => $c, message => 'hello there' });
}

for my $case (["behave_redis_auth $secret;", 'password'],
              ["behave_redis_auth behave $secret-u;", 'ACL user'],
              ["behave_redis_auth behave wrong-$secret;", 'wrong password']) {
    start_nginx(http => <<"E");
    behave_redis 127.0.0.1:$port;
    behave_redis_timeout 300ms;
    $case->[0]
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
        location = /metrics { behave_metrics; }
    }
E
    my $c = "auth-$$-$case->[1]";
    $c =~ s/ /_/g;
    turn($c);
    my $b = turn($c)->{json}{conversation};
    if ($case->[1] eq 'wrong password') {
        ok($b->{degraded}, 'a refused AUTH: degraded answers');
        like(error_log(), qr/authentication refused: WRONGPASS/,
             '... and the refusal logged');
    } else {
        ok($b && !$b->{degraded} && $b->{prior_turns} == 1,
           "AUTH with a $case->[1]: the conversation is stored");
    }
    unlike(error_log(), qr/\Q$secret\E/, "$case->[1]: the password is not logged");
    if ($case->[1] eq 'password') {
        my $port_n = nginx_port();
        like(req_json(GET => '/metrics')->{body},
             qr/behave_node_info\{node="[^"]+:$port_n"\} 1/,
             'default node name: host name and port');
    }
    check_error_log("auth $case->[1]");
}

done_testing();
