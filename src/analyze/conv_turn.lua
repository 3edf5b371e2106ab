-- A turn of a conversation (ngx_http_behave_conversation.c): appends the
-- turn's text to the log, pushes its record into the state and returns
-- the state as it was before, its tail (the review's mark) included (""
-- for a new conversation), or { log } when only an older build's log (or
-- an older build's state) exists.
--
-- The push is behave_conv_state_push() on the stored form
-- (behave_conv_state.layout): keep the two in step.  A turn is written in
-- place (SETRANGE: the header, and a customer turn's meaning and record in
-- their slots), so that the script never makes a long string but the one
-- it returns; a tail moves to the new end when the records grow.  A new
-- conversation's state is written whole, in one SET, as slot 0 of each.
-- The log is written first, the state last: a write that fails (a key of
-- another type) leaves the state as it was.  Counters wrap at 2^32, as in
-- C.  Past max_turns * 1.5 turns the log's front is cut to the newest
-- max_turns, behind the header "d<turns dropped>" 0xff; records the log
-- should hold and does not (cut short by hand) count as dropped, so that a
-- damaged log is not rewritten again at every turn.
--
-- speaker "c" customer or "a" agent; severity one hex digit; denies "1"
-- when the turn denies a settled issue; claim an agent turn's claim (0
-- none); rec and meaning a customer turn's record and meaning signature
-- (empty for an agent turn); max_turns turns of text the log keeps; seed a
-- state computed from the log, or "".

--! name conversation-turn
--! keys log state
--! argv record ttl speaker severity denies claim rec meaning max_turns seed
--! uses conv_state

local S = conv_state
local W = 4294967296
local M, R, NM, NR = S.meaning, S.rec, S.meanings, S.ring

local function head(st)
  local h = {}
  for _, f in ipairs(S.order) do
    h[f] = string.sub(st, S.at[f], S.at[f] + S.w[f] - 1)
  end
  return h
end

local function pack(h)
  local out = {}
  for i, f in ipairs(S.order) do
    out[i] = h[f]
  end
  return table.concat(out)
end

local function hex(f, v)
  return string.format(S.fmt[f], v)
end

-- the length of a state of r records: its tail starts there
local function size(r)
  if r == 0 then return S.size end
  return S.size + NM * M + r * (4 + R)
end

if ARG.speaker == 'c' and (#ARG.rec ~= R or #ARG.meaning ~= M) then
  return redis.error_reply('bad turn record')
end

local st = redis.call('GET', KEY.state)
local prev = st
local fresh, body, h = false, '', nil
if not st or string.sub(st, 1, S.w.version) ~= S.version then
  if ARG.seed ~= '' then
    -- an "s1" state had this header: its tail, the review's mark, is kept
    local tail = ''
    if st and string.sub(st, 1, S.w.version) == 's1' then
      local h1 = head(st)
      local r1, m1 = tonumber(h1.nrec, 16), tonumber(h1.nmean, 16)
      if r1 and m1 then
        tail = string.sub(st, S.size + 1 + m1 * M + r1 * (4 + R))
      end
    end
    st = ARG.seed .. tail
    prev = st
    redis.call('SET', KEY.state, st, 'EX', ARG.ttl)
  else
    local log = redis.call('GET', KEY.log)
    if log then return { log } end
    -- every field zero, no claim
    h = {}
    for _, f in ipairs(S.order) do
      h[f] = string.rep('0', S.w[f])
    end
    h.version = S.version
    h.claim_turn = string.rep('f', S.w.claim_turn)
    h.claim_prev_turn = h.claim_turn
    st = pack(h)
    prev, fresh = '', true
  end
end

h = h or head(st)
local n = tonumber(h.turns, 16)
local dr = tonumber(h.dropped, 16)
local r0 = tonumber(h.nrec, 16)
if #st < S.size or not n or not dr or not r0 or #st < size(r0) then
  return redis.error_reply('bad conversation state')
end
local n1 = n + 1

redis.call('APPEND', KEY.log, ARG.record)
local max = tonumber(ARG.max_turns)
if max > 0 and n1 - dr > max + math.floor(max / 2) then
  local log = redis.call('GET', KEY.log)
  local pos = 1
  if string.sub(log, 1, 1) == 'd' then
    pos = (string.find(log, '\255', 1, true) or 0) + 1
  end
  for i = 1, n1 - dr - max do
    local e = string.find(log, '\255', pos, true)
    if not e then break end
    pos = e + 1
  end
  dr = n1 - max
  redis.call('SET', KEY.log, 'd' .. dr .. '\255' .. string.sub(log, pos))
end
redis.call('EXPIRE', KEY.log, ARG.ttl)

if ARG.speaker == 'c' then
  local c = tonumber(h.customers, 16)
  local m, r = tonumber(h.nmean, 16), r0
  local pk, fr = h.peak, h.fr
  if ARG.severity > pk then pk = ARG.severity end
  if ARG.denies == '1' and h.claim_turn ~= string.rep('f', S.w.claim_turn)
  then
    fr = '1'
  end
  -- the newest group, as it was, becomes the previous one
  h.peak_prev, h.fr_prev = h.peak, h.fr
  h.claim_prev_turn, h.claim_prev_what = h.claim_turn, h.claim_what
  h.peak, h.fr = pk, fr
  h.claim_turn = string.rep('f', S.w.claim_turn)
  h.claim_what = hex('claim_what', 0)
  h.customers = hex('customers', (c + 1) % W)
  if m < NM then m = m + 1 end
  if r < NR then r = r + 1 end
  h.nrec, h.nmean = hex('nrec', r), hex('nmean', m)
  local rec = string.char(n % 256, math.floor(n / 256) % 256,
    math.floor(n / 65536) % 256, math.floor(n / 16777216)) .. ARG.rec
  local tail = string.sub(st, size(r0) + 1)
  if r0 == 0 then
    body = ARG.meaning .. string.rep('\0', (NM - 1) * M) .. rec
    if not fresh then
      redis.call('SETRANGE', KEY.state, S.size, body)
    end
  else
    redis.call('SETRANGE', KEY.state, S.size + (c % NM) * M, ARG.meaning)
    redis.call('SETRANGE', KEY.state, S.size + NM * M + (c % NR) * (4 + R),
      rec)
  end
  if r ~= r0 and tail ~= '' then
    redis.call('SETRANGE', KEY.state, size(r), tail)
  end
elseif ARG.claim ~= '0' then
  h.claim_turn = hex('claim_turn', n)
  h.claim_what = hex('claim_what', tonumber(ARG.claim))
end

h.turns = hex('turns', n1 % W)
h.dropped = hex('dropped', dr % W)
local new = pack(h)
if fresh then
  redis.call('SET', KEY.state, new .. body, 'EX', ARG.ttl)
else
  redis.call('SETRANGE', KEY.state, 0, new)
  redis.call('EXPIRE', KEY.state, ARG.ttl)
end
return prev
