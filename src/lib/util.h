/* SPDX-License-Identifier: MIT */
/* Small generic helpers: numbers, time, files. */
#ifndef SONDE_LIB_UTIL_H
#define SONDE_LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint16_t u16;
typedef uint8_t u8;

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

#define PERF_ALIGN(x, a) (((x) + (a)-1) & ~((__typeof__(x))(a)-1))

/* strstarts - true when @str starts with @prefix. */
bool strstarts(const char *str, const char *prefix);
/* strendswith - true when @str ends with @suffix. */
bool strendswith(const char *str, const char *suffix);

/*
 * parse_u64 - parse a whole decimal/0x-hex/0-octal unsigned number.
 * Returns 0 or -EINVAL (junk, empty) / -ERANGE.
 */
int parse_u64(const char *s, u64 *val);
int parse_s64(const char *s, s64 *val);

/*
 * size_str - @bytes as "<count><unit>" with unit B, K, M or G (powers of
 * 1024, count rounded down) as perf's header and -D show sizes: the largest
 * unit, up to G, whose count is still 2 or more. 1024 is "1024B", 2048 "2K",
 * 5000 "4K", 1 GiB "1024M", 2 TiB "2048G". Returns @buf.
 */
char *size_str(char *buf, size_t len, u64 bytes);

/* monotonic and realtime clocks in nanoseconds */
u64 clock_ns(int clockid);
u64 monotonic_ns(void);

/*
 * read_sysfs_str - read a small file, strip trailing newline.
 * Returns a malloc'ed string owned by the caller, or NULL with errno set.
 */
char *read_sysfs_str(const char *path);
/* read_sysfs_int - read an integer file. Returns 0 or -errno. */
int read_sysfs_int(const char *path, long long *val);

/* write_full - write all of @buf, retrying on EINTR/short writes. Returns 0 or -errno. */
int write_full(int fd, const void *buf, size_t len);
/* read_full - read exactly @len bytes unless EOF. Returns bytes read or -errno. */
ssize_t read_full(int fd, void *buf, size_t len);

#endif
