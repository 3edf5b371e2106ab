/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * behave_route: its parsing and checks at configuration time, and the
 * choice of a route for an annotated request.
 */


#include "ngx_http_behave_prefilter.h"


static char *ngx_http_behave_prefilter_route_cond(ngx_conf_t *cf,
    ngx_http_behave_prefilter_route_t *route, ngx_str_t *arg);
static char *ngx_http_behave_prefilter_route_values(ngx_conf_t *cf,
    const ngx_http_behave_prefilter_dim_t *dim, u_char *p, u_char *last,
    ngx_uint_t *mask);
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
    { "suggested_action", "action", ngx_http_behave_prefilter_action }
};


/* the first route, in configuration order, whose conditions all hold */

ngx_http_behave_prefilter_route_t *
ngx_http_behave_prefilter_match(ngx_array_t *routes,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    ngx_uint_t                          i, k, v;
    const char                         *value;
    const char *const                  *values;
    ngx_http_behave_prefilter_cond_t   *cond;
    ngx_http_behave_prefilter_route_t  *route;

    route = routes->elts;

    for (i = 0; i < routes->nelts; i++) {

        for (k = 0; k < route[i].nconds; k++) {
            cond = &route[i].cond[k];
            value = ngx_http_behave_prefilter_dim_value(&ctx->ann,
                                                        &ctx->routing,
                                                        cond->dim);
            values = ngx_http_behave_prefilter_dims[cond->dim].values;

            for (v = 0; values[v] != NULL; v++) {
                if (ngx_strcmp(values[v], value) == 0) {
                    break;
                }
            }

            if (values[v] == NULL || !(cond->values & ((ngx_uint_t) 1 << v))) {
                break;
            }
        }

        if (k == route[i].nconds) {
            return &route[i];
        }
    }

    return NULL;
}


const char *
ngx_http_behave_prefilter_dim_value(const behave_annotation_t *ann,
    const behave_routing_t *routing, ngx_uint_t dim)
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

    default: /* NGX_HTTP_BEHAVE_PREFILTER_ACTION */
        return routing->suggested_action;
    }
}


/* behave_route DIMENSION=VALUE[,VALUE...] [DIMENSION=...] TARGET; */

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
    u_char                                 *eq, *last;
    size_t                                  len;
    ngx_uint_t                              d, k;
    const ngx_http_behave_prefilter_dim_t  *dim;

    last = arg->data + arg->len;
    eq = ngx_strlchr(arg->data, last, '=');

    if (eq == NULL) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"%V\" is not DIMENSION=VALUE[,VALUE...]", arg);
        return NGX_CONF_ERROR;
    }

    len = eq - arg->data;

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
                           "suggested_action", len, arg->data, arg);
        return NGX_CONF_ERROR;
    }

    for (k = 0; k < route->nconds; k++) {
        if (route->cond[k].dim == d) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "dimension \"%s\" is given twice",
                               dim->name);
            return NGX_CONF_ERROR;
        }
    }

    route->cond[k].dim = d;
    route->nconds++;

    return ngx_http_behave_prefilter_route_values(cf, dim, eq + 1, last,
                                           &route->cond[k].values);
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
