// The system's SQLite (Debian: libsqlite3-dev), the store the device library keeps its queue in.
#include <sqlite3.h>
