#!/usr/bin/perl
# behave_lexicon FILE: an external VADER or AFINN lexicon merged over the
# built-in one at configuration time; a bad file fails nginx -t with the
# line number.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use Test::More;

my $dir = tempdir(CLEANUP => 1);

my $conf = sub {
    my ($lex) = @_;
    return ($lex ? "behave_lexicon $lex;" : '') . <<'E2';
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location = /v1/analyze { behave_analyze; }
    }
E2
};

sub valence {
    my ($text) = @_;
    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE, body => { message => $text });
    return $r->{json}{scores}{valence};
}

start_nginx(http => $conf->());
my $before = valence('the zorblax update');
my $meh = valence('meh');
stop_nginx();

# scores.valence stays in its label's band (docs/API.md "scores"): a
# lexicon moves the score within the band, and across when the label
# follows; 0.1 is more than noise and less than a band's half width
my $afinn = spew("$dir/afinn.txt", "# domain words\nzorblax\t-5\nmeh\t4\n");
start_nginx(http => $conf->($afinn));
for my $round (1, 2) {
    ok(valence('the zorblax update') < $before - 0.1,
       "round $round: an AFINN word unknown to the built-in lexicon counts");
    ok(valence('meh') > $meh + 0.1, "round $round: an AFINN score replaces the built-in one");
}
check_error_log();
stop_nginx();

my $vader = spew("$dir/vader.txt", "zorblax\t3.2\t0.9\t[3, 3, 4, 3, 3, 4, 3, 2, 4, 3]\n");
start_nginx(http => $conf->($vader));
ok(valence('the zorblax update') > $before + 0.1, 'a VADER file is read too');
stop_nginx();

my $bad = spew("$dir/bad.txt", "good\t2\nbetter\tlots\n");
my ($ok, $out) = start_nginx(test_only => 1, http => $conf->($bad));
ok(!$ok, 'a bad lexicon fails nginx -t');
like($out, qr/behave_lexicon: .*bad\.txt: line 2/, '... with the line number');

($ok, $out) = start_nginx(test_only => 1, http => $conf->("$dir/none.txt"));
ok(!$ok, 'a missing lexicon fails nginx -t');

done_testing();
