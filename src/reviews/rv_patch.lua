-- A review marked reviewed or not (ngx_http_behave_reviews_patch.c):
-- { fields, history } after the change, or nil for a review that is not
-- there (another tenant's is not in this key space at all).  The history
-- lives as long as its record.  reviewed "1" or "0"; now in ms; entry the
-- history entry.

--! name reviews-patch
--! keys record history
--! argv reviewed by note now entry
--! uses review

if redis.call('EXISTS', KEY.record) == 0 then
  return nil
end
if ARG.reviewed == '1' then
  redis.call('HSET', KEY.record, 'reviewed', '1', 'reviewed_by', ARG.by,
    'reviewed_at', ARG.now, 'note', ARG.note)
else
  redis.call('HSET', KEY.record, 'reviewed', '0', 'note', ARG.note)
  redis.call('HDEL', KEY.record, 'reviewed_by', 'reviewed_at')
end
redis.call('RPUSH', KEY.history, ARG.entry)
redis.call('LTRIM', KEY.history, -100, -1)
local t = redis.call('PTTL', KEY.record)
if t > 0 then
  redis.call('PEXPIRE', KEY.history, t)
end
return {redis.call('HMGET', KEY.record, unpack(review)),
  redis.call('LRANGE', KEY.history, 0, -1)}
