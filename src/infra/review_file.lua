-- A flagged conversation turn filed in the review queue, in the
-- background (ngx_http_behave_review_index.c): at every turn of a flagged
-- conversation, so by EVALSHA, EVAL after a NOSCRIPT.  pairs: the
-- record's field/value pairs.

--! name review-file
--! keys index record history
--! argv id now ttl reopen pairs...
--! include review_filing.lua

review_file({idx = KEY.index, rec = KEY.record, hist = KEY.history,
             id = ARG.id, now = ARG.now, ttl = ARG.ttl, reopen = ARG.reopen,
             pairs = ARG.pairs})
return 1
