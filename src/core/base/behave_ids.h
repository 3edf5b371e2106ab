/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The ids every surface shares: a conversation id (/v1/analyze's, a
 * webhook call's variable, a gateway session's).
 */

#ifndef BEHAVE_IDS_H
#define BEHAVE_IDS_H

#include <stddef.h>


#define BEHAVE_CONVERSATION_ID_MAX  128


/* a conversation id: [A-Za-z0-9_.:@-], 1..BEHAVE_CONVERSATION_ID_MAX */
int behave_conversation_id_valid(const char *id, size_t len);


#endif /* BEHAVE_IDS_H */
