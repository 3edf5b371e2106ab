#!/usr/bin/perl
# The review console in a real browser: headless Chromium (Debian's
# chromium, installed by scripts/deps) loads html/console/ from the test
# nginx, the token is pasted into its form, the queue must show the rows
# the API lists, and the call view must draw one trajectory point per
# customer turn, with the false-resolution claim and denial marked.  The
# screenshot is kept under build/ and its path printed.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Behave::Reviews;
use JSON::PP;
use Test::More;

my $chromium = (grep { -x } map { "/usr/bin/$_" }
                qw(chromium chromium-browser google-chrome))[0];
my $have = ok($chromium,
                'a Chromium is installed (scripts/deps installs chromium)');
$have &= ok(system('node --version >/dev/null 2>&1') == 0,
            'node is installed (scripts/deps installs nodejs)');

# without them this file fails (it is not skipped) and the others run on
unless ($have) {
    done_testing();
    exit 1;
}

reviews_start();

# static files: served by nginx, with the CSP, nothing from elsewhere
for my $f ('', 'console.js', 'console.css') {
    my $r = req_json(GET => "/console/$f");
    is($r->{status}, 200, "/console/$f: 200");
    is($r->{headers}{'content-security-policy'}, "default-src 'self'",
       "/console/$f: CSP default-src 'self'");
}

for my $f (glob("$TOP/html/console/*")) {
    open my $fh, '<', $f or die;
    my $text = do { local $/; <$fh> };
    my @urls = grep { $_ ne 'http://www.w3.org/2000/svg' }
               $text =~ m{(https?://[^\s"'<>)]+)}g;
    is_deeply(\@urls, [], "$f: no URL of another origin");
    unlike($text, qr/<script>|\son[a-z]+=|style=/,
           "$f: no inline script, handler or style (CSP)");
}

# a few processed calls and a conversation
my $ep = endpoint(KEY_PORTAL);
my $fr = deliver_call($ep, CALL_FALSE_RESOLUTION);
deliver_call($ep, CALL_ESCALATED, verdict => 'failure');
deliver_call($ep, CALL_OK);
analyze_turns(KEY_ALL, "console-$$", CALL_FALSE_RESOLUTION);
ok(wait_review(KEY_PORTAL, "conv:console-$$"), 'conversation filed');

my $list = req_json(GET => '/v1/reviews', key => KEY_PORTAL)->{json};
my $id = "call:standard:$fr->{call_id}";
my $detail = req_json(GET => "/v1/reviews/$id", key => KEY_PORTAL)->{json};
my $customers = grep { $_->{speaker} eq 'customer' } @{ $detail->{transcript} };
is($customers, 3, 'the call has three customer turns');

my $shot = "$TOP/build/console-screenshot.png";
unlink $shot;
my $url = 'http://127.0.0.1:' . nginx_port() . '/console/';
my $out = `node $TOP/scripts/console-check.js $url @{[ KEY_PORTAL ]} '$id' $shot`;
is($?, 0, 'the browser script ran') or diag($out);
my $seen = eval { decode_json($out) } // {};

ok($seen->{form_before_token}, 'the token form shows first');
ok($seen->{queue_loaded}, 'the queue loaded');
is_deeply([ map { $_->{id} } @{ $seen->{rows} // [] } ],
          [ map { $_->{id} } @{ $list->{reviews} } ],
          'the queue shows the rows the API lists, in order');
is_deeply($seen->{headers}, [ 'Time', 'Provider', 'Status', 'Action',
                              'Peak severity', 'Turns', 'Reviewed' ],
          'queue columns');
my ($row) = grep { $_->{id} eq $id } @{ $seen->{rows} // [] };
is_deeply([ @{ $row->{cells} // [] }[1 .. 5] ],
          [ 'standard', 'needs review', 'handoff',
            $detail->{peak_severity}, 6 ],
          'the row: provider, status, action, peak severity, turns');
ok(!$seen->{token_in_url}, 'the token is never in the URL');
ok($seen->{token_kept}, 'the token is kept in sessionStorage');

ok($seen->{call_loaded}, 'the call view loaded');
is($seen->{customer_points}, $customers,
   'one trajectory point per customer turn');
is($seen->{agent_points}, 3, 'and one per agent turn, marked apart');
ok($seen->{line}, 'the trajectory is a line');
is($seen->{claim_marks}, 1, 'the resolution claim is marked');
is($seen->{denial_marks}, 1, 'the denial is marked');
is_deeply($seen->{highlighted}, { claim => [ '#2 agent' ],
                                  denial => [ '#3 customer' ] },
          'claim and denial highlighted in the transcript');
like($seen->{storage_note}, qr/redacted/, 'the storage mode is shown');
ok($seen->{marked}, 'marked reviewed from the page');
like(($seen->{history} // [])->[0] // '', qr/marked reviewed by console test/,
     'the history shows it');
ok(req_json(GET => "/v1/reviews/$id", key => KEY_PORTAL)->{json}{reviewed},
   'and the API has it');

ok(-s $shot, 'screenshot written');
open my $png, '<:raw', $shot;
read $png, my $magic, 8;
is($magic, "\x89PNG\r\n\x1a\n", 'screenshot is a PNG');
ok(-s $seen->{queue_screenshot}, 'queue screenshot written');
diag("console screenshots: $shot $seen->{queue_screenshot}");

check_error_log();
done_testing();
