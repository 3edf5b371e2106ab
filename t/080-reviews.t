#!/usr/bin/perl
# The review queue's read API: what gets filed (calls and conversations
# that need a person), tenant isolation, pagination, filters, bad
# cursors, one review in full, PATCH and its history, TTLs, redaction.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use Behave::Reviews;
use JSON::PP;
use MIME::Base64 qw(encode_base64url);
use Test::More;
use Time::HiRes qw(sleep time);

# behave_reviews needs Redis: nginx -t says so
my ($good, $out) = start_nginx(test_only => 1, http => <<'E');
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        location /v1/reviews { behave_reviews; }
    }
E
ok(!$good, 'behave_reviews without behave_redis: nginx -t fails');
like($out, qr/"behave_reviews" needs "behave_redis"/, 'and says why');

reviews_start();

my $acme = endpoint(KEY_PORTAL);
my $globex = endpoint(KEY_OTHER);
my $t0 = int(time * 1000);

# --- what is filed
my $fr = deliver_call($acme, CALL_FALSE_RESOLUTION);
is($fr->{review_status}, 'needs_review', 'false-resolution call: needs_review');
my $esc = deliver_call($acme, CALL_ESCALATED, verdict => 'failure');
is($esc->{review_status}, 'escalated', 'crisis call: escalated');
my $okc = deliver_call($acme, CALL_OK);
is($okc->{review_status}, 'ok', 'ordinary call: ok');
my $other = deliver_call($globex, CALL_FALSE_RESOLUTION);

# a retry of a filed call files nothing new
my $dup = deliver_call($acme, CALL_FALSE_RESOLUTION, call_id => $fr->{call_id});
is($dup->{status}, 'duplicate', 'retry: duplicate');

my $conv = 'rv-conv-' . $$;
my $last = analyze_turns(KEY_ALL, $conv, CALL_FALSE_RESOLUTION);
is($last->{conversation}{review_status}, 'needs_review',
   'conversation: needs_review');
analyze_turns(KEY_ALL, "calm-$$", CALL_OK);

my $cid = "conv:$conv";
ok(wait_review(KEY_PORTAL, $cid), 'the conversation is filed (background)');

my $list = req_json(GET => '/v1/reviews', key => KEY_PORTAL);
is($list->{status}, 200, 'list: 200');
is($list->{headers}{'cache-control'}, 'no-store', 'list: Cache-Control no-store');
my @ids = map { $_->{id} } @{ $list->{json}{reviews} };
is_deeply(\@ids, [ $cid, "call:standard:$esc->{call_id}",
                   "call:standard:$fr->{call_id}" ],
          'acme queue: the conversation, then the two calls, newest first');
is($list->{json}{next_cursor}, undef, 'one page: next_cursor null');

my ($row) = grep { $_->{id} eq "call:standard:$fr->{call_id}" }
            @{ $list->{json}{reviews} };
is($row->{kind}, 'call', 'row: kind');
is($row->{provider}, 'standard', 'row: provider');
is($row->{status}, 'needs_review', 'row: status');
is($row->{action}, 'handoff', 'row: action');
is($row->{turns}, 6, 'row: turns');
ok($row->{peak_severity} >= 2, 'row: peak severity');
is($row->{storage_mode}, 'redacted', 'row: storage_mode follows behave_redact');
ok($row->{false_resolution} && !$row->{reviewed}, 'row: flags');
like($row->{created_at}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
     'row: created_at ISO 8601');

# --- auth and tenant isolation
is(req_json(GET => '/v1/reviews')->{status}, 401, 'no key: 401');
my $r = req_json(GET => '/v1/reviews', key => KEY_ANALYZE);
is($r->{status}, 403, 'analyze-only key: 403');
is($r->{json}{error}{code}, 'forbidden', '403 code');

my $g = req_json(GET => '/v1/reviews', key => KEY_OTHER);
is_deeply([ map { $_->{id} } @{ $g->{json}{reviews} } ],
          [ "call:standard:$other->{call_id}" ],
          'globex sees only its own call');
is(req_json(GET => "/v1/reviews/call:standard:$fr->{call_id}",
            key => KEY_OTHER)->{status}, 404,
   'globex cannot read an acme review: 404');
is(req_json(GET => "/v1/reviews/$cid", key => KEY_OTHER)->{status}, 404,
   'nor an acme conversation');
$r = req_json(PATCH => "/v1/reviews/call:standard:$fr->{call_id}",
              key => KEY_OTHER, body => { reviewed_by => 'mallory' });
is($r->{status}, 404, 'nor mark it reviewed');
is(req_json(GET => "/v1/reviews/call:standard:$fr->{call_id}",
            key => KEY_PORTAL)->{json}{reviewed}, JSON::PP::false,
   'the acme review is unchanged');

# --- one review in full
my $d = req_json(GET => "/v1/reviews/call:standard:$fr->{call_id}",
                 key => KEY_PORTAL)->{json};
is(scalar @{ $d->{transcript} }, 6, 'detail: six turns');
is_deeply([ map { $_->{speaker} } @{ $d->{transcript} } ],
          [ qw(agent customer agent customer agent customer) ],
          'detail: speakers in order');
ok(defined $d->{transcript}[1]{annotation}{valence_score}
   && defined $d->{transcript}[1]{annotation}{emotional_valence},
   'detail: each turn annotated');
ok(!exists $d->{transcript}[0]{review} && exists $d->{transcript}[1]{review},
   'detail: a review at customer turns only');
unlike($d->{transcript}[3]{text}, qr/jane\.doe\@example\.com/,
       'redacted: the e-mail address is not stored');
like($d->{transcript}[3]{text}, qr/still not there/, 'redacted: the rest is');
my ($f) = grep { $_->{type} eq 'false_resolution' } @{ $d->{findings} };
ok($f, 'detail: the false resolution is a finding');
is($f->{turn}, 3, 'fired at customer turn 3');
is($f->{claim_turn}, 2, 'claimed at agent turn 2');
is($d->{verdicts}{provider}, 'success', 'provider verdict');
is($d->{verdicts}{service}, 'failure', 'service verdict');
ok($d->{verdicts}{disagreement}, 'disagreement');
ok((grep { $_->{type} eq 'verdict_disagreement' } @{ $d->{findings} }),
   'disagreement listed as a finding');

my $cd = req_json(GET => "/v1/reviews/$cid", key => KEY_PORTAL)->{json};
is($cd->{kind}, 'conversation', 'conversation review');
is($cd->{storage_mode}, 'full', 'conversation stored in full');
like($cd->{transcript}[3]{text}, qr/jane\.doe\@example\.com/,
     'full: the text as sent');
ok($cd->{false_resolution}, 'the false resolution sticks after a later turn');
is((grep { $_->{type} eq 'false_resolution' } @{ $cd->{findings} })[0]{turn},
   3, 'conversation finding at turn 3');

is(req_json(GET => '/v1/reviews/call:standard:nope', key => KEY_PORTAL)
   ->{status}, 404, 'unknown id: 404');
is(req_json(GET => '/v1/reviews/..%2F..%2Fetc', key => KEY_PORTAL)
   ->{status}, 404, 'malformed id: 404');
is(req_json(GET => "/v1/reviews/call:standard:$okc->{call_id}",
            key => KEY_PORTAL)->{status}, 404, 'an ok call is not filed');

# --- TTLs: those of the data pointed to
my $ttl = redis_cli('TTL', "behave:rv:{acme}:r:call:standard:$fr->{call_id}");
ok($ttl > 7 * 86400 - 60 && $ttl <= 7 * 86400, "call review TTL 7 days ($ttl)");
$ttl = redis_cli('TTL', "behave:rv:{acme}:t:call:standard:$fr->{call_id}");
ok($ttl > 7 * 86400 - 60, "call turns TTL 7 days ($ttl)");
$ttl = redis_cli('TTL', "behave:rv:{acme}:r:$cid");
ok($ttl > 86400 - 60 && $ttl <= 86400, "conversation review TTL 24h ($ttl)");
$ttl = redis_cli('TTL', 'behave:rv:{acme}:index');
ok($ttl > 7 * 86400 - 60, "index lives as long as its longest record ($ttl)");

# --- PATCH and history
my $id = "call:standard:$esc->{call_id}";
$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
              body => { reviewed_by => 'ana', note => 'called the customer' });
is($r->{status}, 200, 'PATCH: 200');
ok($r->{json}{reviewed}, 'reviewed');
is($r->{json}{reviewed_by}, 'ana', 'by');
like($r->{json}{reviewed_at}, qr/Z$/, 'at');
is($r->{json}{note}, 'called the customer', 'note');
is(scalar @{ $r->{json}{history} }, 1, 'history: one entry');
is($r->{json}{history}[0]{event}, 'marked_reviewed', 'history event');

$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
              body => { reviewed => JSON::PP::false, reviewed_by => 'bo',
                        note => 'not done yet' });
ok(!$r->{json}{reviewed}, 'unmarked');
is($r->{json}{reviewed_by}, undef, 'no reviewer while open');
is_deeply([ map { "$_->{event}/$_->{by}" } @{ $r->{json}{history} } ],
          [ 'marked_reviewed/ana', 'marked_unreviewed/bo' ],
          'history kept, oldest first');
req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
         body => { reviewed_by => 'ana' });
$d = req_json(GET => "/v1/reviews/$id", key => KEY_PORTAL)->{json};
is(scalar @{ $d->{history} }, 3, 'GET shows the whole history');
ok($d->{reviewed}, 'reviewed again');
$ttl = redis_cli('TTL', "behave:rv:{acme}:h:$id");
ok($ttl > 7 * 86400 - 60, "history TTL follows its record ($ttl)");

$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL, body => {});
is($r->{status}, 400, 'PATCH without reviewed_by: 400');
is($r->{json}{error}{code}, 'missing_field', 'missing_field');
$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
              body => { reviewed_by => 'x', reviewed => 'yes' });
is($r->{json}{error}{code}, 'invalid_field', 'reviewed not a boolean');
$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL, body => '{nope');
is($r->{json}{error}{code}, 'invalid_json', 'bad JSON: invalid_json');
$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
              body => '{"reviewed_by":"x"} {"reviewed_by":"y"}');
is($r->{json}{error}{code}, 'invalid_json', 'two documents: invalid_json');
$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
              body => '{"reviewed_by":"x\\u0000y"}');
is($r->{json}{error}{code}, 'invalid_json', '\\u0000: invalid_json');
$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
              body => "{\"reviewed_by\":\"\xff\"}");
is($r->{json}{error}{code}, 'invalid_utf8', 'not UTF-8: invalid_utf8');
$r = req_json(PATCH => "/v1/reviews/$id", key => KEY_PORTAL,
              body => '{"reviewed_by":"x"}',
              headers => { 'Content-Type' => 'text/plain' });
is($r->{status}, 415, 'PATCH not JSON: 415');
$r = req_json(PATCH => '/v1/reviews/call:standard:gone', key => KEY_PORTAL,
              body => { reviewed_by => 'x' });
is($r->{status}, 404, 'PATCH unknown: 404');
$r = req_json(DELETE => "/v1/reviews/$id", key => KEY_PORTAL);
is($r->{status}, 405, 'DELETE: 405');
is($r->{headers}{allow}, 'GET, PATCH', 'Allow: GET, PATCH');
$r = req_json(POST => '/v1/reviews', key => KEY_PORTAL, body => {});
is($r->{headers}{allow}, 'GET', 'list Allow: GET');
is(req_json(GET => '/v1/reviewsX', key => KEY_PORTAL)->{status}, 404,
   'other paths: 404');

# a reviewed conversation flagged again is reopened
req_json(PATCH => "/v1/reviews/$cid", key => KEY_PORTAL,
         body => { reviewed_by => 'ana' });
analyze_turns(KEY_ALL, $conv, [ [ customer => 'It is STILL not there!! '
                                  . 'This is the third time I ask!!' ] ]);
my $re = wait_review(KEY_PORTAL, $cid, sub { !$_[0]{reviewed} });
ok($re, 'flagged again: reopened');
is_deeply([ map { $_->{event} } @{ $re->{history} // [] } ],
          [ 'marked_reviewed', 'reopened' ], 'reopening is in the history');

# --- filters
sub ids { map { $_->{id} } @{ req_json(GET => "/v1/reviews?$_[0]",
                                       key => KEY_PORTAL)->{json}{reviews} } }
my @rows = @{ req_json(GET => '/v1/reviews', key => KEY_PORTAL)
              ->{json}{reviews} };
my @esc = map { $_->{id} } grep { $_->{status} eq 'escalated' } @rows;
ok((grep { $_ eq $id } @esc), 'the crisis call is escalated');
is_deeply([ ids('status=escalated') ], \@esc, 'status=escalated');
is_deeply([ ids('status=needs_review') ],
          [ map { $_->{id} } grep { $_->{status} eq 'needs_review' } @rows ],
          'status=needs_review');
ok(!grep({ $_ eq $id } ids('status=needs_review')),
   'status=needs_review leaves the escalated call out');
is_deeply([ ids('provider=api') ], [ $cid ], 'provider=api: conversations');
is(scalar(() = ids('provider=standard')), 2, 'provider=standard: calls');
is_deeply([ ids('provider=retell') ], [], 'provider=retell: none');
is_deeply([ ids('reviewed=true') ], [ $id ], 'reviewed=true');
is(scalar(() = ids('reviewed=false')), 2, 'reviewed=false');
is_deeply([ ids('to=' . ($t0 - 1)) ], [], 'to before everything: none');
is(scalar(() = ids('from=2020-01-01T00:00:00Z&to=2099-01-01T00:00:00.000Z')),
   3, 'ISO 8601 range');
is_deeply([ ids('from=' . (int(time * 1000) + 60000)) ], [],
          'from in the future: none');

for my $bad ('status=ok', 'provider=skype', 'limit=0', 'limit=101',
             'limit=x', 'from=yesterday', 'to=2026-02-30T00:00:00Z',
             'from=2000&to=1000', 'reviewed=maybe') {
    $r = req_json(GET => "/v1/reviews?$bad", key => KEY_PORTAL);
    is($r->{status}, 400, "$bad: 400");
    is($r->{json}{error}{code}, 'invalid_field', "$bad: invalid_field");
}

# --- pagination
deliver_call($acme, CALL_FALSE_RESOLUTION) for 1 .. 5;
my @all = ids('limit=100');
is(scalar @all, 8, 'eight reviews in all');
my (@paged, $cursor, $pages);
do {
    $r = req_json(GET => '/v1/reviews?limit=3'
                  . ($cursor ? "&cursor=$cursor" : ''), key => KEY_PORTAL);
    is($r->{status}, 200, 'page ' . ++$pages);
    ok(@{ $r->{json}{reviews} } <= 3, 'at most the limit');
    push @paged, map { $_->{id} } @{ $r->{json}{reviews} };
    $cursor = $r->{json}{next_cursor};
    like($cursor, qr/^[A-Za-z0-9_-]+$/, 'cursor is URL-safe') if $cursor;
} while ($cursor && $pages < 10);
is($pages, 3, 'three pages of 3, 3, 2');
is_deeply(\@paged, \@all, 'pages hold every review once, in order');

$r = req_json(GET => '/v1/reviews?limit=2&status=needs_review',
              key => KEY_PORTAL);
my $c1 = $r->{json}{next_cursor};
my @two = ids("limit=100&status=needs_review&cursor=$c1");
is_deeply([ @{[ map { $_->{id} } @{ $r->{json}{reviews} } ]}, @two ],
          [ ids('limit=100&status=needs_review') ],
          'a cursor with a filter continues the filtered list');

# bad cursors: a clear 400
for my $bad ('garbage!', 'abc', encode_base64url('hello'),
             encode_base64url('1:12:../../x'), encode_base64url('1:x:conv:a'),
             encode_base64url('2:12:conv:a'), 'A' x 400) {
    $r = req_json(GET => "/v1/reviews?cursor=$bad", key => KEY_PORTAL);
    is($r->{status}, 400, "bad cursor \"" . substr($bad, 0, 20) . "\": 400");
    is($r->{json}{error}{code}, 'invalid_field', 'invalid_field');
    like($r->{json}{error}{message}, qr/cursor/, 'the message names the cursor');
}

# equal times: the id orders them, and a cursor in the middle of a tie
# neither repeats nor skips one
redis_cli('ZADD', 'behave:rv:{acme}:index', 'XX', '1795428000000', $_)
    for @all;
my @tied = ids('limit=100');
is_deeply(\@tied, [ sort { $b cmp $a } @all ], 'ties: greater id first');
@paged = ();
$cursor = undef;
$pages = 0;
do {
    $r = req_json(GET => '/v1/reviews?limit=3'
                  . ($cursor ? "&cursor=$cursor" : ''), key => KEY_PORTAL);
    push @paged, map { $_->{id} } @{ $r->{json}{reviews} };
    $cursor = $r->{json}{next_cursor};
} while ($cursor && ++$pages < 10);
is_deeply(\@paged, \@tied, 'ties: paged once each, in order');

# an expired record drops out of the index
redis_cli('DEL', "behave:rv:{acme}:r:$all[-1]");
is(scalar(() = ids('limit=100')), 7, 'expired record: not listed');
is(redis_cli('ZSCORE', 'behave:rv:{acme}:index', $all[-1]), '',
   'and removed from the index');

# Redis down: 503, not a hang
stop_redis();
$r = req_json(GET => '/v1/reviews', key => KEY_PORTAL);
is($r->{status}, 503, 'Redis down: 503');
is($r->{headers}{'retry-after'}, '5', 'Retry-After');

check_error_log();
done_testing();
