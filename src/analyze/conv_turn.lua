-- A turn of a conversation (ngx_http_behave_conversation.c): appends the
-- turn's text to the log, pushes its record into the state and returns
-- the state as it was before, its tail (the review's mark) included (""
-- for a new conversation), or { log } when only an older build's log (or
-- an older build's state) exists.
--
-- The push is behave_conv_state_push() on the stored form
-- (behave_conv_state.layout: its fields' places and widths, and
-- conv_state.pattern, which reads them all at once): keep the two in
-- step.  Written for Redis' CPU, which counts by the call: one
-- string.match for the header, one concatenation to write it back.  A
-- turn is written in place (SETRANGE: the header, and a customer turn's
-- meaning and record in their slots), so that the script never makes a
-- long string but the one it returns; a tail moves to the new end when
-- the records grow.  A new
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
local F = S.fmt
local NONE = string.rep('f', S.w.claim_turn)
local NONE_N = tonumber(NONE, 16)

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
local fresh, body = false, ''
if not st or string.sub(st, 1, S.w.version) ~= S.version then
  if ARG.seed ~= '' then
    -- an "s1" state had this header: its tail, the review's mark, is kept
    local tail = ''
    if st and string.sub(st, 1, S.w.version) == 's1' then
      local r1 = tonumber(string.sub(st, S.at.nrec, S.at.nrec), 16)
      local m1 = tonumber(string.sub(st, S.at.nmean, S.at.nmean), 16)
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
    st = string.format(S.format, S.version, 0, 0, 0, 0, NONE_N, 0, 0, 0,
                       NONE_N, 0, 0, 0, 0)
    prev, fresh = '', true
  end
end

-- the header's fields, in the layout's order
local _, turns, cu, peak, fr, claim_turn, claim_what, peak_prev, fr_prev,
  claim_prev_turn, claim_prev_what, dropped, nr, nm =
  string.match(st, S.pattern)
local n = tonumber(turns, 16)
local dr = tonumber(dropped, 16)
local r0 = tonumber(nr, 16)
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
  local c = tonumber(cu, 16)
  local m, r = tonumber(nm, 16), r0
  local pk, f = peak, fr
  if ARG.severity > pk then pk = ARG.severity end
  if ARG.denies == '1' and claim_turn ~= NONE then f = '1' end
  -- the newest group, as it was, becomes the previous one
  peak_prev, fr_prev, claim_prev_turn, claim_prev_what =
    peak, fr, claim_turn, claim_what
  peak, fr, claim_turn = pk, f, NONE
  claim_what = string.format(F.claim_what, 0)
  cu = string.format(F.customers, (c + 1) % W)
  if m < NM then m = m + 1 end
  if r < NR then r = r + 1 end
  nr, nm = string.format(F.nrec, r), string.format(F.nmean, m)
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
  claim_turn = string.format(F.claim_turn, n)
  claim_what = string.format(F.claim_what, tonumber(ARG.claim))
end

-- the header again, in the layout's order
local new = S.version .. string.format(F.turns, n1 % W) .. cu .. peak .. fr
  .. claim_turn .. claim_what .. peak_prev .. fr_prev .. claim_prev_turn
  .. claim_prev_what .. string.format(F.dropped, dr % W) .. nr .. nm
if fresh then
  redis.call('SET', KEY.state, new .. body, 'EX', ARG.ttl)
else
  redis.call('SETRANGE', KEY.state, 0, new)
  redis.call('EXPIRE', KEY.state, ARG.ttl)
end
return prev
