#!/usr/bin/perl
# The include graph (scripts/check-includes): no cycle between files, no
# include across the layers docs/DESIGN.md draws; and the call graph
# (scripts/check-calls): no files that call each other.  Each checker is
# shown to fail on a small tree that has the faults.

use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Behave::Test;
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use Test::More;

# writes a small tree of files (path => text) under dir
sub tree {
    my ($dir, $files) = @_;
    for my $f (keys %$files) {
        (my $d = "$dir/$f") =~ s{/[^/]+$}{};
        make_path($d);
        spew("$dir/$f", $files->{$f});
    }
}

my $out = `$TOP/scripts/check-includes 2>&1`;
is($?, 0, 'the tree: no include cycle, no forbidden edge') or diag($out);
like($out, qr/no cycle, no forbidden edge/, 'the checker says what it checked');

# a tree with a cycle (a <-> b in the gateway), a gateway file including
# the analyze surface, infra including the gateway and the core nginx;
# inside the core, a surface folder including another and base/ including
# text/ (the core's layers), a core header named without its folder (one
# include root: "text/behave_l.h"), next to what is allowed: a surface
# folder including base/, text/ and conversation/
my $dir = tempdir('behave-inc-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my %files = (
    'src/gateway/ngx_a.c' => qq{#include "ngx_a.h"\n#include "ngx_b.h"\n},
    'src/gateway/ngx_a.h' => '',
    'src/gateway/ngx_b.c' => qq{#include "ngx_b.h"\n#include "ngx_a.h"\n#include "ngx_c.h"\n},
    'src/gateway/ngx_b.h' => '',
    'src/analyze/ngx_c.h' => '',
    'src/infra/ngx_d.c'   => qq{#include "ngx_a.h"\n},
    'src/core/base/behave_e.c' => qq{#include <ngx_core.h>\n},
    'src/core/gateway/behave_f.c' => qq{#include "analyze/behave_g.h"\n#include "base/behave_k.h"\n#include "text/behave_l.h"\n#include "conversation/behave_m.h"\n},
    'src/core/analyze/behave_g.h' => '',
    'src/core/base/behave_h.c'    => qq{#include "text/behave_l.h"\n},
    'src/core/text/behave_n.c'    => qq{#include "base/behave_k.h"\n#include "behave_l.h"\n},
    'src/core/base/behave_k.h'    => '',
    'src/core/text/behave_l.h'    => '',
    'src/core/conversation/behave_m.h' => '',
);
tree($dir, \%files);
$out = `$TOP/scripts/check-includes --root $dir 2>&1`;
isnt($?, 0, 'a faulty tree fails');
like($out, qr{include cycle: src/gateway/ngx_a <-> src/gateway/ngx_b}, 'the cycle is named');
like($out, qr{ngx_b\.c includes src/analyze/ngx_c\.h: gateway may not include analyze},
     'a surface including another is named');
like($out, qr{ngx_d\.c includes src/gateway/ngx_a\.h: infra may not include gateway},
     'infra including a surface is named');
like($out, qr{behave_e\.c: the core includes nginx}, 'the core including nginx is named');
like($out, qr{behave_f\.c includes src/core/analyze/behave_g\.h: core/gateway may not include core/analyze},
     'a surface folder of the core including another is named');
like($out, qr{behave_h\.c includes src/core/text/behave_l\.h: core/base may not include core/text},
     'base/ including text/ is named');
unlike($out, qr{behave_f\.c includes src/core/(base|text|conversation)/},
       'a surface folder may include base/, text/ and conversation/');
like($out, qr{behave_n\.c: "behave_l\.h" names no folder: include "text/behave_l\.h"},
     'a core header included without its folder is named');
unlike($out, qr{behave_[fh]\.c: ".*" names no folder},
       'a core header included by its folder passes');

# calls: the tree, then a tree where two files call each other; a third,
# called by one of them, only takes its function as a callback and names
# the other in a comment (neither is a call: no circle through it)
$out = `$TOP/scripts/check-calls 2>&1`;
is($?, 0, 'the tree: no call circle') or diag($out);
like($out, qr/no call circle/, 'the call checker says what it checked');

my $calls = tempdir('behave-calls-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my %c = (
    'src/infra/ngx_x.c' => "void\nngx_x_up(void)\n{\n    ngx_y_go();\n"
                         . "    ngx_z_start();\n}\n",
    'src/infra/ngx_y.c' => "void\nngx_y_go(void)\n{\n    ngx_x_up();\n}\n",
    'src/infra/ngx_z.c' => "static void\nngx_z_hook(void)\n{\n}\n\n"
                         . "void\nngx_z_start(void)\n{\n"
                         . "    /* ngx_y_go() is not called here */\n"
                         . "    h.up = ngx_x_up;\n    ngx_z_hook();\n}\n",
    'src/infra/ngx_w.c' => "void\nngx_w_run(void)\n{\n    ngx_z_start();\n"
                         . "    ngx_x_up();\n}\n",
);
tree($calls, \%c);
$out = `$TOP/scripts/check-calls --root $calls 2>&1`;
isnt($?, 0, 'files that call each other fail');
like($out, qr{call circle: src/infra/ngx_x\.c <-> src/infra/ngx_y\.c$}m,
     'the circle is named, and only its files');
unlike($out, qr{ngx_[zw]\.c}, 'a callback taken and calls one way are no circle');

done_testing();
