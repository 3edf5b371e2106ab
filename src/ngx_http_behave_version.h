/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The module's version: reported by behave_health, and the upstream part
 * of the Debian package's version (debian/changelog; t/085-debian-package.t
 * checks that the two agree).
 */

#ifndef NGX_HTTP_BEHAVE_VERSION_H
#define NGX_HTTP_BEHAVE_VERSION_H


#define NGX_HTTP_BEHAVE_VERSION  "1.0.0"


#endif /* NGX_HTTP_BEHAVE_VERSION_H */
