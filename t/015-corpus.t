#!/usr/bin/perl
# The corpus' format (scripts/check-corpus): every line of data/corpus a
# message or a conversation with every field and an allowed value, ids
# unique across files, so that a malformed line fails here rather than
# silently dropping out of scripts/train and scripts/eval.  The checker is
# shown to fail on a small corpus with one fault of each kind.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use Test::More;

my $out = `$TOP/scripts/check-corpus 2>&1`;
is($?, 0, 'data/corpus: no problem') or diag($out);
like($out, qr/^\d+ files, (\d+) messages, (\d+) conversations: 0 problems$/m,
     'the checker says what it read');
my ($msgs, $convs) = $out =~ /(\d+) messages, (\d+) conversations/;
cmp_ok($msgs, '>=', 1500, 'at least 1,500 messages (issue #14)');
cmp_ok($convs, '>=', 150, 'at least 150 conversations (issue #14)');

my $dir = tempdir('behave-corpus-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $ok = '{"id": "t-1", "lang": "en", "family": "ordinary", "style": "chat", '
    . '"text": "hi", "emotional_valence": "neutral", "urgency_level": "low", '
    . '"cognitive_load": "low", "engagement_state": "focused", '
    . '"social_register": "semi-formal", "cultural_context": []}';
my @bad = (
    $ok,
    $ok,                                            # id t-1 again
    '{"id": "t-2", "lang": "en"',                   # not JSON
    do { (my $l = $ok) =~ s/t-1/t-3/; $l =~ s/"low", "cognitive/"soon", "cognitive/; $l },
    do { (my $l = $ok) =~ s/t-1/t-4/; $l =~ s/ordinary/self_harm/; $l },
    do { (my $l = $ok) =~ s/t-1/t-5/; $l =~ s/, "cultural_context": \[\]//; $l },
);
open my $fh, '>', "$dir/msg-t.jsonl" or die $!;
print $fh join("\n", @bad), "\n";
close $fh;
open $fh, '>', "$dir/conv-t.jsonl" or die $!;
print $fh '{"id": "c-1", "lang": "en", "turns": [{"speaker": "customer", '
    . '"message": "a"}, {"speaker": "agent", "message": "b"}], "expect": '
    . '[{"turn": 1, "repetition": "yes"}, {"turn": 5, "action": "resolve"}]}',
    "\n";
close $fh;
$out = `$TOP/scripts/check-corpus $dir 2>&1`;
isnt($?, 0, 'a faulty corpus fails');
like($out, qr/msg-t.jsonl:2: id 't-1' also at msg-t.jsonl:1/, 'a duplicate id');
like($out, qr/msg-t.jsonl:3: not JSON/, 'a broken line');
like($out, qr/msg-t.jsonl:4: urgency_level 'soon'/, 'a value not in labels.md');
like($out, qr/msg-t.jsonl:5: family self_harm is critical, urgency_level low/,
     'a critical family not labelled critical');
like($out, qr/msg-t.jsonl:6: missing cultural_context/, 'a missing field');
like($out, qr/conv-t.jsonl:1: expect turn 1 is not a customer turn/,
     'a finding on an agent turn');
like($out, qr/conv-t.jsonl:1: expect repetition 'yes' is not a boolean/,
     'a finding that is not a boolean');
like($out, qr/conv-t.jsonl:1: expect turn 5 out of range/, 'a turn past the end');
like($out, qr/: 8 problems$/m, 'every fault counted once');

done_testing();
