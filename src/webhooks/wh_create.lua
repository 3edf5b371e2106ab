-- A new endpoint (ngx_http_behave_webhooks_mgmt.c).  The slug was claimed
-- before with SET NX (at 144 bits a clash is not expected; if it comes,
-- the caller answers 503 and the client retries with a new slug).
-- options: the provider's options in their stored form, "" for none (not
-- stored).

--! name webhook-create
--! keys record index
--! argv tenant id slug provider auth description created_at secret options

redis.call('HSET', KEY.record, 'tenant', ARG.tenant, 'id', ARG.id,
  'slug', ARG.slug, 'provider', ARG.provider, 'auth', ARG.auth,
  'description', ARG.description, 'created_at', ARG.created_at,
  'updated_at', '0', 'active', '1', 'secret', ARG.secret)
if ARG.options ~= '' then
  redis.call('HSET', KEY.record, 'signature', ARG.options)
end
redis.call('ZADD', KEY.index, ARG.created_at, ARG.id)
return 1
