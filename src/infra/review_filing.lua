-- Files a record in the review queue: shared by review_file.lua (a
-- flagged conversation) and the webhook commit script (a call to review,
-- in the step that stores it).  A status once escalated stays so; a review
-- marked reviewed that is flagged again is reopened, with a history entry;
-- the record and its history get the TTL of the data they point to, and
-- the index lives as long as its longest-lived record (entries whose
-- record expired are dropped when a list meets them).
--
-- rv: idx, rec, hist (keys), id, now (ms), ttl (seconds), reopen (the
-- history entry), pairs (the record's field/value pairs).

--! fragment

local function review_file(rv)
  local was = redis.call('HMGET', rv.rec, 'status', 'reviewed')
  redis.call('HSET', rv.rec, unpack(rv.pairs))
  if was[1] == 'escalated' then
    redis.call('HSET', rv.rec, 'status', 'escalated')
  end
  redis.call('HSETNX', rv.rec, 'created_at', rv.now)
  if was[2] == '1' then
    redis.call('HSET', rv.rec, 'reviewed', '0')
    redis.call('RPUSH', rv.hist, rv.reopen)
    redis.call('LTRIM', rv.hist, -100, -1)
  end
  redis.call('EXPIRE', rv.rec, rv.ttl)
  if redis.call('EXISTS', rv.hist) == 1 then
    redis.call('EXPIRE', rv.hist, rv.ttl)
  end
  redis.call('ZADD', rv.idx, rv.now, rv.id)
  if redis.call('TTL', rv.idx) < tonumber(rv.ttl) then
    redis.call('EXPIRE', rv.idx, rv.ttl)
  end
end
