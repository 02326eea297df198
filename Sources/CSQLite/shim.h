#include <sqlite3.h>
// SQLITE_TRANSIENT is a macro Swift cannot import: expose it as a function.
static inline sqlite3_destructor_type healthpipe_sqlite_transient(void) { return SQLITE_TRANSIENT; }
// With memory statistics on (SQLite's default), every SQLite allocation takes a process-wide mutex;
// nothing here reads them. sqlite3_config is variadic, which Swift cannot call. Must run before the
// first connection opens (SQLite refuses it afterwards and keeps its settings).
static inline int healthpipe_sqlite_without_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
