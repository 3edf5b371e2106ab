#!/usr/bin/perl
# Replays labelled conversations through the endpoint (a real nginx and
# Redis: each turn assessed from the stored state of the turns before it)
# and compares every turn's conversation block with the core's
# recomputation from full history (build/core/behave_conv_replay), and
# the state Redis' script left after each conversation with the core's
# own fold of its turns, byte for byte (behave_conv_replay --state); on
# ../shared/data/support/conversations.jsonl, also reports how many
# labelled expectations hold.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use JSON::PP;
use Test::More;

my $replay = "$TOP/build/core/behave_conv_replay";
die "$replay missing: run scripts/build core\n" unless -x $replay;

start_redis();
# 2 s: a loaded CI box must not turn a turn degraded
start_analyze_on(redis_port(), '2s');

my $json = JSON::PP->new->canonical;

# every turn through the endpoint; the answers by conversation
sub through_endpoint {
    my ($file, $tag) = @_;
    my %out;
    open my $fh, '<', $file or die "$file: $!";
    while (my $line = <$fh>) {
        my $c = decode_json($line);
        my $id = "$tag-$c->{id}-$$";
        for my $t (@{ $c->{turns} }) {
            my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                             body => { conversation_id => $id,
                                       message => $t->{message},
                                       speaker => $t->{speaker} });
            push @{ $out{ $c->{id} } }, $r->{json};
        }
        $out{"$c->{id}/conv"} = $c;
    }
    return \%out;
}

# the endpoint's block of each turn against the core's
sub compare_with_core {
    my ($file, $got, $name) = @_;
    my ($n, @bad) = (0);
    open my $fh, '-|', $replay, $file or die "$replay: $!";
    while (my $line = <$fh>) {
        my $want = decode_json($line);
        my $b = $got->{ $want->{id} }[ $want->{turn} ]{conversation};
        my $w = $want->{conversation};
        if ($b) {
            delete $b->{conversation_id};
            delete $w->{conversation_id};
        }
        $n++;
        push @bad, "$want->{id} turn $want->{turn}: endpoint "
                   . ($b ? $json->encode($b) : 'no block')
                   . "\n  core " . $json->encode($w)
            unless $b && $json->encode($b) eq $json->encode($w);
    }
    close $fh;
    ok($n > 0 && !@bad, "$name: the endpoint answers as the core "
       . "recomputes from full history, every field ($n turns, "
       . scalar(@bad) . " differ)");
    diag($_) for @bad[0 .. ($#bad < 4 ? $#bad : 4)];
}

# the state Redis' script wrote (its tail, a review's mark, left out)
# against the core's encoding of the same turns folded: the script's
# in-place writes and behave_conv_state_push() must agree
my $state_hex = "\"local s = redis.call('GET', KEYS[1]) "
    . "if not s then return '' end "
    . "local r = tonumber(string.sub(s, 51, 51), 16) or 0 "
    . "local n = 52 if r > 0 then n = 52 + 5 * 32 + r * 96 end "
    . "return (string.gsub(string.sub(s, 1, n), '.', function (c) "
    . "return string.format('%02x', string.byte(c)) end))\"";

sub compare_states {
    my ($file, $tag, $name) = @_;
    my ($n, @bad) = (0);
    open my $fh, '-|', $replay, '--state', $file or die "$replay: $!";
    while (my $line = <$fh>) {
        my $want = decode_json($line);
        my $key = "behave:{acme:$tag-$want->{id}-$$}:state";
        my $got = redis_cli('EVAL', $state_hex, 1, "'$key'");
        $n++;
        push @bad, "$want->{id}: redis $got\n  core  $want->{state}"
            unless $got eq $want->{state};
    }
    close $fh;
    ok($n > 0 && !@bad, "$name: the state Redis holds after each "
       . "conversation is the core's fold of its turns, byte for byte "
       . "($n conversations, " . scalar(@bad) . ' differ)');
    diag($_) for @bad[0 .. ($#bad < 2 ? $#bad : 2)];
}

# every conversation file of the corpus, a new round included unasked
my @files = map { m{([^/]+)\.jsonl$} }
    glob("$TOP/data/corpus/{conv,blind-conv}*.jsonl");
cmp_ok(scalar @files, '>=', 5, 'the corpus\' conversation files: '
       . join(' ', @files));
for my $f (@files) {
    my $file = "$TOP/data/corpus/$f.jsonl";
    compare_with_core($file, through_endpoint($file, $f), "data/corpus/$f");
    compare_states($file, $f, "data/corpus/$f");
}

my $file = "$DATA/support/conversations.jsonl";
SKIP: {
    skip "no $file (../shared/data is not in this clone)", 3 unless -f $file;

    my $got = through_endpoint($file, 'shared');
    compare_with_core($file, $got, 'shared conversations');

    my %map = (false_resolution => ['failure_flags', 'false_resolution'],
               repetition => ['derived', 'repetition'],
               escalating => ['derived', 'escalating']);
    my ($held, $total) = (0, 0);

    for my $k (grep { m{/conv$} } sort keys %$got) {
        my $c = $got->{$k};
        my @resp = @{ $got->{ $c->{id} } };
        for my $e (@{ $c->{expect} }) {
            my $b = $resp[$e->{turn}]{conversation} // {};
            for my $x (sort keys %$e) {
                next if $x eq 'turn';
                my $g = $x eq 'action' ? $b->{recommendation}{action}
                      : $b->{ $map{$x}[0] }{ $map{$x}[1] };
                my $want = $e->{$x};
                my $pass = $x eq 'action' ? (($g // '') eq $want)
                         : (!!$g == !!$want);
                $total++;
                $held += $pass ? 1 : 0;
                note(sprintf "%s turn %d %s: want %s got %s%s", $c->{id},
                     $e->{turn}, $x,
                     JSON::PP->new->allow_nonref->encode($want),
                     JSON::PP->new->allow_nonref->encode($g),
                     $pass ? '' : '  MISS');
            }
        }
    }

    diag("conversation expectations holding through the endpoint: "
         . "$held / $total");
    ok($total >= 50, "the data holds expectations ($total)");
    ok($held >= 0.85 * $total, "at least 85% hold ($held / $total)");
}

check_error_log();
done_testing();
