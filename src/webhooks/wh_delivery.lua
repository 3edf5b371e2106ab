-- An acknowledged delivery recorded (ngx_http_behave_webhooks_receiver.c):
-- LPUSH and LTRIM in one step, so the list never holds one too many.

--! name webhook-delivery
--! keys deliveries
--! argv record keep

redis.call('LPUSH', KEY.deliveries, ARG.record)
redis.call('LTRIM', KEY.deliveries, 0, tonumber(ARG.keep) - 1)
return 1
