#!/usr/bin/perl
# Replays ../shared/data/support/conversations.jsonl through the endpoint
# (a real nginx and Redis) and reports how many labelled expectations hold.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use JSON::PP;
use Test::More;

my $file = "$DATA/support/conversations.jsonl";
plan skip_all => "no $file (../shared/data is not in this clone): replay skipped"
    unless -f $file;

start_redis();
start_nginx(http => <<'E2');
    behave_redis %%REDIS%%;
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
    }
E2

open my $fh, '<', $file or die $!;
my ($held, $total) = (0, 0);
my %map = (false_resolution => ['failure_flags', 'false_resolution'],
           repetition => ['derived', 'repetition'],
           escalating => ['derived', 'escalating']);

while (my $line = <$fh>) {
    my $c = decode_json($line);
    my $id = "replay-$c->{id}-$$";
    my @resp;
    for my $t (@{ $c->{turns} }) {
        my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                         body => { conversation_id => $id, message => $t->{message},
                                   speaker => $t->{speaker} });
        push @resp, $r->{json};
    }
    for my $e (@{ $c->{expect} }) {
        my $b = $resp[$e->{turn}]{conversation} // {};
        for my $k (sort keys %$e) {
            next if $k eq 'turn';
            my $got = $k eq 'action' ? $b->{recommendation}{action}
                    : $b->{ $map{$k}[0] }{ $map{$k}[1] };
            my $want = $e->{$k};
            my $pass = $k eq 'action' ? (($got // '') eq $want)
                     : (!!$got == !!$want);
            $total++;
            $held += $pass ? 1 : 0;
            note(sprintf "%s turn %d %s: want %s got %s%s", $c->{id}, $e->{turn},
                 $k, JSON::PP->new->allow_nonref->encode($want),
                 JSON::PP->new->allow_nonref->encode($got), $pass ? '' : '  MISS');
        }
    }
}

diag("conversation expectations holding through the endpoint: $held / $total");
ok($total >= 50, "the data holds expectations ($total)");
ok($held >= 0.85 * $total, "at least 85% hold ($held / $total)");
check_error_log();
done_testing();
