#ifndef HEALTHPIPE_SERIAL_PORT_H
#define HEALTHPIPE_SERIAL_PORT_H

#include <stddef.h>

/// Opens a serial device (tty, pty, BLE bridge) non-blocking, without becoming its controlling
/// terminal, and puts it in raw mode at `baud` (ignored for non-terminals such as FIFOs or files).
/// Returns the fd, or -1 with errno set (EINVAL for an unsupported baud rate).
int hp_serial_open(const char *path, int baud);

/// Puts a terminal fd in raw mode (no echo, no line editing, 8N1, VMIN=0/VTIME=0) at `baud`
/// (0 keeps the current speed). Returns 0, or -1 with errno set.
int hp_serial_make_raw(int fd, int baud);

/// Waits up to `timeout_ms` for bytes, then reads what is there.
/// Returns the byte count (> 0), 0 on timeout, -2 when the other end is gone (EOF, hang-up, EIO),
/// or -1 with errno set for other errors.
long hp_serial_poll_read(int fd, void *buffer, size_t capacity, int timeout_ms);

/// Writes all `count` bytes to a blocking fd (retrying short writes and EINTR). Returns 0 or -1.
int hp_write_all(int fd, const void *bytes, size_t count);

/// Creates a pseudo-terminal pair: the master fd (what a device would write to) and the slave's
/// path (what a reader opens). The slave is opened once and set raw so no byte is echoed or
/// edited; its fd is returned in `slave_fd` and must stay open while the pair is in use.
/// Returns 0, or -1 with errno set.
int hp_openpty_raw(int *master_fd, int *slave_fd, char *slave_path, size_t path_capacity);

#endif
