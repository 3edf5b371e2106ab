-- A gateway key's limits (ngx_http_behave_limits.c): GCRA for the rate,
-- a day's counter for the tokens.  Returns {allowed, remaining, reset_s,
-- retry_after_s, tokens_used, why}.  now in ms; tokens_per_day 0: none;
-- to_midnight: the retry-after of a refusal for tokens; tokens_ttl: a
-- day's count outlives its UTC day, for late readers.

--! name gateway-limits
--! keys rate tokens
--! argv now rpm tokens_per_day cost to_midnight tokens_ttl

local now = tonumber(ARG.now)
local rpm = tonumber(ARG.rpm)
local tl = tonumber(ARG.tokens_per_day)
local cost = tonumber(ARG.cost)
local period = 60000
local t = period / rpm
local tat = tonumber(redis.call('GET', KEY.rate) or now)
if tat < now then tat = now end
local new_tat = tat + t
local used = tonumber(redis.call('GET', KEY.tokens) or '0')
local reset = math.ceil((tat - now) / 1000)
if new_tat - period > now then
  return {0, 0, reset, math.ceil((new_tat - period - now) / 1000),
          used, 'rpm'}
end
if tl > 0 and used + cost > tl then
  return {0, math.floor((now + period - tat) / t), reset,
          tonumber(ARG.to_midnight), used, 'tokens_per_day'}
end
redis.call('SET', KEY.rate, string.format('%.0f', new_tat), 'PX',
           math.ceil(new_tat - now) + 1000)
used = redis.call('INCRBY', KEY.tokens, cost)
redis.call('EXPIRE', KEY.tokens, ARG.tokens_ttl)
return {1, math.floor((now + period - new_tat) / t),
        math.ceil((new_tat - now) / 1000), 0, used, ''}
