-- A tenant's traces, newest first (ngx_http_behave_traces.c): from and
-- to are stream ids ("" from: the newest); count at most.

--! name traces-read
--! keys stream
--! argv from to count

if ARG.from == '' then
  return redis.call('XREVRANGE', KEY.stream, '+', '-', 'COUNT', ARG.count)
end
return redis.call('XREVRANGE', KEY.stream, ARG.to, ARG.from,
  'COUNT', ARG.count)
