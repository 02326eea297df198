#ifndef CHEALTHSHIMS_H
#define CHEALTHSHIMS_H

/// Installs SIGINT/SIGTERM handlers that only set a flag, so stages can stop at a batch boundary
/// and leave committed data consistent. A second signal exits at once.
void healthpipe_install_stop_handlers(void);
/// Non-zero once SIGINT or SIGTERM has arrived (or healthpipe_request_stop was called).
int healthpipe_stop_requested(void);
void healthpipe_request_stop(void);
void healthpipe_reset_stop(void);
/// The signal number that asked us to stop, or 0.
int healthpipe_stop_signal(void);

#include "serial_port.h"

#endif
