#include "serial_port.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static speed_t speed_for(int baud) {
    switch (baud) {
    case 1200: return B1200;
    case 2400: return B2400;
    case 4800: return B4800;
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
#ifdef B460800
    case 460800: return B460800;
#endif
#ifdef B921600
    case 921600: return B921600;
#endif
#ifdef B1000000
    case 1000000: return B1000000;
#endif
#ifdef B2000000
    case 2000000: return B2000000;
#endif
    default: return (speed_t)0;
    }
}

int hp_serial_make_raw(int fd, int baud) {
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    cfmakeraw(&t);
    t.c_cflag |= (CLOCAL | CREAD);
    t.c_cflag &= ~(tcflag_t)CRTSCTS;
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    if (baud > 0) {
        speed_t s = speed_for(baud);
        if (s == (speed_t)0) { errno = EINVAL; return -1; }
        cfsetispeed(&t, s);
        cfsetospeed(&t, s);
    }
    return tcsetattr(fd, TCSANOW, &t);
}

int hp_serial_open(const char *path, int baud) {
    if (baud > 0 && speed_for(baud) == (speed_t)0) { errno = EINVAL; return -1; }
    int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EROFS)) fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    if (isatty(fd) && hp_serial_make_raw(fd, baud) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

long hp_serial_poll_read(int fd, void *buffer, size_t capacity, int timeout_ms) {
    struct pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
    int r = poll(&p, 1, timeout_ms);
    if (r < 0) return errno == EINTR ? 0 : -1;
    if (r == 0) return 0;
    if (p.revents & POLLNVAL) { errno = EBADF; return -1; }
    /* Read even on POLLHUP: bytes written before the hang-up are still queued. */
    ssize_t n = read(fd, buffer, capacity);
    if (n > 0) return (long)n;
    if (n == 0) return -2;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return (p.revents & (POLLHUP | POLLERR)) ? -2 : 0;
    if (errno == EIO || errno == ENXIO || errno == ENODEV) return -2;
    return -1;
}

int hp_write_all(int fd, const void *bytes, size_t count) {
    const char *p = bytes;
    while (count > 0) {
        ssize_t n = write(fd, p, count);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) {
                struct pollfd w = { .fd = fd, .events = POLLOUT, .revents = 0 };
                poll(&w, 1, 100);
                continue;
            }
            return -1;
        }
        p += n;
        count -= (size_t)n;
    }
    return 0;
}

int hp_openpty_raw(int *master_fd, int *slave_fd, char *slave_path, size_t path_capacity) {
    int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (m < 0) return -1;
    if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, slave_path, path_capacity) != 0) {
        int e = errno;
        close(m);
        errno = e;
        return -1;
    }
    int s = open(slave_path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (s < 0 || hp_serial_make_raw(s, 0) != 0) {
        int e = errno;
        if (s >= 0) close(s);
        close(m);
        errno = e;
        return -1;
    }
    *master_fd = m;
    *slave_fd = s;
    return 0;
}
