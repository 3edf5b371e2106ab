#!/usr/bin/perl
# The conversation's phrase files (src/core/conversation/phrases/, compiled
# by scripts/gen-phrases): the repository's compile, one C table a file in
# the order written, every phrase tagged with its languages; a bad line
# fails with its file:line and the reason.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use Test::More;

my $gen = "$TOP/scripts/gen-phrases";
my $dir = tempdir(CLEANUP => 1);
my @files = sort glob("$TOP/src/core/conversation/phrases/*.tsv");

sub gen {
    my (@in) = @_;
    my $out = `perl $gen $dir/out.c @in 2>&1`;
    return ($? == 0, $out);
}

my ($ok, $out) = gen(@files);
ok($ok, scalar(@files) . ' phrase files compile') or diag($out);

# every phrase of every file is in the C, in its file's order
open my $c, '<:raw', "$dir/out.c" or die $!;
my $src = do { local $/; <$c> };
close $c;

my ($phrases, %langs) = (0);
for my $f (@files) {
    my ($name) = $f =~ m{([^/]+)\.tsv\z};
    my ($body) = $src =~ /behave_conv_p_\Q$name\E\[\] = \{\n(.*?)\n\};/s;
    my @got = map { /^\s*\{ "(.*?)", / ? $1 =~ s/\?\\\?/??/gr : () }
              split /\n/, $body // '';
    open my $in, '<:raw', $f or die $!;
    my @want;
    while (<$in>) {
        chomp;
        next if /^\s*(#|%|\z)/;
        my ($p, $l) = split /\t/;
        $p =~ s/^"(.*)"\z/$1/;
        push @want, $p;
        $langs{$_}++ for split /,/, $l;
    }
    close $in;
    $phrases += @want;
    is_deeply(\@got, \@want, "$name.tsv: its phrases in order");
}
ok($phrases > 1500, "$phrases phrases");
ok(($langs{$_} // 0) >= 40, "$_: $langs{$_} phrases") for qw(en es pt fr de);

# one bad line at a time, each named by file and line
my $good = "# a comment\n\nok\ten\nfine\ten,de\n";
my @bad = (
    ["x\n", qr/tab-separated columns/, 'one column'],
    ["x\ten\ta\tb\n", qr/tab-separated columns/, 'four columns'],
    ["Still Not\ten\n", qr/lowercase/, 'upper case'],
    ["\xc3\x89t\xc3\xa9\ten\n", qr/lowercase/, 'upper case past ASCII'],
    ["don\xe2\x80\x99t\ten\n", qr/apostrophe/, 'a typographic apostrophe'],
    ["still  not\ten\n", qr/double space/, 'a double space'],
    [" still\ten\n", qr/space at either end/, 'a leading space'],
    ["\"let's \"\ten\n", qr/only a %list/, 'quotes in a table'],
    ["still\tit\n", qr/unknown language 'it'/, 'an unknown language'],
    ["still\ten,en\n", qr/language 'en' twice/, 'a language twice'],
    ["still\t\n", qr/no language/, 'no language'],
    ["still\ten,\n", qr/unknown language ''/, 'an empty language'],
    ["ok\ten\n", qr/duplicate phrase 'ok' \(first at .*t\.tsv:3\)/,
     'a duplicate'],
    ["still\ten\tit was done\n", qr/every row has one or none/,
     'a what on one row only'],
    ["a\"b\ten\n", qr/'"'/, 'a double quote'],
    ["\xff\ten\n", qr/not valid UTF-8/, 'bad UTF-8'],
    ["%list\n", qr/directive comes before/, 'a directive after a phrase'],
    ['x' x 101 . "\ten\n", qr/longer than 100/, 'too long'],
);
for my $b (@bad) {
    my ($line, $re, $name) = @$b;
    my $f = spew("$dir/t.tsv", $good . $line);
    my ($ok, $out) = gen($f);
    ok(!$ok, "$name fails");
    like($out, qr/\Q$f\E:5: .*$re/, "... at t.tsv:5: $name");
}

my $dirv = spew("$dir/d.tsv", "# a list\n%table\nok\ten\n");
($ok, $out) = gen($dirv);
like($out, qr/d\.tsv:2: unknown directive/, 'an unknown directive fails');

my $list = spew("$dir/l.tsv", "%list\n\"let's \"\ten\nlet\ten\n");
($ok, $out) = gen($list);
ok($ok, 'a %list may quote an entry whose spaces count') or diag($out);
like(`cat $dir/out.c`, qr/\{ "let's ", NULL \}/, '... kept with its space');

$list = spew("$dir/l.tsv", "%list\n\"let\"\ten\n");
($ok, $out) = gen($list);
like($out, qr/l\.tsv:2: quotes are for/, 'quotes around no space fail');

my $empty = spew("$dir/e.tsv", "# nothing\n");
($ok, $out) = gen($empty);
like($out, qr/e\.tsv: no phrase/, 'a file with no phrase fails');

my $big = spew("$dir/big.tsv", join('', map { "p$_\ten\n" } 1 .. 255));
($ok, $out) = gen($big);
like($out, qr/255 phrases: a table holds at most 254/,
     'a table past a byte of index fails');

my $claims = spew("$dir/claims.tsv", "done\ten\tit was done\n");
my $more = spew("$dir/more.tsv", "%what-from claims\n\nsolved\ten\tit was "
                                  . "solved\n");
($ok, $out) = gen($claims, $more);
like($out, qr/more\.tsv:3: 'it was solved' is no 'what' of claims\.tsv/,
     "a what that claims.tsv does not say fails");
$more = spew("$dir/more.tsv", "%what-from claims\nsolved\ten\tit was done\n");
($ok, $out) = gen($claims, $more);
ok($ok, '... and one it says compiles') or diag($out);

done_testing();
