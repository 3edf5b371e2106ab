#!/usr/bin/perl
# The risk head's tables (src/core/text/model/risk.tsv and risk.bin,
# written by scripts/train-risk, compiled by scripts/gen-risk): the core
# gives the messages of the file's "check" lines the risk that training
# computed from the same int8 tables (so the linear layer, the network
# and their calibration are read as they were written); a bad line or a
# packed table of the wrong size fails the build with its file:line.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use Compress::Zlib ();
use JSON::PP;
use Test::More;

my $gen = "$TOP/scripts/gen-risk";
my $cli = "$TOP/build/core/behave_annotate_cli";
my $model = "$TOP/src/core/text/model";
my $dir = tempdir(CLEANUP => 1);

sub gen {
    my ($in) = @_;
    my $out = `perl $gen $dir/out.c $in 2>&1`;
    return ($? == 0, $out);
}

my ($ok, $out) = gen("$model/risk.tsv");
ok($ok, 'risk.tsv compiles') or diag($out);
my $src = Behave::Test::slurp("$dir/out.c");
like($src, qr/behave_risk_bits = 18;/, 'the linear layer: 2^18 weights');
like($src, qr/behave_risk_net_bits = 14;/, 'the network: 2^14 buckets');

# the messages training scored, scored by the core
my @checks = Behave::Test::slurp("$model/risk.tsv") =~ /^check\t([0-9.]+)\t(.*)$/mg;
cmp_ok(scalar(@checks) / 2, '>=', 8, 'the file holds its check messages');

my $json = JSON::PP->new->utf8->canonical;
my $input = '';
my @want;
while (my ($risk, $text) = splice @checks, 0, 2) {
    push @want, [$risk, $json->decode($text)];
    $input .= $json->encode({ text => $json->decode($text) }) . "\n";
}
spew("$dir/checks.jsonl", $input);
my @got = map { $json->decode($_)->{risk} } `$cli -j < $dir/checks.jsonl`;
is(scalar(@got), scalar(@want), 'the core scored every check message');
for my $i (0 .. $#want) {
    my ($risk, $text) = @{ $want[$i] };
    ok(defined $got[$i] && abs($got[$i] - $risk) < 0.002,
       sprintf('risk %.4f as trained (%.4f): %.40s', $got[$i] // -1, $risk,
               $text));
}

# what gen-risk refuses, each with its file:line
my $head = "bits\t4\nscale\t0.5\nbias\t0\n";
my $units = join("\t", (0.5) x 16);
my @bad = (
    ["net\t15\t17\n", qr/want 16 units/, 'a network of another width'],
    ["net\t15\t16\nnet_b1\t1\t2\n", qr/want 16 numbers/,
     'a bias row of the wrong length'],
    ["net_w2\t$units\tx\n", qr/want 16 numbers/, 'one number too many'],
    ["calib2\t1\tx\t0\n", qr/bad number/, 'a word for a number'],
    ["net\t14\t16\npacked\tsmall.bin\n", qr/want 262160 weights/,
     'a packed file without the network\'s rows'],
    ["lorem\t1\n", qr/unknown line/, 'an unknown line'],
);
spew("$dir/small.bin", "BHVRSK1\n" . Compress::Zlib::compress("\0" x 16));
for my $b (@bad) {
    my ($lines, $re, $name) = @$b;
    spew("$dir/bad.tsv", $head . $lines);
    ($ok, $out) = gen("$dir/bad.tsv");
    ok(!$ok, "refused: $name");
    like($out, qr/bad\.tsv(:[0-9]+)?: .*$re|$re/, "... saying why: $name");
}

# the linear layer alone still compiles (no network: calib is used)
spew("$dir/lin.tsv", $head . "packed\tsmall.bin\n");
($ok, $out) = gen("$dir/lin.tsv");
ok($ok, 'a linear layer without a network compiles') or diag($out);
like(Behave::Test::slurp("$dir/out.c"), qr/behave_risk_net_bits = 0;/,
     '... and says it has no network');

# weights in a compact form: a retraining must not add megabytes to
# every clone (the trained layer's rows and the risk head's tables)
my $bytes = 0;
$bytes += -s "$model/$_" for qw(weights.bin weights.tsv risk.bin risk.tsv);
cmp_ok($bytes, '<=', 2_000_000, "the weights take at most 2 MB ($bytes bytes)");

done_testing();
