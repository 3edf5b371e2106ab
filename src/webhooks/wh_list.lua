-- A tenant's endpoints (ngx_http_behave_webhooks_mgmt.c): { {fields...},
-- {delivery JSON...} } per endpoint, oldest endpoint first.  prefix: the
-- tenant's key prefix (its records are in the index's slot); deliveries:
-- how many of the newest to return.

--! name webhook-list
--! keys index
--! argv prefix deliveries
--! uses wh_endpoint

local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEY.index, 0, -1)) do
  local ep = redis.call('HMGET', ARG.prefix .. 'ep:' .. id,
    unpack(wh_endpoint))
  if ep[1] then
    local d = redis.call('LRANGE', ARG.prefix .. 'deliveries:' .. id,
      0, tonumber(ARG.deliveries) - 1)
    out[#out + 1] = {ep, d}
  end
end
return out
