/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Every Redis key the module uses, in one place: the format (for
 * ngx_sprintf()) and the room its longest value takes.  Tenants and ids
 * are restricted to [A-Za-z0-9_.:@-], so none can close a hash tag or
 * reach another tenant's keys; the braces put everything of a tenant (or
 * of a conversation) in one Redis Cluster slot.
 */

#ifndef NGX_HTTP_BEHAVE_REDIS_KEYS_H
#define NGX_HTTP_BEHAVE_REDIS_KEYS_H

#include "base/behave_keys.h"                        /* BEHAVE_TENANT_MAX */


/* a conversation's turn log: tenant, conversation id */
#define NGX_HTTP_BEHAVE_KEY_CONVERSATION   "behave:{%s:%s}:log"

/* its state (behave_conv_state.h), the same slot: tenant, conversation id */
#define NGX_HTTP_BEHAVE_KEY_CONV_STATE     "behave:{%s:%s}:state"

/* a tenant's trace stream: tenant */
#define NGX_HTTP_BEHAVE_KEY_TRACES         "behave:traces:{%s}"
#define NGX_HTTP_BEHAVE_KEY_TRACES_SIZE                                     \
    (sizeof("behave:traces:{}") + BEHAVE_TENANT_MAX)

/* a tenant's usage of one UTC day: tenant, year, month, day */
#define NGX_HTTP_BEHAVE_KEY_USAGE          "behave:usage:{%s}:%4d%02d%02d"
#define NGX_HTTP_BEHAVE_KEY_USAGE_SIZE                                      \
    (sizeof("behave:usage:{}:yyyymmdd") + BEHAVE_TENANT_MAX)

/* the gateway limits of a key: limit id ("key:<16 hex>"), then the day */
#define NGX_HTTP_BEHAVE_KEY_RATE           "behave:rl:{%s}:gcra"
#define NGX_HTTP_BEHAVE_KEY_TOKENS         "behave:rl:{%s}:tokens:%T"

/*
 * An analyze-behavior session's state (behave_gw_session.h), and the list
 * of events an older build kept, read once: tenant, 16 hex digits of
 * sha256(id), one slot for both
 */
#define NGX_HTTP_BEHAVE_KEY_BEHAVIOR_STATE "behave:beh:{%s:%*s}:s"
#define NGX_HTTP_BEHAVE_KEY_BEHAVIOR_HOT   "behave:beh:{%s:%*s}:h"
#define NGX_HTTP_BEHAVE_KEY_BEHAVIOR       "behave:beh:{%s:%*s}"

/* the fleet's heartbeats: a hash, field = node name */
#define NGX_HTTP_BEHAVE_KEY_FLEET          "behave:fleet"

/*
 * Webhooks.  The slug index is the receiver's way in, before it knows the
 * tenant: it has no hash tag (a cluster slot of its own) and is only ever
 * read or written alone, never in a script with the tenant's keys.  Every
 * other key is under the tenant's prefix:
 *
 *   behave:wh:{<tenant>}:endpoints                 zset id -> created_at
 *   behave:wh:{<tenant>}:ep:<id>                   hash, the record
 *   behave:wh:{<tenant>}:deliveries:<id>           list, newest first
 *   behave:wh:{<tenant>}:call:<provider>:<call id> the stored summary
 *   behave:wh:{<tenant>}:conv:<conversation id>:segments
 *                                                  INCR counter
 */
#define NGX_HTTP_BEHAVE_KEY_WH_SLUG        "behave:wh:slug:"
#define NGX_HTTP_BEHAVE_KEY_WH_TENANT      "behave:wh:{%s}:"
#define NGX_HTTP_BEHAVE_KEY_WH_TENANT_LUA  "'behave:wh:{'"

/*
 * The review queue: the tenant's prefix, then "index", "r:<id>" (the
 * record), "h:<id>" (history), "t:<id>" (a call's turns); in the slot of
 * the tenant's webhook keys, so the commit script files a call itself
 */
#define NGX_HTTP_BEHAVE_KEY_RV             "behave:rv:{%s}:"


#endif /* NGX_HTTP_BEHAVE_REDIS_KEYS_H */
