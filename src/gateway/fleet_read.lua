-- The fleet's heartbeats (ngx_http_behave_agents.c): the hash as it is.

--! name fleet-read
--! keys fleet

return redis.call('HGETALL', KEY.fleet)
