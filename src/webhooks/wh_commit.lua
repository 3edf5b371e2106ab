-- The one write of a delivered call (ngx_http_behave_webhooks_receiver.c).
-- Returns { "processed", segment } (the caller has the summary) or
-- { "duplicate", segment, the stored summary }: the summary is stored as
-- the core wrote it (behave_callsum_json()) and its segment beside it,
-- so that nothing edits its text; the answer is written again from it.
--
-- A call seen before answers its stored summary and counts nothing; a new
-- one takes the next segment of its conversation, and its summary and
-- delivery are written together.  Two deliveries of one call racing on two
-- workers are serialised here: one is "processed", the other "duplicate"
-- with the first one's summary.
--
-- summary: the call's summary; record: the delivery record (a JSON
-- object that gets the outcome and the segment); call_ttl, segment_ttl (seconds); keep:
-- deliveries kept.  A call to review comes with the review keys and
-- review_id, now (ms), reopen (the history entry), turns (the turn log)
-- and the record's field/value pairs: a processed call is filed in the
-- review queue in the same step, with the call's TTL.

--! name webhook-commit
--! keys call call_segment segments deliveries review_index? review_record? review_history? review_turns?
--! argv summary record call_ttl segment_ttl keep review_id? now? reopen? turns? pairs...
--! include ../infra/review_filing.lua

local prev = redis.call('GET', KEY.call)
local outcome, seg, out
if prev then
  outcome = 'duplicate'
  -- a summary an older build stored carries its segment inside it
  seg = redis.call('GET', KEY.call_segment)
    or string.match(prev, '"segment":(%d+)}$') or 'null'
  out = prev
else
  outcome = 'processed'
  seg = redis.call('INCR', KEY.segments)
  redis.call('EXPIRE', KEY.segments, ARG.segment_ttl)
  redis.call('SET', KEY.call, ARG.summary, 'EX', ARG.call_ttl)
  redis.call('SET', KEY.call_segment, seg, 'EX', ARG.call_ttl)
  if KEY.review_index then
    review_file({idx = KEY.review_index, rec = KEY.review_record,
                 hist = KEY.review_history, id = ARG.review_id,
                 now = ARG.now, ttl = ARG.call_ttl, reopen = ARG.reopen,
                 pairs = ARG.pairs})
    redis.call('SET', KEY.review_turns, ARG.turns, 'EX', ARG.call_ttl)
  end
end
redis.call('LPUSH', KEY.deliveries, string.sub(ARG.record, 1, -2)
  .. ',"outcome":"' .. outcome .. '","segment":' .. seg .. '}')
redis.call('LTRIM', KEY.deliveries, 0, tonumber(ARG.keep) - 1)
if prev then
  return {outcome, seg, out}
end
return {outcome, seg}
