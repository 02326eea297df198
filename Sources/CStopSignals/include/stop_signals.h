#ifndef HEALTHPIPE_STOP_SIGNALS_H
#define HEALTHPIPE_STOP_SIGNALS_H

/// Installs SIGINT/SIGTERM handlers that only set a flag, so stages can stop at a batch boundary
/// and leave committed data consistent. A second signal exits at once.
void healthpipe_install_stop_handlers(void);
/// Non-zero once SIGINT or SIGTERM has arrived.
int healthpipe_stop_requested(void);

#endif
