-- A page of the review queue (ngx_http_behave_reviews_read.c).  Returns
-- { items, next id, next score }, each item { id, score, fields }; next id
-- "" when nothing follows.
--
-- Newest first; of equal scores the greater id first, as ZREVRANGE orders
-- them, so a cursor (score, id) skips the equal-score entries up to its
-- own.  Entries whose record expired are dropped from the index.  At most
-- scan_cap entries are read: a page may then hold fewer items than asked,
-- with a cursor to go on from.
--
-- prefix: the record keys' prefix (same slot); max, min: scores;
-- cursor_score ("" for none), cursor_id; status, provider, reviewed ("",
-- "1", "0"): filters, "" for any.

--! name reviews-list
--! keys index
--! argv prefix max min cursor_score cursor_id status provider reviewed limit scan_cap
--! uses review

local F = {}
for i, name in ipairs(review) do F[name] = i end

local limit, cap = tonumber(ARG.limit), tonumber(ARG.scan_cap)
local cs = nil
if ARG.cursor_score ~= '' then cs = tonumber(ARG.cursor_score) end
local items, gone = {}, {}
local off, scanned, more = 0, 0, false
local last_id, last_sc = '', ''
while not more and scanned < cap do
  local b = redis.call('ZREVRANGEBYSCORE', KEY.index, ARG.max, ARG.min,
    'WITHSCORES', 'LIMIT', off, 100)
  if #b == 0 then break end
  off = off + #b / 2
  for i = 1, #b, 2 do
    local id, sc = b[i], b[i + 1]
    if not (cs and tonumber(sc) == cs and id >= ARG.cursor_id) then
      local f = redis.call('HMGET', ARG.prefix .. id, unpack(review))
      if not f[1] then
        gone[#gone + 1] = id
      elseif (ARG.status == '' or f[F.status] == ARG.status)
        and (ARG.provider == '' or f[F.provider] == ARG.provider)
        and (ARG.reviewed == '' or (f[F.reviewed] or '0') == ARG.reviewed)
      then
        if #items == limit then
          more = true
          break
        end
        items[#items + 1] = {id, sc, f}
      end
      last_id, last_sc = id, sc
      scanned = scanned + 1
      if scanned >= cap then break end
    end
  end
end
for _, id in ipairs(gone) do
  redis.call('ZREM', KEY.index, id)
end
if more then
  return {items, items[#items][1], items[#items][2]}
end
if scanned >= cap then
  return {items, last_id, last_sc}
end
return {items, '', ''}
