#!/usr/bin/perl
# The same conversations through /v1/analyze (a real nginx and Redis:
# each turn sent as one turn of a conversation_id, assessed from the state
# Redis keeps) and through the pre-filter (each customer turn sent as a
# chat request carrying the turns before it, agents as the assistant, no
# Redis): the pre-filter's $behave_conv_action, $behave_false_resolution,
# $behave_repetition and $behave_escalating are the conversation block's
# recommendation.action, failure_flags.false_resolution,
# derived.repetition and derived.escalating for that turn, and
# $behave_peak_urgency the highest urgency_level /v1/analyze gave the
# customer's turns so far; a first turn has no block and no variable.
# Written conversations (data/corpus/conv-*.jsonl, blind-conv*.jsonl) and,
# when ../shared/data is there, real ones (support/conversations.jsonl,
# and real/twcs_threads.jsonl's threads of three turns or more).  The
# chat requests rotate through the four formats, and one in two ends on
# the agent's next turn (an assistant prefill, not read).

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use JSON::PP;
use Test::More;

start_redis();
start_nginx(http => <<'E2');
    behave_redis %%REDIS%%;
    behave_redis_timeout 2s;  # a loaded CI box must not turn a turn degraded
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys %%KEYS%%;
        client_max_body_size 4m;
        location = /v1/analyze { behave_analyze; }
        location /chat/ {
            behave_prefilter on;
            return 200 "$behave_status|$behave_conv_action|$behave_false_resolution|$behave_repetition|$behave_escalating|$behave_peak_urgency\n";
        }
    }
E2

my $JSON = JSON::PP->new->canonical->utf8;
my @URG = qw(passive low medium high critical);
my %URG = map { $URG[$_] => $_ } 0 .. $#URG;
my @FIELDS = qw(conv_action false_resolution repetition escalating
                peak_urgency);
my $request = 0;

# turns 0..k as a chat request in one of the four formats
sub chat_body {
    my ($turns, $k, $f) = @_;
    my @t = @$turns[0 .. $k];
    my $user = sub { $_[0]{speaker} ne 'agent' };

    if ($f == 0) {
        return $JSON->encode({ model => 'm', messages => [
            { role => 'system', content => 'You are a support agent.' },
            map { { role => $user->($_) ? 'user' : 'assistant',
                    content => $_->{message} } } @t ] });
    }
    if ($f == 1) {
        return $JSON->encode({ model => 'm', messages => [
            map { { role => $user->($_) ? 'user' : 'assistant', content => [
                { type => 'text', text => $_->{message} } ] } } @t ] });
    }
    if ($f == 2) {
        return $JSON->encode({ model => 'm', input => [
            { role => 'developer', content => 'Support agent.' },
            map { $user->($_)
                  ? { type => 'message', role => 'user', content => [
                        { type => 'input_text', text => $_->{message} } ] }
                  : { type => 'message', role => 'assistant', content => [
                        { type => 'output_text', text => $_->{message} } ] }
                } @t ] });
    }
    return $JSON->encode({ model => 'c', max_tokens => 9, system => 's',
        messages => [ map { { role => $user->($_) ? 'user' : 'assistant',
            content => [ { type => 'text', text => $_->{message} } ] } }
            @t ] });
}

# what /v1/analyze says of every turn of a conversation
sub through_analyze {
    my ($c, $tag) = @_;
    my @out;
    for my $t (@{ $c->{turns} }) {
        my $r = req_json(POST => '/v1/analyze', key => KEY_ANALYZE,
                         body => { conversation_id => "$tag-$c->{id}-$$",
                                   message => $t->{message},
                                   speaker => $t->{speaker} });
        push @out, $r->{json};
    }
    return \@out;
}

# the variables /v1/analyze's answers give for customer turn k
sub want_of {
    my ($c, $answers, $k) = @_;
    my $b = $answers->[$k]{conversation};
    return { map { $_ => '' } @FIELDS } unless $b;
    my $peak = -1;
    for my $i (0 .. $k) {
        next if $c->{turns}[$i]{speaker} eq 'agent';
        my $u = $URG{ $answers->[$i]{annotation}{urgency_level} // '' } // -1;
        $peak = $u if $u > $peak;
    }
    return { conv_action => $b->{recommendation}{action},
             false_resolution => $b->{failure_flags}{false_resolution}
                                 ? 'true' : 'false',
             repetition => $b->{derived}{repetition} ? 'true' : 'false',
             escalating => $b->{derived}{escalating} ? 'true' : 'false',
             peak_urgency => $URG[$peak] // '?' };
}

# every customer turn of the conversations of a file, both ways
sub replay {
    my ($file, $tag, %o) = @_;
    my ($n, @bad, %held);
    open my $fh, '<', $file or die "$file: $!";
    while (my $line = <$fh>) {
        my $c = decode_json($line);
        my @t = @{ $c->{turns} };
        next if @t < ($o{min_turns} // 1);
        next if grep { $_->{message} !~ /\S/ } @t;
        my $answers = through_analyze($c, $tag);
        my %expect = map { $_->{turn} => $_ } @{ $c->{expect} // [] };

        for my $k (0 .. $#t) {
            next if $t[$k]{speaker} eq 'agent';
            my $f = $request++ % 4;
            my $last = $k;
            $last++ if $request % 2 && $k < $#t
                       && $t[$k + 1]{speaker} eq 'agent';
            my $r = req_json(POST => '/chat/x', body => chat_body(\@t, $last, $f));
            my ($status, @v) = split /\|/, $r->{body} // '', -1;
            chomp $v[-1] if @v;
            my %got;
            @got{@FIELDS} = @v;
            my $want = want_of($c, $answers, $k);
            $n++;
            my $g = join ' ', map { $got{$_} // '?' } @FIELDS;
            my $w = join ' ', map { $want->{$_} } @FIELDS;
            push @bad, "$c->{id} turn $k (format $f): pre-filter $status $g,"
                       . " /v1/analyze $w" if $status ne 'ok' || $g ne $w;

            # the labelled expectations, held by each alike
            for my $x (sort keys %{ $expect{$k} // {} }) {
                next if $x eq 'turn';
                my $name = $x eq 'action' ? 'conv_action' : $x;
                next unless exists $got{$name};
                my $label = $expect{$k}{$x};
                $label = $label ? 'true' : 'false' if ref $label;
                $held{total}++;
                $held{prefilter}++ if ($got{$name} // '') eq $label;
                $held{analyze}++ if $want->{$name} eq $label;
            }
        }
    }
    return ($n // 0, \@bad, \%held);
}

sub check {
    my ($name, $n, $bad, $held) = @_;
    ok($n > 0 && !@$bad, "$name: the pre-filter's variables are /v1/analyze's "
       . "on every customer turn ($n turns, " . scalar(@$bad) . ' differ)');
    diag($_) for @$bad[0 .. ($#$bad < 4 ? $#$bad : 4)];
    if ($held->{total}) {
        is($held->{prefilter} // 0, $held->{analyze} // 0,
           "$name: labelled expectations held: pre-filter "
           . ($held->{prefilter} // 0) . ", /v1/analyze "
           . ($held->{analyze} // 0) . " of $held->{total}");
    }
}

my @files = map { m{([^/]+)\.jsonl$} }
    glob("$TOP/data/corpus/{conv,blind-conv}*.jsonl");
cmp_ok(scalar @files, '>=', 5, "the corpus' conversation files: @files");

my ($all, %sum) = (0);
for my $f (@files) {
    my ($n, $bad, $held) = replay("$TOP/data/corpus/$f.jsonl", $f);
    check("data/corpus/$f", $n, $bad, $held);
    $all += $n;
    $sum{$_} += $held->{$_} // 0 for qw(total prefilter analyze);
}
diag("written conversations: $all customer turns compared; labelled "
     . "expectations held by the pre-filter $sum{prefilter}, by "
     . "/v1/analyze $sum{analyze}, of $sum{total}");

SKIP: {
    my $support = "$DATA/support/conversations.jsonl";
    my $twcs = "$DATA/real/twcs_threads.jsonl";
    skip "no ../shared/data in this clone", 2
        unless -f $support && -f $twcs;
    check('shared support conversations', replay($support, 'support'));
    check('real threads (twcs, 3 turns or more)',
          replay($twcs, 'twcs', min_turns => 3));
}

check_error_log();
done_testing();
