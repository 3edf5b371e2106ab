/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The Redis scripts of the review queue.  Every key a script touches is
 * in the slot of {<tenant>}; the list script derives record keys from
 * the prefix it is given, all of them in that slot too.
 */


#include "ngx_http_behave_reviews.h"


/*
 * KEYS: index.  ARGV: record key prefix, max score, min score, cursor
 * score ("" for none), cursor id, status, provider, reviewed ("", "1",
 * "0"), limit, scan cap.  Returns { items, next id, next score }, each
 * item { id, score, fields }; next id "" when nothing follows.
 *
 * Newest first; of equal scores the greater id first, as ZREVRANGE
 * orders them, so a cursor (score, id) skips the equal-score entries up
 * to its own.  Entries whose record expired are dropped from the index.
 * At most "scan cap" entries are read: a page may then hold fewer items
 * than asked, with a cursor to go on from.
 */
ngx_http_behave_redis_script_t  ngx_http_behave_rv_list_script = {
    "redis.reviews-list",
    "local limit, cap = tonumber(ARGV[9]), tonumber(ARGV[10])\n"
    "local cs = nil\n"
    "if ARGV[4] ~= '' then cs = tonumber(ARGV[4]) end\n"
    "local items, gone = {}, {}\n"
    "local off, scanned, more = 0, 0, false\n"
    "local last_id, last_sc = '', ''\n"
    "while not more and scanned < cap do\n"
    "    local b = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[2], ARGV[3],\n"
    "        'WITHSCORES', 'LIMIT', off, 100)\n"
    "    if #b == 0 then break end\n"
    "    off = off + #b / 2\n"
    "    for i = 1, #b, 2 do\n"
    "        local id, sc = b[i], b[i + 1]\n"
    "        if not (cs and tonumber(sc) == cs and id >= ARGV[5]) then\n"
    "            local f = redis.call('HMGET', ARGV[1] .. id,\n"
    "                " BEHAVE_REVIEW_LUA_FIELDS ")\n"
    "            if not f[1] then\n"
    "                gone[#gone + 1] = id\n"
    "            elseif (ARGV[6] == '' or f[5] == ARGV[6])\n"
    "                and (ARGV[7] == '' or f[2] == ARGV[7])\n"
    "                and (ARGV[8] == '' or (f[20] or '0') == ARGV[8]) then\n"
    "                if #items == limit then\n"
    "                    more = true\n"
    "                    break\n"
    "                end\n"
    "                items[#items + 1] = {id, sc, f}\n"
    "            end\n"
    "            last_id, last_sc = id, sc\n"
    "            scanned = scanned + 1\n"
    "            if scanned >= cap then break end\n"
    "        end\n"
    "    end\n"
    "end\n"
    "for _, id in ipairs(gone) do\n"
    "    redis.call('ZREM', KEYS[1], id)\n"
    "end\n"
    "if more then\n"
    "    return {items, items[#items][1], items[#items][2]}\n"
    "end\n"
    "if scanned >= cap then\n"
    "    return {items, last_id, last_sc}\n"
    "end\n"
    "return {items, '', ''}\n",
    ""
};


/* KEYS: record, history.  { fields, history } or nil */
ngx_http_behave_redis_script_t  ngx_http_behave_rv_get_script = {
    "redis.reviews-get",
    "local f = redis.call('HMGET', KEYS[1], " BEHAVE_REVIEW_LUA_FIELDS ")\n"
    "if not f[1] then\n"
    "    return nil\n"
    "end\n"
    "return {f, redis.call('LRANGE', KEYS[2], 0, -1)}\n",
    ""
};


/*
 * KEYS: record, history.  ARGV: reviewed ("1", "0"), by, note, now (ms),
 * the history entry.  { fields, history } after the change, or nil for
 * a review that is not there (another tenant's is not in this key space
 * at all).  The history lives as long as its record.
 */
ngx_http_behave_redis_script_t  ngx_http_behave_rv_patch_script = {
    "redis.reviews-patch",
    "if redis.call('EXISTS', KEYS[1]) == 0 then\n"
    "    return nil\n"
    "end\n"
    "if ARGV[1] == '1' then\n"
    "    redis.call('HSET', KEYS[1], 'reviewed', '1', 'reviewed_by', ARGV[2],\n"
    "        'reviewed_at', ARGV[4], 'note', ARGV[3])\n"
    "else\n"
    "    redis.call('HSET', KEYS[1], 'reviewed', '0', 'note', ARGV[3])\n"
    "    redis.call('HDEL', KEYS[1], 'reviewed_by', 'reviewed_at')\n"
    "end\n"
    "redis.call('RPUSH', KEYS[2], ARGV[5])\n"
    "redis.call('LTRIM', KEYS[2], -100, -1)\n"
    "local t = redis.call('PTTL', KEYS[1])\n"
    "if t > 0 then\n"
    "    redis.call('PEXPIRE', KEYS[2], t)\n"
    "end\n"
    "return {redis.call('HMGET', KEYS[1], " BEHAVE_REVIEW_LUA_FIELDS "),\n"
    "    redis.call('LRANGE', KEYS[2], 0, -1)}\n",
    ""
};
