#include "stop_signals.h"
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag = 0;

static void on_stop_signal(int sig) {
    if (stop_flag) _exit(128 + sig); /* second Ctrl-C: the user really means it */
    stop_flag = sig;
}

void healthpipe_install_stop_handlers(void) {
    struct sigaction sa;
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, 0);
    sigaction(SIGTERM, &sa, 0);
    /* A parent may have started us with these blocked (test runners do): unblock them, or the
       handlers above would never run and Ctrl-C would be ignored. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &stop, 0);
}

int healthpipe_stop_requested(void) { return stop_flag != 0; }
