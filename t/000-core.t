#!/usr/bin/perl
# Runs the core's C unit tests, built plain and with ASan+UBSan, and
# passes their TAP lines through as one subtest each.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;

for my $variant ('core', 'core-asan') {
    my @bins = sort glob("$TOP/build/$variant/test_*");
    ok(@bins > 0, "$variant: unit test binaries are built")
        or diag("run scripts/build core");

    for my $bin (@bins) {
        my $name = "$variant/" . ($bin =~ s{.*/}{}r);
        subtest $name => sub {
            local $ENV{ASAN_OPTIONS} = 'detect_leaks=1:abort_on_error=0';
            local $ENV{UBSAN_OPTIONS} = 'print_stacktrace=1';
            my @out = `cd $TOP && $bin 2>&1`;
            my $rc = $? >> 8;
            my $n = 0;
            for (@out) {
                if (/^ok \d+ # skip (.*)$/) {
                    # data absent: a skip, reported as one
                    SKIP: { skip($1, 1) }
                    $n++;
                } elsif (/^(not )?ok \d+ - (.*?)(\s+# TODO (.*))?$/) {
                    # a known miss of the labelled data: reported, not fatal
                    local $main::TODO = $4;
                    ok(!$1, $2);
                    $n++;
                } elsif (/^#/ || /\S/ && !/^1\.\.\d+/) {
                    diag($_) if /\S/;
                }
            }
            ok($n > 0, "$name ran tests");
            is($rc, 0, "$name exits 0");
            done_testing();
        };
    }
}

done_testing();
