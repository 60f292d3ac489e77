// libpq, the PostgreSQL project's client library (Debian's libpq-dev; pkg-config libpq).
#include <libpq-fe.h>
