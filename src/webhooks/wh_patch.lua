-- An endpoint changed (ngx_http_behave_webhooks_mgmt.c): its fields after
-- the change, or nil when the record is not the tenant's (it is then not
-- in the tenant's key space at all).  active "" unchanged, "1" or "0";
-- set_description "1" to set it to description.

--! name webhook-patch
--! keys record
--! argv active set_description description now
--! uses wh_endpoint

if redis.call('EXISTS', KEY.record) == 0 then
  return nil
end
if ARG.active ~= '' then
  redis.call('HSET', KEY.record, 'active', ARG.active)
end
if ARG.set_description == '1' then
  redis.call('HSET', KEY.record, 'description', ARG.description)
end
redis.call('HSET', KEY.record, 'updated_at', ARG.now)
return redis.call('HMGET', KEY.record, unpack(wh_endpoint))
