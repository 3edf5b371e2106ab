#!/usr/bin/perl
# The annotator's measured quality stays above the floors kept in
# scripts/eval-floors: a regression fails the suite.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

my $out = `cd $TOP && scripts/eval 2>&1`;
my $rc = $? >> 8;

if (!-d $DATA) {
    like($out, qr/not found: skipped/, 'without ../shared/data, eval says it skipped');
    is($rc, 0, 'and exits 0');
    done_testing();
    exit;
}

is($rc, 0, 'scripts/eval: every figure is at or above its floor')
    or diag($out);
like($out, qr/r_tweets\s+0\.\d+/, 'the summary reports r on tweets');
like($out, qr/critical_recall\s+1\.000/, 'every critical message is caught');
diag(join "\n", grep { /^\s+(r_|exact_|within1_|critical|tags_)/ } split /\n/, $out);
done_testing();
