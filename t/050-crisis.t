#!/usr/bin/perl
# Every crisis family in every language, and idioms that only sound like
# one, through nginx: POST /v1/analyze answers urgency_level critical (or
# not), and the LLM pre-filter's "behave_route urgency_level=critical
# @human" sends the same message, as an OpenAI-style chat body, to @human
# (or on to the model).  Cases: t/data/crisis-cases.jsonl, one message of
# the corpus' development part per family and language, three idioms per
# language, and the messages the generalisation issue reported.  How often
# such messages go right when never trained on is scripts/eval-corpus's
# held-out figure, floored in CI.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use JSON::PP;
use Test::More;

my $JSON = JSON::PP->new->utf8->canonical;

open my $fh, '<', "$FindBin::Bin/data/crisis-cases.jsonl" or die $!;
my @cases = map { $JSON->decode($_) } grep { /\S/ } <$fh>;
close $fh;

# the default operating point, as src/core/text/model/risk.tsv holds it
my ($THRESHOLD) = do {
    open my $rf, '<', "$TOP/src/core/text/model/risk.tsv" or die $!;
    map { /^threshold\t([\d.]+)/ ? $1 : () } <$rf>;
};
ok(defined $THRESHOLD && $THRESHOLD > 0 && $THRESHOLD < 1,
   "the risk head's default threshold is $THRESHOLD");

my %families;
$families{"$_->{lang}/$_->{family}"}++ for grep { $_->{critical} } @cases;
is(scalar keys %families, 80, 'the cases cover 16 families x 5 languages') or diag(join ' ', sort keys %families);

start_nginx(http => <<'E2');
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;

        location = /v1/analyze { behave_analyze; }

        location /v1/chat/ {
            behave_prefilter on;
            behave_route urgency_level=critical @human;
            proxy_set_header X-Behave-Urgency $behave_urgency;
            proxy_pass http://127.0.0.1:%%PORT%%/model/;
        }

        location /model/ {
            return 200 "model:$http_x_behave_urgency\n";
        }

        location @human {
            return 200 "human:$behave_urgency\n";
        }
    }
E2

# The probes written outside the corpus for the generalisation issues
# (p5-*, issue-*, i9-*): short crisis statements in five languages, some
# with laughter.  The risk
# head marks most of them critical at its default threshold; each miss is
# reported (TODO) and the share is bounded below (65%), since the default point
# trades some of them for false alarms at production rates (README).
my ($probes, $probes_hit) = (0, 0);

for my $c (@cases) {
    my $name = "$c->{id} $c->{lang} $c->{family}";
    my $want = $c->{critical} ? 'critical' : 'not critical';
    my $probe = $c->{critical} && $c->{id} =~ /^(p5|issue|i9)-/;
    local $TODO = $probe ? 'risk below the default threshold' : undef;

    my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                     body => { message => $c->{text} });
    is($r->{status}, 200, "$name: analyze 200");
    my $u = $r->{json}{annotation}{urgency_level} // '';
    is($u eq 'critical' ? 'critical' : 'not critical', $want,
       "$name: analyze says $want") or diag($c->{text});
    if ($probe) {
        $probes++;
        $probes_hit++ if $u eq 'critical';
    }
    my $risk = $r->{json}{scores}{risk} // -1;
    ok(($u eq 'critical') == ($risk >= $THRESHOLD - 0.0005)
       || abs($risk - $THRESHOLD) < 0.0005,
       "$name: critical exactly when scores.risk ($risk) reaches "
       . "$THRESHOLD");

    my $chat = $JSON->encode({ model => 'any', messages => [
        { role => 'system', content => 'You are a helpful assistant.' },
        { role => 'user', content => $c->{text} } ] });
    $r = req_json(POST => '/v1/chat/completions', body => $chat);
    is($r->{status}, 200, "$name: pre-filter 200");
    if ($c->{critical}) {
        is($r->{body}, "human:critical\n", "$name: routed to \@human");
    } else {
        like($r->{body}, qr/^model:(passive|low|medium|high)\n\z/,
             "$name: passed on to the model");
    }
}

{
    local $TODO;
    cmp_ok($probes_hit, '>=', $probes * 0.65,
           "at least 65% of the $probes crisis probes critical "
           . "($probes_hit)");
}

check_error_log();
done_testing();
