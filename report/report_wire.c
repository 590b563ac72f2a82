/*
 * report/report_wire.c — the byte transport between the layer and its
 * simulator process (report.h, "Online mode's simulator process").  Plain
 * blocking socket I/O with a deadline; nothing here interprets a frame.
 */
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include "report/report.h"

static int64_t
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until fd is ready for `events` or the deadline (ms on now_ms's
 * clock; 0: none) passes.  Returns 1 ready, 0 keep waiting (interrupted or
 * a spurious wake), -1 error, -2 deadline passed. */
static int
wait_ready(int fd, short events, int64_t deadline)
{
    int wait = -1;
    if (deadline) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            return -2;
        }
        wait = left > 1000000 ? 1000000 : (int)left;
    }
    struct pollfd pfd = {.fd = fd, .events = events};
    int r = poll(&pfd, 1, wait);
    if (r < 0) {
        return errno == EINTR ? 0 : -1;
    }
    return r > 0;
}

/* Sends `out` or, where it is NULL, receives into `in`, `size` bytes in
 * all, within timeout_ms (< 0: no limit).  Returns 0 done, -1 error or
 * the peer gone, -2 deadline passed. */
static int
transfer(int fd, const char *out, char *in, size_t size, int timeout_ms)
{
    int64_t deadline = timeout_ms < 0 ? 0 : now_ms() + timeout_ms;
    size_t done = 0;
    while (done < size) {
        int ready = wait_ready(fd, out ? POLLOUT : POLLIN, deadline);
        if (ready < 0) {
            return ready;
        }
        if (!ready) {
            continue;
        }
        ssize_t n = out ? send(fd, out + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT)
                        : recv(fd, in + done, size - done, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

int
rep_wire_send(int fd, const void *data, size_t size, int timeout_ms)
{
    return transfer(fd, data, NULL, size, timeout_ms);
}

int
rep_wire_recv(int fd, void *data, size_t size, int timeout_ms)
{
    return transfer(fd, NULL, data, size, timeout_ms);
}
