/*
 * sockcount.so: bench-only LD_PRELOAD that counts, per process, what a
 * library moves over its sockets and how much heap it holds at its peak,
 * the same way for any MPI (no MPI or libfabric header; splitcost.c reads
 * it through dlsym, and runs without it).
 *
 * Sockets: bytes and calls of send/sendto/sendmsg/write/writev (sent) and
 * recv/recvfrom/recvmsg/read/readv (received) on file descriptors that are
 * sockets (fstat once per descriptor; close forgets it). Over libfabric's
 * tcp;ofi_rxm every MPI message of the netmod is one send call or a few,
 * so send calls stand for messages.
 * Heap: bytes live (malloc_usable_size) through glibc's malloc family,
 * wrapped here over __libc_malloc & co.; sockcount_heap_mark() starts a
 * window, sockcount_heap_peak() gives its peak above the mark. mmap'd
 * memory outside malloc is not seen.
 *
 * Thread safety: counters are relaxed atomics; the descriptor cache is
 * racy only between a close and a reuse of the same descriptor.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

#define NFD 65536
static unsigned char kind[NFD];        /* 0 unknown, 1 socket, 2 other */
static unsigned long long cnt[4];      /* bytes sent, send calls, bytes received, receive calls */
static long long live, peak, mark;

#define ADD(p, v) __atomic_fetch_add(p, v, __ATOMIC_RELAXED)

static int is_sock(int fd)
{
    if (fd < 0 || fd >= NFD)
        return 0;
    if (!kind[fd]) {
        struct stat st;
        kind[fd] = fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) ? 1 : 2;
    }
    return kind[fd] == 1;
}

static ssize_t count(int fd, ssize_t n, int recv)
{
    if (n > 0 && is_sock(fd)) {
        ADD(&cnt[recv * 2], (unsigned long long) n);
        ADD(&cnt[recv * 2 + 1], 1ull);
    }
    return n;
}

#define REAL(ret, name, ...) \
    static ret (*real)(__VA_ARGS__); \
    if (!real) real = (ret (*)(__VA_ARGS__)) dlsym(RTLD_NEXT, #name)

ssize_t send(int fd, const void *b, size_t n, int f)
{
    REAL(ssize_t, send, int, const void *, size_t, int);
    return count(fd, real(fd, b, n, f), 0);
}
ssize_t sendto(int fd, const void *b, size_t n, int f, const struct sockaddr *a, socklen_t l)
{
    REAL(ssize_t, sendto, int, const void *, size_t, int, const struct sockaddr *, socklen_t);
    return count(fd, real(fd, b, n, f, a, l), 0);
}
ssize_t sendmsg(int fd, const struct msghdr *m, int f)
{
    REAL(ssize_t, sendmsg, int, const struct msghdr *, int);
    return count(fd, real(fd, m, f), 0);
}
ssize_t write(int fd, const void *b, size_t n)
{
    REAL(ssize_t, write, int, const void *, size_t);
    return count(fd, real(fd, b, n), 0);
}
ssize_t writev(int fd, const struct iovec *v, int c)
{
    REAL(ssize_t, writev, int, const struct iovec *, int);
    return count(fd, real(fd, v, c), 0);
}
ssize_t recv(int fd, void *b, size_t n, int f)
{
    REAL(ssize_t, recv, int, void *, size_t, int);
    return count(fd, real(fd, b, n, f), 1);
}
ssize_t recvfrom(int fd, void *b, size_t n, int f, struct sockaddr *a, socklen_t *l)
{
    REAL(ssize_t, recvfrom, int, void *, size_t, int, struct sockaddr *, socklen_t *);
    return count(fd, real(fd, b, n, f, a, l), 1);
}
ssize_t recvmsg(int fd, struct msghdr *m, int f)
{
    REAL(ssize_t, recvmsg, int, struct msghdr *, int);
    return count(fd, real(fd, m, f), 1);
}
ssize_t read(int fd, void *b, size_t n)
{
    REAL(ssize_t, read, int, void *, size_t);
    return count(fd, real(fd, b, n), 1);
}
ssize_t readv(int fd, const struct iovec *v, int c)
{
    REAL(ssize_t, readv, int, const struct iovec *, int);
    return count(fd, real(fd, v, c), 1);
}
int close(int fd)
{
    REAL(int, close, int);
    if (fd >= 0 && fd < NFD)
        kind[fd] = 0;
    return real(fd);
}

/* ---- heap ---- */

static void *track(void *p)
{
    if (p) {
        long long now = ADD(&live, (long long) malloc_usable_size(p)) +
            (long long) malloc_usable_size(p);
        long long pk = __atomic_load_n(&peak, __ATOMIC_RELAXED);
        while (now > pk && !__atomic_compare_exchange_n(&peak, &pk, now, 1, __ATOMIC_RELAXED,
                                                        __ATOMIC_RELAXED))
            ;
    }
    return p;
}

static void untrack(void *p)
{
    if (p)
        ADD(&live, -(long long) malloc_usable_size(p));
}

void *malloc(size_t n) { return track(__libc_malloc(n)); }
void *calloc(size_t a, size_t b) { return track(__libc_calloc(a, b)); }
void free(void *p) { untrack(p); __libc_free(p); }
void *realloc(void *p, size_t n)
{
    untrack(p);
    void *q = __libc_realloc(p, n);
    if (!q && p && n)           /* failed: p is still live */
        return track(p), NULL;
    return track(q);
}
void *memalign(size_t a, size_t n) { return track(__libc_memalign(a, n)); }
void *aligned_alloc(size_t a, size_t n) { return track(__libc_memalign(a, n)); }
int posix_memalign(void **out, size_t a, size_t n)
{
    void *p = track(__libc_memalign(a, n));
    if (!p)
        return 12;      /* ENOMEM */
    *out = p;
    return 0;
}

/* ---- what splitcost.c reads ---- */

void sockcount_read(unsigned long long out[4])
{
    for (int i = 0; i < 4; i++)
        out[i] = __atomic_load_n(&cnt[i], __ATOMIC_RELAXED);
}

void sockcount_heap_mark(void)
{
    mark = __atomic_load_n(&live, __ATOMIC_RELAXED);
    __atomic_store_n(&peak, mark, __ATOMIC_RELAXED);
}

/* peak live heap since the mark, above it; *now: live heap above it now */
long long sockcount_heap_peak(long long *now)
{
    *now = __atomic_load_n(&live, __ATOMIC_RELAXED) - mark;
    return __atomic_load_n(&peak, __ATOMIC_RELAXED) - mark;
}
