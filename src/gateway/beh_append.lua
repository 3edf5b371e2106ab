-- A call's batch appended to its session (ngx_http_behave_gw_behavior.c).
-- Returns 0, having stored nothing, when there is no state and seed is
-- empty (the glue sends a new session's state only then, not with every
-- call); {1, the hot state before the batch} when the batch passes the
-- hot state's gate (gw_hot: it fits in the room and comes after the gate,
-- or wholly before the frontier: all late), else the state before the
-- batch (the hot one is dropped), or the older list when there is no
-- state and no seed yet.
--
-- ttl: the state's (behave_conversation_ttl and its slack); seed: the
-- state to start with (empty, or seeded from the older list), seeded "1"
-- when it was; last_t: the batch's latest t ("" without events); ttl_due
-- "1" when the state's TTL is to be set again.

--! name behavior-append
--! keys state list hot
--! argv ttl batch seed seeded last_t ttl_due
--! uses gw_hot

local H = gw_hot
local h = redis.call('GET', KEY.hot)
if h then
  local room = struct.unpack('<I4', h, H.at.room)
  local gate = struct.unpack('<d', h, H.at.gate)
  if #h + #ARG.batch <= room and (#ARG.last_t < 8
      or struct.unpack('<d', ARG.batch, H.batch_t) >= gate
      or struct.unpack('<d', ARG.last_t) < struct.unpack('<d', h, H.at.frontier))
  then
    local n = redis.call('APPEND', KEY.state, ARG.batch)
    if n > #ARG.batch then
      if ARG.ttl_due == '1' then
        redis.call('EXPIRE', KEY.state, ARG.ttl)
      end
      if n <= struct.unpack('<I4', h, H.at.full_max) then
        redis.call('APPEND', KEY.hot, ARG.batch)
        return {1, h}
      end
      redis.call('DEL', KEY.hot)
      return redis.call('GETRANGE', KEY.state, 0, n - #ARG.batch - 1)
    end
    redis.call('DEL', KEY.state)
  end
  redis.call('DEL', KEY.hot)
end
local s = redis.call('GET', KEY.state)
if not s then
  if ARG.seeded ~= '1' and redis.call('EXISTS', KEY.list) == 1 then
    return redis.call('LRANGE', KEY.list, 0, -1)
  end
  if #ARG.seed == 0 then return 0 end
  s = ARG.seed
  redis.call('SET', KEY.state, s .. ARG.batch, 'EX', ARG.ttl)
  if ARG.seeded == '1' then redis.call('DEL', KEY.list) end
  return s
end
redis.call('APPEND', KEY.state, ARG.batch)
if ARG.ttl_due == '1' then
  redis.call('EXPIRE', KEY.state, ARG.ttl)
end
return s
