-- A conversation's filing mark put after its state (the tail the turn
-- script carries over), or taken off (""): ngx_http_behave_review_index.c.
-- Run by EVAL: once a filing or a PATCH, not once a turn.  0 when there
-- is no state of this version or the mark is already there.

--! name review-mark
--! keys state
--! argv mark
--! uses conv_state

local S = conv_state
local st = redis.call('GET', KEY.state)
if not st or #st < S.size
   or string.sub(st, 1, S.w.version) ~= S.version then
  return 0
end
local nr = tonumber(string.sub(st, S.at.nrec, S.at.nrec + S.w.nrec - 1), 16)
if not nr then return 0 end
local n = S.size
if nr > 0 then
  n = n + S.meanings * S.meaning + nr * (4 + S.rec)
end
if #st < n or string.sub(st, n + 1) == ARG.mark then return 0 end
redis.call('SET', KEY.state, string.sub(st, 1, n) .. ARG.mark, 'KEEPTTL')
return 1
