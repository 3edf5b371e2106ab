#!/usr/bin/perl
# The turn classifiers' weights (src/core/conversation/learned/turns.tsv,
# written by scripts/train-turns, compiled by scripts/gen-turns): both
# models compile with their thresholds; a bad line fails with its
# file:line; no file compiles to no model, where the phrases decide alone.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use Test::More;

my $gen = "$TOP/scripts/gen-turns";
my $dir = tempdir(CLEANUP => 1);
my $tsv = "$TOP/src/core/conversation/learned/turns.tsv";

sub gen {
    my ($in) = @_;
    my $out = `perl $gen $dir/out.c $in 2>&1`;
    return ($? == 0, $out);
}


my ($ok, $out) = gen($tsv);
ok($ok, 'turns.tsv compiles') or diag($out);
my $src = slurp("$dir/out.c");

for my $m (qw(agent reply)) {
    like($src, qr/behave_conv_learned_${m}_model = \{\n    1[0-9], 0x[0-9a-f]+u/,
         "the $m model is there, with its bits and mask");
}

# each model's thresholds are the file's
my $data = slurp($tsv);
my @add = $data =~ /^add\t([0-9.]+)$/mg;
is(scalar(@add), 2, 'two models, each with its "add" threshold');

# a weight's int8 lands at its offset
my $small = spew("$dir/small.tsv", "model\tagent\nbits\t2\nscale\t0.5\n"
                       . "bias\t1\t2\t3\t4\nadd\t0.9\nveto\t0.1\n"
                       . "h\t4\t7ff0\n");
($ok, $out) = gen($small);
ok($ok, 'a small model compiles') or diag($out);
like(slurp("$dir/out.c"),
     qr/agent_w\[16\] = \{\n    0, 0, 0, 0, 127, -16, 0,/,
     'weights land at their offset, two\'s complement');
like(slurp("$dir/out.c"), qr/reply_model = \{\n    0, 0x0u/,
     'a model the file does not hold compiles to no model');

my %bad = (
    "model\tagent\nbits\t2\nh\t14\t7f7f7f\n" => qr/:3: past the table's end/,
    "bits\t2\n"                             => qr/:1: a line before 'model'/,
    "model\tother\n"                        => qr/:1: unknown model other/,
    "model\tagent\nbits\t2\nh\t0\t7g\n"     => qr/:3: bad hex/,
    "model\tagent\nscale\tx\n"              => qr/:2: bad number/,
    "model\tagent\nmodel\tagent\n"          => qr/:2: model agent twice/,
);

for my $text (sort keys %bad) {
    my $f = spew("$dir/bad.tsv", $text);
    ($ok, $out) = gen($f);
    ok(!$ok && $out =~ $bad{$text}, "rejected: $bad{$text}")
        or diag($out);
}

($ok, $out) = gen("$dir/absent.tsv");
ok($ok && slurp("$dir/out.c") =~ /agent_model = \{\n    0, 0x0u/,
   'no file: no model') or diag($out);

done_testing();
