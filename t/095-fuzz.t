#!/usr/bin/perl
# Runs every libFuzzer harness of fuzz/ (scripts/fuzz) for
# BEHAVE_FUZZ_SECONDS each: 10 unless set, a smoke that finds a harness
# broken or a crash its seeds reach; long runs set it higher
# (docs/fuzzing.md), and 0 skips this file and says so.
# A crash, a leak, a failed check or a hang fails the target's test, with
# the reproducer's path and the command that replays it.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

my $secs = $ENV{BEHAVE_FUZZ_SECONDS} // 10;
plan skip_all => 'BEHAVE_FUZZ_SECONDS=0: fuzzers not run' if $secs eq '0';
die "BEHAVE_FUZZ_SECONDS must be a number of seconds\n" unless $secs =~ /^\d+$/;

my @targets = split /\n/, `$TOP/scripts/fuzz --list`;
ok(@targets >= 10, scalar(@targets) . ' fuzz targets');

my $jobs = $ENV{BEHAVE_FUZZ_JOBS} // (`nproc` =~ /(\d+)/ ? $1 : 1);
my $out = `BEHAVE_FUZZ_JOBS=$jobs $TOP/scripts/fuzz $secs 2>&1`;
my $rc = $? >> 8;

for my $t (@targets) {
    my ($execs, $res) = $out =~ /^\Q$t\E\s+(\d+) executions\s+(\S+)/m;
    ok(defined $res && $res eq 'ok' && $execs > 0,
       "$t: " . ($execs // 0) . " executions in ${secs} s, no crash")
        or diag($out =~ /^(\Q$t\E .*?)(?=^fuzz_|\z)/ms ? $1 : $out);
}

is($rc, 0, 'scripts/fuzz exits 0') or diag($out);

done_testing();
