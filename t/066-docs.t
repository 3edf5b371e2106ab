#!/usr/bin/perl
# The documentation holds together: docs/API.md opens with a table of
# contents that is current (scripts/doc-toc), every link into a Markdown
# file of the tree names a heading that exists, every directive the
# module declares is in API.md's directive table and in README's, and
# README stays short enough to read in ten minutes.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Test::More;


my @md = grep { -f } map { "$TOP/$_" } qw(README.md CHANGELOG.md),
    map { s{^\Q$TOP\E/}{}r } glob("$TOP/docs/*.md");

my $api = slurp("$TOP/docs/API.md");
my ($toc) = $api =~ /<!-- toc -->\n(.*?)<!-- \/toc -->/s;
ok($toc && $api =~ /\A(?:(?!\n## ).)*<!-- toc -->/s,
   'docs/API.md opens with a table of contents');

my $out = `$TOP/scripts/doc-toc --check @md 2>&1`;
is($?, 0, 'the table is current, every link to a heading resolves ('
   . scalar(@md) . ' files)') or diag $out;

# the directives the module declares (its command tables)
my %declared;
for my $f ("$TOP/ngx_http_behave_module.c", glob("$TOP/src/*/*.c")) {
    my $c = slurp($f);
    while ($c =~ /ngx_command_t\s+\w+\[\]\s*=\s*\{(.*?)ngx_null_command/sg) {
        my $t = $1;
        $declared{$1} = 1 while $t =~ /ngx_string\("(behave_\w+)"\)/g;
    }
}
ok(keys %declared >= 30, scalar(keys %declared) . ' directives declared');

my ($table) = $api =~ /\n## Directives\n(.*?)\n## /s;
my %in_api = map { $_ => 1 } ($table // '') =~ /^\| `(behave_\w+)[ ;`]/mg;
my $readme = slurp("$TOP/README.md");
my %in_readme = map { $_ => 1 } $readme =~ /^\| \[?`(behave_\w+)[ ;`]/mg;
for my $d (sort keys %declared) {
    ok($in_api{$d} && $in_readme{$d},
       "$d: in docs/API.md's directive table and in README's")
        or diag(($in_api{$d} ? '' : 'not in docs/API.md; ')
                . ($in_readme{$d} ? '' : 'not in README.md'));
}
for my $d (sort keys %in_api) {
    ok($declared{$d}, "$d, in docs/API.md, is a directive of the module");
}

my $lines = () = $readme =~ /\n/g;
cmp_ok($lines, '<=', 300, "README.md is $lines lines (at most 300)");

done_testing();
