/* Random bytes for the grader's secrets: see secret.h. */
#include "secret.h"

#include <fcntl.h>
#include <unistd.h>

int ag_random_bytes(void *buf, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, buf, n) : -1;
    if (fd >= 0)
        close(fd);
    return got == (ssize_t)n;
}
