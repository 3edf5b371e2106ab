/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * behave_route: its parsing and checks at configuration time, and the
 * choice of a route for an annotated request: conditions on the
 * annotation of the user's latest message, on the chat's conversation
 * findings (never met without history) and thresholds on the risk score.
 */


#include "ngx_http_behave_prefilter.h"


static char *ngx_http_behave_prefilter_route_cond(ngx_conf_t *cf,
    ngx_http_behave_prefilter_route_t *route, ngx_str_t *arg);
static char *ngx_http_behave_prefilter_route_values(ngx_conf_t *cf,
    const ngx_http_behave_prefilter_dim_t *dim, u_char *p, u_char *last,
    ngx_uint_t *mask);
static char *ngx_http_behave_prefilter_route_risk(ngx_conf_t *cf,
    ngx_http_behave_prefilter_cond_t *cond, ngx_str_t *arg, u_char *p);
static ngx_uint_t ngx_http_behave_prefilter_cond_holds(
    const ngx_http_behave_prefilter_cond_t *cond,
    const ngx_http_behave_prefilter_ctx_t *ctx);
static char *ngx_http_behave_prefilter_route_target(ngx_conf_t *cf,
    ngx_http_behave_prefilter_route_t *route, ngx_str_t *arg);


/* the value sets of docs/API.md, in the order of the core's enums */

static const char *const  ngx_http_behave_prefilter_valence[] = {
    "positive", "neutral", "negative", "mixed", NULL
};

static const char *const  ngx_http_behave_prefilter_load[] = {
    "low", "moderate", "high", "overload", NULL
};

static const char *const  ngx_http_behave_prefilter_urgency[] = {
    "passive", "low", "medium", "high", "critical", NULL
};

static const char *const  ngx_http_behave_prefilter_engagement[] = {
    "disengaged", "browsing", "focused", "immersed", NULL
};

static const char *const  ngx_http_behave_prefilter_register[] = {
    "formal", "semi-formal", "informal", "crisis", NULL
};

static const char *const  ngx_http_behave_prefilter_posture[] = {
    "standard", "supportive", "de-escalate", "expedite", "crisis", NULL
};

static const char *const  ngx_http_behave_prefilter_tone[] = {
    "warm", "neutral", "formal", "casual", "empathetic", "plain", "calm",
    NULL
};

static const char *const  ngx_http_behave_prefilter_action[] = {
    "answer", "clarify", "simplify", "prioritize", "route_specialist",
    "escalate_human", NULL
};

/* the conversation block's recommendation.action (behave_action_e) */
static const char *const  ngx_http_behave_prefilter_conv_action[] = {
    "clarify", "simplify", "resolve", "route", "handoff", NULL
};

static const char *const  ngx_http_behave_prefilter_boolean[] = {
    "true", "false", NULL
};


static const ngx_http_behave_prefilter_dim_t
    ngx_http_behave_prefilter_dims[NGX_HTTP_BEHAVE_PREFILTER_NDIMS] =
{
    { "emotional_valence", "valence", ngx_http_behave_prefilter_valence },
    { "cognitive_load", "cognitive_load", ngx_http_behave_prefilter_load },
    { "urgency_level", "urgency", ngx_http_behave_prefilter_urgency },
    { "engagement_state", "engagement", ngx_http_behave_prefilter_engagement },
    { "social_register", "register", ngx_http_behave_prefilter_register },
    { "response_posture", "posture", ngx_http_behave_prefilter_posture },
    { "recommended_tone", "tone", ngx_http_behave_prefilter_tone },
    { "suggested_action", "action", ngx_http_behave_prefilter_action },
    { "conv_action", "conv_action", ngx_http_behave_prefilter_conv_action },
    { "false_resolution", "false_resolution",
      ngx_http_behave_prefilter_boolean },
    { "repetition", "repetition", ngx_http_behave_prefilter_boolean },
    { "escalating", "escalating", ngx_http_behave_prefilter_boolean },
    { "peak_urgency", "peak_urgency", ngx_http_behave_prefilter_urgency },
    { "risk", "risk", NULL }
};

static const char  *ngx_http_behave_prefilter_ops[] = { ">=", ">", "<=", "<" };


/* the first route, in configuration order, whose conditions all hold */

ngx_http_behave_prefilter_route_t *
ngx_http_behave_prefilter_match(ngx_array_t *routes,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    ngx_uint_t                          i, k;
    ngx_http_behave_prefilter_route_t  *route;

    route = routes->elts;

    for (i = 0; i < routes->nelts; i++) {

        for (k = 0; k < route[i].nconds; k++) {
            if (!ngx_http_behave_prefilter_cond_holds(&route[i].cond[k], ctx))
            {
                break;
            }
        }

        if (k == route[i].nconds) {
            return &route[i];
        }
    }

    return NULL;
}


/* a value of its set, or a threshold; a value not found (empty) fails */

static ngx_uint_t
ngx_http_behave_prefilter_cond_holds(
    const ngx_http_behave_prefilter_cond_t *cond,
    const ngx_http_behave_prefilter_ctx_t *ctx)
{
    ngx_uint_t          v, milli;
    const char         *value;
    const char *const  *values;

    if (cond->dim == NGX_HTTP_BEHAVE_PREFILTER_RISK) {
        milli = ngx_http_behave_prefilter_risk_milli(&ctx->ann);

        switch (cond->op) {

        case NGX_HTTP_BEHAVE_PREFILTER_GE:
            return milli >= cond->milli;

        case NGX_HTTP_BEHAVE_PREFILTER_GT:
            return milli > cond->milli;

        case NGX_HTTP_BEHAVE_PREFILTER_LE:
            return milli <= cond->milli;

        default: /* NGX_HTTP_BEHAVE_PREFILTER_LT */
            return milli < cond->milli;
        }
    }

    value = ngx_http_behave_prefilter_dim_value(&ctx->ann, &ctx->routing,
                                                ctx->chat, cond->dim);
    values = ngx_http_behave_prefilter_dims[cond->dim].values;

    for (v = 0; values[v] != NULL; v++) {
        if (ngx_strcmp(values[v], value) == 0) {
            return (cond->values & ((ngx_uint_t) 1 << v)) != 0;
        }
    }

    return 0;
}


/*
 * The risk score in thousandths, as $behave_risk prints it: a threshold
 * and the log line never disagree on a rounding
 */

ngx_uint_t
ngx_http_behave_prefilter_risk_milli(const behave_annotation_t *ann)
{
    double  risk;

    risk = ann->scores.risk;

    if (!(risk > 0)) {
        return 0;
    }

    if (risk >= 1) {
        return 1000;
    }

    return (ngx_uint_t) (risk * 1000 + 0.5);
}


/* the value of a dimension with a set of values; "" when it has none */

const char *
ngx_http_behave_prefilter_dim_value(const behave_annotation_t *ann,
    const behave_routing_t *routing, const behave_chat_findings_t *chat,
    ngx_uint_t dim)
{
    switch (dim) {

    case NGX_HTTP_BEHAVE_PREFILTER_VALENCE:
        return behave_valence_name(ann->valence);

    case NGX_HTTP_BEHAVE_PREFILTER_LOAD:
        return behave_load_name(ann->cognitive_load);

    case NGX_HTTP_BEHAVE_PREFILTER_URGENCY:
        return behave_urgency_name(ann->urgency);

    case NGX_HTTP_BEHAVE_PREFILTER_ENGAGEMENT:
        return behave_engagement_name(ann->engagement);

    case NGX_HTTP_BEHAVE_PREFILTER_REGISTER:
        return behave_register_name(ann->social_register);

    case NGX_HTTP_BEHAVE_PREFILTER_POSTURE:
        return routing->response_posture;

    case NGX_HTTP_BEHAVE_PREFILTER_TONE:
        return routing->recommended_tone;

    case NGX_HTTP_BEHAVE_PREFILTER_ACTION:
        return routing->suggested_action;
    }

    /* the conversation's: the chat's history, none without */
    if (chat == NULL) {
        return "";
    }

    switch (dim) {

    case NGX_HTTP_BEHAVE_PREFILTER_CONV_ACTION:
        return behave_action_name(chat->conv.action);

    case NGX_HTTP_BEHAVE_PREFILTER_FALSE_RESOLUTION:
        return chat->conv.false_resolution ? "true" : "false";

    case NGX_HTTP_BEHAVE_PREFILTER_REPETITION:
        return chat->conv.repetition ? "true" : "false";

    case NGX_HTTP_BEHAVE_PREFILTER_ESCALATING:
        return chat->conv.escalating ? "true" : "false";

    case NGX_HTTP_BEHAVE_PREFILTER_PEAK_URGENCY:
        return behave_urgency_name(chat->peak_urgency);

    default:
        return "";
    }
}


/*
 * behave_route DIMENSION=VALUE[,VALUE...] [DIMENSION=...] [risk>=N] TARGET;
 */

char *
ngx_http_behave_prefilter_route(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_prefilter_loc_conf_t *plcf = conf;

    char                               *rv;
    ngx_str_t                          *value;
    ngx_uint_t                          i, n;
    ngx_http_behave_prefilter_route_t  *route;

    value = cf->args->elts;
    n = cf->args->nelts - 1;

    if (n - 1 > NGX_HTTP_BEHAVE_PREFILTER_CONDS_MAX) {
        return "has too many conditions";
    }

    if (plcf->routes == NGX_CONF_UNSET_PTR) {
        plcf->routes = ngx_array_create(cf->pool, 2,
                               sizeof(ngx_http_behave_prefilter_route_t));
        if (plcf->routes == NULL) {
            return NGX_CONF_ERROR;
        }
    }

    route = ngx_array_push(plcf->routes);
    if (route == NULL) {
        return NGX_CONF_ERROR;
    }

    ngx_memzero(route, sizeof(ngx_http_behave_prefilter_route_t));

    route->file = cf->conf_file->file.name;
    route->line = cf->conf_file->line;
    route->target = value[n];
    route->stat_slot = NGX_CONF_UNSET_UINT;

    for (i = 1; i < n; i++) {
        rv = ngx_http_behave_prefilter_route_cond(cf, route, &value[i]);
        if (rv != NGX_CONF_OK) {
            return rv;
        }
    }

    return ngx_http_behave_prefilter_route_target(cf, route, &value[n]);
}


static char *
ngx_http_behave_prefilter_route_cond(ngx_conf_t *cf,
    ngx_http_behave_prefilter_route_t *route, ngx_str_t *arg)
{
    u_char                                 *p, *last;
    size_t                                  len;
    ngx_uint_t                              d, k, n;
    const ngx_http_behave_prefilter_dim_t  *dim;

    last = arg->data + arg->len;

    /* the name ends at "=", or at the "<" or ">" of a threshold */
    for (p = arg->data; p < last && *p != '=' && *p != '<' && *p != '>'; p++)
    {
        /* void */
    }

    if (p == last) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"%V\" is not DIMENSION=VALUE[,VALUE...] "
                           "or risk>=N", arg);
        return NGX_CONF_ERROR;
    }

    len = p - arg->data;

    for (d = 0; d < NGX_HTTP_BEHAVE_PREFILTER_NDIMS; d++) {
        dim = &ngx_http_behave_prefilter_dims[d];

        if ((len == ngx_strlen(dim->name)
             && ngx_strncmp(arg->data, dim->name, len) == 0)
            || (len == ngx_strlen(dim->alias)
                && ngx_strncmp(arg->data, dim->alias, len) == 0))
        {
            break;
        }
    }

    if (d == NGX_HTTP_BEHAVE_PREFILTER_NDIMS) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "unknown dimension \"%*s\" in \"%V\": one of "
                           "emotional_valence, cognitive_load, urgency_level, "
                           "engagement_state, social_register, "
                           "response_posture, recommended_tone, "
                           "suggested_action, conv_action, "
                           "false_resolution, repetition, escalating, "
                           "peak_urgency, risk", len, arg->data, arg);
        return NGX_CONF_ERROR;
    }

    /* once each, but for risk: twice makes a band (risk>0.3 risk<0.7) */
    for (n = 0, k = 0; k < route->nconds; k++) {
        if (route->cond[k].dim == d) {
            n++;
        }
    }

    if (n > (d == NGX_HTTP_BEHAVE_PREFILTER_RISK ? 1 : 0)) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "dimension \"%s\" is given %s", dim->name,
                           n > 1 ? "three times" : "twice");
        return NGX_CONF_ERROR;
    }

    route->cond[k].dim = d;
    route->nconds++;

    if (dim->values == NULL) {
        return ngx_http_behave_prefilter_route_risk(cf, &route->cond[k], arg,
                                                    p);
    }

    if (*p != '=') {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"%V\" is not DIMENSION=VALUE[,VALUE...]", arg);
        return NGX_CONF_ERROR;
    }

    return ngx_http_behave_prefilter_route_values(cf, dim, p + 1, last,
                                           &route->cond[k].values);
}


/*
 * risk>=N, risk>N, risk<=N, risk<N (p at the operator): N from 0 to 1,
 * at most three decimals (the variable's), kept in thousandths
 */

static char *
ngx_http_behave_prefilter_route_risk(ngx_conf_t *cf,
    ngx_http_behave_prefilter_cond_t *cond, ngx_str_t *arg, u_char *p)
{
    u_char      *last;
    size_t       len;
    ngx_uint_t   op, milli, digits, scale;

    last = arg->data + arg->len;

    for (op = 0; op < sizeof(ngx_http_behave_prefilter_ops)
                      / sizeof(ngx_http_behave_prefilter_ops[0]); op++)
    {
        len = ngx_strlen(ngx_http_behave_prefilter_ops[op]);

        if ((size_t) (last - p) > len
            && ngx_strncmp(p, ngx_http_behave_prefilter_ops[op], len) == 0)
        {
            break;
        }
    }

    if (op == sizeof(ngx_http_behave_prefilter_ops)
              / sizeof(ngx_http_behave_prefilter_ops[0]))
    {
        goto invalid;
    }

    p += len;

    /* one digit, then an optional fraction of one to three digits */
    if (*p < '0' || *p > '9' || (last - p > 1 && p[1] != '.')) {
        goto invalid;
    }

    milli = (ngx_uint_t) (*p++ - '0') * 1000;

    if (p < last) {
        p++;                                   /* the '.' */
        scale = 100;
        digits = 0;

        for ( /* void */ ; p < last; p++) {
            if (*p < '0' || *p > '9' || ++digits > 3) {
                goto invalid;
            }

            milli += (ngx_uint_t) (*p - '0') * scale;
            scale /= 10;
        }

        if (digits == 0) {
            goto invalid;
        }
    }

    if (milli > 1000) {
        goto invalid;
    }

    cond->op = op;
    cond->milli = milli;

    return NGX_CONF_OK;

invalid:

    ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                       "invalid risk threshold \"%V\": risk>=, risk>, "
                       "risk<= or risk< and a number from 0 to 1 with at "
                       "most three decimals, as in risk>=0.7", arg);
    return NGX_CONF_ERROR;
}


static char *
ngx_http_behave_prefilter_route_values(ngx_conf_t *cf,
    const ngx_http_behave_prefilter_dim_t *dim, u_char *p, u_char *last,
    ngx_uint_t *mask)
{
    u_char     *comma;
    size_t      len;
    ngx_uint_t  v;

    for ( ;; ) {
        comma = ngx_strlchr(p, last, ',');
        len = (comma ? comma : last) - p;

        for (v = 0; dim->values[v] != NULL; v++) {
            if (len == ngx_strlen(dim->values[v])
                && ngx_strncmp(p, dim->values[v], len) == 0)
            {
                break;
            }
        }

        if (dim->values[v] == NULL) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "unknown %s value \"%*s\"", dim->name,
                               len, p);
            return NGX_CONF_ERROR;
        }

        *mask |= (ngx_uint_t) 1 << v;

        if (comma == NULL) {
            return NGX_CONF_OK;
        }

        p = comma + 1;
    }
}


static char *
ngx_http_behave_prefilter_route_target(ngx_conf_t *cf,
    ngx_http_behave_prefilter_route_t *route, ngx_str_t *arg)
{
    u_char  *q;

    if (arg->len > 1 && arg->data[0] == '@') {
        route->uri = *arg;
        return NGX_CONF_OK;
    }

    if (arg->len == 0 || arg->data[0] != '/') {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "route target \"%V\" is neither a URI starting "
                           "with \"/\" nor a named location", arg);
        return NGX_CONF_ERROR;
    }

    route->uri = *arg;

    q = ngx_strlchr(arg->data, arg->data + arg->len, '?');

    if (q != NULL) {
        route->uri.len = q - arg->data;
        route->args.data = q + 1;
        route->args.len = arg->data + arg->len - (q + 1);
        route->has_args = 1;
    }

    return NGX_CONF_OK;
}


ngx_int_t
ngx_http_behave_prefilter_check_routes(ngx_conf_t *cf,
    ngx_http_behave_prefilter_check_t *check)
{
    ngx_uint_t                          i;
    ngx_http_core_loc_conf_t          **named;
    ngx_http_behave_prefilter_route_t  *route;

    route = check->routes->elts;

    for (i = 0; i < check->routes->nelts; i++) {
        if (route[i].uri.data[0] != '@') {
            continue;
        }

        named = check->cscf->named_locations;

        while (named != NULL && *named != NULL
               && ((*named)->name.len != route[i].uri.len
                   || ngx_strncmp((*named)->name.data, route[i].uri.data,
                                  route[i].uri.len) != 0))
        {
            named++;
        }

        if (named == NULL || *named == NULL) {
            ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                          "behave_route target \"%V\" is not a named "
                          "location of the server in %V:%ui",
                          &route[i].uri, &route[i].file, route[i].line);
            return NGX_ERROR;
        }
    }

    return NGX_OK;
}
