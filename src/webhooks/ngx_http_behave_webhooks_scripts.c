/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The Redis scripts of surface C.  Each runs atomically, so a failure
 * (Redis down, timeout) before or during a script leaves either all of
 * its writes or none: there is no claim marker to clean up.
 *
 * Key layout: ngx_http_behave_redis_keys.h.  Every script touches the
 * keys of one tenant only, which share the hash tag {<tenant>} and so one
 * Redis Cluster slot (list derives its keys inside the script: same
 * slot).  The global slug key, in a slot of its own, is read and written
 * by plain commands before the tenant's script: see create and the
 * receiver.
 */


#include "ngx_http_behave_webhooks_scripts.h"
#include "ngx_http_behave_webhooks_util.h"
#include "ngx_http_behave_redis_keys.h"

#include "behave_review.h"


/*
 * KEYS: record, tenant index.  ARGV: tenant, id, slug, provider, auth,
 * description, created_at, sealed secret, Vapi options ("" for other
 * providers: not stored).  The slug was claimed before with SET NX (at
 * 144 bits a clash is not expected; if it comes, the caller answers 503
 * and the client retries with a new slug).
 */
ngx_http_behave_redis_script_t  ngx_http_behave_wh_create_script = {
    "redis.webhook-create",
    "redis.call('HSET', KEYS[1], 'tenant', ARGV[1], 'id', ARGV[2],\n"
    "    'slug', ARGV[3], 'provider', ARGV[4], 'auth', ARGV[5],\n"
    "    'description', ARGV[6], 'created_at', ARGV[7], 'updated_at', '0',\n"
    "    'active', '1', 'secret', ARGV[8])\n"
    "if ARGV[9] ~= '' then\n"
    "    redis.call('HSET', KEYS[1], 'signature', ARGV[9])\n"
    "end\n"
    "redis.call('ZADD', KEYS[2], ARGV[7], ARGV[2])\n"
    "return 1\n",
    ""
};


/*
 * KEYS: tenant index.  ARGV: the tenant's prefix, deliveries to
 * return.  Returns { {fields...}, {delivery JSON...} } per endpoint,
 * oldest endpoint first.
 */
ngx_http_behave_redis_script_t  ngx_http_behave_wh_list_script = {
    "redis.webhook-list",
    "local out = {}\n"
    "for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do\n"
    "    local ep = redis.call('HMGET', ARGV[1] .. 'ep:' .. id,\n"
    "        " NGX_HTTP_BEHAVE_WH_FIELDS ")\n"
    "    if ep[1] then\n"
    "        local d = redis.call('LRANGE', ARGV[1] .. 'deliveries:' .. id,\n"
    "            0, tonumber(ARGV[2]) - 1)\n"
    "        out[#out + 1] = {ep, d}\n"
    "    end\n"
    "end\n"
    "return out\n",
    ""
};


/*
 * KEYS: record.  ARGV: active ("" unchanged, "1", "0"), "1" to set the
 * description, the description, now.  nil when the record is not the
 * tenant's (it is then not in the tenant's key space at all).
 */
ngx_http_behave_redis_script_t  ngx_http_behave_wh_patch_script = {
    "redis.webhook-patch",
    "if redis.call('EXISTS', KEYS[1]) == 0 then\n"
    "    return nil\n"
    "end\n"
    "if ARGV[1] ~= '' then\n"
    "    redis.call('HSET', KEYS[1], 'active', ARGV[1])\n"
    "end\n"
    "if ARGV[2] == '1' then\n"
    "    redis.call('HSET', KEYS[1], 'description', ARGV[3])\n"
    "end\n"
    "redis.call('HSET', KEYS[1], 'updated_at', ARGV[4])\n"
    "return redis.call('HMGET', KEYS[1], " NGX_HTTP_BEHAVE_WH_FIELDS ")\n",
    ""
};


/*
 * The one write of a delivered call.  KEYS: call, conversation's segment
 * counter, deliveries.  ARGV: summary JSON, delivery record JSON (both
 * end with '}' and get the segment appended), call TTL, segment TTL,
 * deliveries kept.  Returns { "processed", segment } (the caller has the
 * summary) or { "duplicate", segment, the stored summary }.
 *
 * A call to review comes with four more KEYS (review index, record,
 * history, turns) and ARGV (review id, time in ms, reopened entry, the
 * turns), then the record's field/value pairs: a processed call is filed
 * in the review queue in the same step (BEHAVE_REVIEW_LUA_INDEX), with
 * the call's TTL.
 *
 * A call seen before answers its stored summary and counts nothing; a
 * new one takes the next segment of its conversation, and its summary
 * and delivery are written together.  Two deliveries of one call racing
 * on two workers are serialised here: one is "processed", the other
 * "duplicate" with the first one's summary.
 */
ngx_http_behave_redis_script_t  ngx_http_behave_wh_commit_script = {
    "redis.webhook-commit",
    "local prev = redis.call('GET', KEYS[1])\n"
    "local outcome, seg, out\n"
    "if prev then\n"
    "    outcome = 'duplicate'\n"
    "    seg = string.match(prev, '\"segment\":(%d+)}$') or 'null'\n"
    "    out = prev\n"
    "else\n"
    "    outcome = 'processed'\n"
    "    seg = redis.call('INCR', KEYS[2])\n"
    "    redis.call('EXPIRE', KEYS[2], ARGV[4])\n"
    "    out = string.sub(ARGV[1], 1, -2) .. ',\"segment\":' .. seg .. '}'\n"
    "    redis.call('SET', KEYS[1], out, 'EX', ARGV[3])\n"
    "    if #KEYS > 3 then\n"
    "        local rv_idx, rv_rec, rv_hist = KEYS[4], KEYS[5], KEYS[6]\n"
    "        local rv_id, rv_now, rv_ttl, rv_reopen = ARGV[6], ARGV[7],\n"
    "            ARGV[3], ARGV[8]\n"
    "        local rv_pairs = {unpack(ARGV, 10)}\n"
    BEHAVE_REVIEW_LUA_INDEX
    "        redis.call('SET', KEYS[7], ARGV[9], 'EX', ARGV[3])\n"
    "    end\n"
    "end\n"
    "redis.call('LPUSH', KEYS[3], string.sub(ARGV[2], 1, -2)\n"
    "    .. ',\"outcome\":\"' .. outcome .. '\",\"segment\":' .. seg .. '}')\n"
    "redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[5]) - 1)\n"
    "if prev then\n"
    "    return {outcome, seg, out}\n"
    "end\n"
    "return {outcome, seg}\n",
    ""
};
