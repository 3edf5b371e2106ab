/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Ids: see behave_ids.h.
 */

#include "base/behave_ids.h"
#include "base/behave_utf8.h"               /* behave_ascii_name_valid */


int
behave_conversation_id_valid(const char *id, size_t len)
{
    return behave_ascii_name_valid(id, len, BEHAVE_CONVERSATION_ID_MAX,
                                   "_.:@-");
}
