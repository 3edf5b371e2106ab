-- The hot state's rewrite (ngx_http_behave_gw_behavior.c): prefix, its
-- first bytes as read, length, its length then, and the new hot_state:
-- only while nothing was appended to it since (a batch appended passed the
-- old gate, maybe not the new one).

--! name behavior-hot-rewrite
--! keys hot
--! argv prefix length hot_state

local h = redis.call('GET', KEY.hot)
if not h or #h ~= tonumber(ARG.length)
   or string.sub(h, 1, #ARG.prefix) ~= ARG.prefix then
  return 0
end
redis.call('SET', KEY.hot, ARG.hot_state, 'KEEPTTL')
return 1
