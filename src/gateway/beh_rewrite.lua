-- The background rewrite of a session's state
-- (ngx_http_behave_gw_behavior.c): a compare-and-set on its first bytes.
-- prefix: the first bytes of the state as read; consumed: how many bytes
-- the new blob replaces; blob; hot_state ("": none).  The hot state is
-- stored only when no batch came since the state was read (they did not
-- pass its gate), and expires no later than the state.

--! name behavior-rewrite
--! keys state hot
--! argv prefix consumed blob hot_state

local s = redis.call('GET', KEY.state)
local n = tonumber(ARG.consumed)
if not s or #s < n or string.sub(s, 1, #ARG.prefix) ~= ARG.prefix then
  return 0
end
redis.call('SET', KEY.state, ARG.blob .. string.sub(s, n + 1), 'KEEPTTL')
local ttl = redis.call('PTTL', KEY.state)
if #ARG.hot_state > 0 and #s == n and ttl > 0 then
  redis.call('SET', KEY.hot, ARG.hot_state, 'PX', ttl)
end
return 1
