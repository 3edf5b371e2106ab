-- One review (ngx_http_behave_reviews_read.c): { fields, history } or nil.

--! name reviews-get
--! keys record history
--! uses review

local f = redis.call('HMGET', KEY.record, unpack(review))
if not f[1] then
  return nil
end
return {f, redis.call('LRANGE', KEY.history, 0, -1)}
