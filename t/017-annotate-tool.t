#!/usr/bin/perl
# behave-annotate (src/core/tools/behave_annotate_tool.c): JSON lines and
# CSV in, one annotation a message out, the share each risk threshold
# would route at the end; bad lines skipped and named, never fatal.  Then
# every message of the corpus: its scores lie in their labels' bands
# (docs/API.md "scores") and urgency is critical exactly when risk reaches
# the default threshold.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;

my $tool = "$TOP/build/core/behave_annotate_tool";
ok(-x $tool, 'behave-annotate is built (scripts/build core)')
    or BAIL_OUT('run scripts/build core');

my $dir = tempdir(CLEANUP => 1);
my $json = JSON::PP->new->utf8;

sub run {
    my ($args, $input) = @_;
    open(my $fh, '>', "$dir/in") or die;
    print $fh $input;
    close $fh;
    my $out = `$tool $args $dir/in 2>$dir/err`;
    my $rc = $? >> 8;
    my $err = do { local (@ARGV, $/) = "$dir/err"; <> };
    return ($rc, $out, $err);
}

# JSON lines: "message", "text", a line that is not a message
my ($rc, $out, $err) = run('', join("\n",
    '{"message":"I have taken all of my pills and I am saying goodbye"}',
    '{"text":"What is the exchange rate for euros today?"}',
    'this is not json',
    '{"message": 42}', ''));
is($rc, 0, 'jsonl: exits 0 with bad lines in it');
my @rows = map { $json->decode($_) } split /\n/, $out;
is(scalar @rows, 2, 'jsonl: one object a message');
is($rows[0]{line}, 1, 'the line number is given');
is($rows[1]{line}, 2, 'the second message is line 2');
is($rows[0]{annotation}{urgency_level}, 'critical',
   'an overdose taken is critical');
isnt($rows[1]{annotation}{urgency_level}, 'critical',
     'an exchange-rate question is not');
cmp_ok($rows[0]{scores}{risk}, '>', $rows[1]{scores}{risk},
       'the crisis has the higher risk');
ok(exists $rows[0]{routing}{suggested_action}, 'the routing is given');
like($err, qr/in:3: skipped \(no "message" string\)/,
     'a line that is not JSON is named');
like($err, qr/in:4: skipped/, 'a message that is not a string is named');
like($err, qr/2 messages, 2 skipped; critical at the default threshold \(risk >= (0\.\d+)\): 1 \(50\.000%\)/,
     'the summary counts messages, skips and criticals');
like($err, qr/^  risk >= 0\.500\s+\d+\s+[\d.]+%$/m,
     'the summary gives the share routed at each threshold');

# CSV: a header, quoted fields with commas, quotes and newlines
($rc, $out, $err) = run('--threshold 0.25', join("\n",
    'id,message,channel',
    '1,"My card was used just now in another country, ""not me"", help",web',
    qq{2,"two\nlines of a question about my invoice",mail},
    '3', ''));
is($rc, 0, 'csv: exits 0');
@rows = map { $json->decode($_) } split /\n/, $out;
is(scalar @rows, 2, 'csv: two messages read, quotes and newlines kept');
is($rows[1]{line}, 3, 'a record is numbered by its first line');
like($err, qr/in:5: skipped \(too few fields\)/,
     'a record without the column is named');
like($err, qr/^  risk >= 0\.250\s/m, 'a --threshold given is counted');

($rc, undef, $err) = run('--csv', "id,body\n1,hello\n");
is($rc, 1, 'a CSV without a message column fails');
like($err, qr/names no "message" or "text" column/, 'and says why');
($rc, $out) = run('--csv --field body -q', "id,body\n1,hello\n");
is($rc, 0, '--field names the column');
is($out, '', '-q prints no annotation');
($rc) = run('--threshold 2', "{}\n");
is($rc, 2, 'a threshold out of 0..1 is a usage error');

# every corpus message: scores in their bands, critical = risk >= threshold
my %bands = (
    valence => { positive => [0.15, 1], neutral => [-0.15, 0.15],
                 negative => [-1, -0.15], mixed => [-0.5, 0.5] },
    urgency => { passive => [0, 0.18], low => [0.18, 0.45],
                 medium => [0.45, 0.63], high => [0.63, 0.8],
                 critical => [0.8, 1] },
    cognitive_load => { low => [0, 0.3], moderate => [0.3, 0.55],
                        high => [0.55, 0.8], overload => [0.8, 1] },
    engagement => { disengaged => [0, 0.25], browsing => [0.25, 0.5],
                    focused => [0.5, 0.75], immersed => [0.75, 1] },
    formality => { formal => [0.65, 1], 'semi-formal' => [0.35, 0.65],
                   informal => [0, 0.35], crisis => [0, 1] },
);
my %label = (valence => 'emotional_valence', urgency => 'urgency_level',
             cognitive_load => 'cognitive_load',
             engagement => 'engagement_state',
             formality => 'social_register');

my $lines = '';
for my $f (sort glob("$TOP/data/corpus/*.jsonl")) {
    open(my $fh, '<', $f) or die;
    while (<$fh>) {
        my $m = $json->decode($_);
        $lines .= $json->encode({ message => $m->{text} }) . "\n"
            if defined $m->{text};
    }
}
($rc, $out, $err) = run('', $lines);
my ($thr) = $err =~ /risk >= (0\.\d+)\): /;
@rows = map { $json->decode($_) } split /\n/, $out;
cmp_ok(scalar @rows, '>', 10000, 'every corpus message is annotated');
my ($bad, $first) = (0, '');
for my $r (@rows) {
    my $ok = 1;
    for my $s (keys %bands) {
        my ($lo, $hi) = @{ $bands{$s}{ $r->{annotation}{ $label{$s} } } };
        my $v = $r->{scores}{$s};
        $ok = 0 if $v < $lo - 1e-9 || $v > $hi + 1e-9
                   || ($hi < 1 && $v >= $hi - 1e-9);
    }
    # risk is answered in thousandths: within half of one of the
    # threshold, either label agrees
    my $crit = $r->{annotation}{urgency_level} eq 'critical';
    $ok = 0 if ($crit && $r->{scores}{risk} < $thr - 0.0005)
               || (!$crit && $r->{scores}{risk} > $thr + 0.0005);
    if (!$ok) {
        $bad++;
        $first ||= $json->encode($r);
    }
}
is($bad, 0, 'scores agree with their labels on every corpus message')
    or diag($first);

done_testing();
