#!/usr/bin/perl
# scripts/behave-keygen: a key it makes authenticates, and only its hash
# is stored.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Temp qw(tempdir);
use Test::More;

my $dir = tempdir(CLEANUP => 1);
my $file = "$dir/keys";

my $key = `$TOP/scripts/behave-keygen --tenant kg --scopes analyze --quota 5 --file $file 2>/dev/null`;
chomp $key;
is($? >> 8, 0, 'keygen exits 0');
like($key, qr/^bk_[A-Za-z0-9_-]{43}$/, 'a 256-bit URL-safe key is printed');
my $stored = do { local (@ARGV, $/) = $file; <> };
unlike($stored, qr/\Q$key\E/, 'the key itself is not in the file');
like($stored, qr/^[0-9a-f]{64} kg analyze 5$/m, 'the hash line is appended');

my $key2 = `$TOP/scripts/behave-keygen --tenant kg --file $file 2>/dev/null`;
chomp $key2;
isnt($key2, $key, 'a second key differs');

system("$TOP/scripts/behave-keygen --tenant 'bad tenant' --file $file 2>/dev/null");
isnt($? >> 8, 0, 'an invalid tenant is refused');
system("$TOP/scripts/behave-keygen --tenant t --scopes admin --file $file 2>/dev/null");
isnt($? >> 8, 0, 'an unknown scope is refused');

start_nginx(http => <<"E2");
    server {
        listen 127.0.0.1:%%PORT%%;
        behave_keys $file;
        location = /v1/analyze { behave_analyze; }
    }
E2

my $r = req_json(POST => '/v1/analyze', key => $key, body => { message => 'hello' });
is($r->{status}, 200, 'the generated key authenticates');
is($r->{json}{_meta}{tenant_remaining}, 4, 'with its quota');
$r = req_json(POST => '/v1/analyze', key => $key2, body => { message => 'hello' });
is($r->{status}, 200, 'so does the second');
# a key added to the file works after "nginx -s reload", not before
my $key3 = `$TOP/scripts/behave-keygen --tenant kg3 --file $file 2>/dev/null`;
chomp $key3;
is(req_json(POST => '/v1/analyze', key => $key3, body => { message => 'x' })->{status},
   401, 'a key added since the configuration was read is unknown');
reload_nginx();
is(req_json(POST => '/v1/analyze', key => $key3, body => { message => 'x' })->{status},
   200, 'after a reload it is known');
check_error_log();
done_testing();
