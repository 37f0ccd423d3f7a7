/* SPDX-License-Identifier: MIT */
/* The x86_64 syscall, errno and flag tables, generated at build time from the uapi headers. */
#ifndef SONDE_TRACE_SYSCALL_TBL_H
#define SONDE_TRACE_SYSCALL_TBL_H

#include <stdbool.h>

/* struct trace_flag - one named value of a header (prefix dropped: "CLOEXEC", "READ"). */
struct trace_flag {
	const char *name;
	unsigned long long val;
};

/* struct trace_syscall_name - one row of asm/unistd_64.h */
struct trace_syscall_name {
	int nr;
	const char *name;
};

/* the tables the beautifiers use; each ends with a NULL name */
enum trace_table {
	TT_ERRNO,
	TT_OPEN_FLAGS,
	TT_OPEN_ACCMODE,
	TT_PROT,
	TT_MAP_TYPE,
	TT_MAP_FLAGS,
	TT_SIGNAL,
	TT_SIGPROCMASK_HOW,
	TT_CLONE_FLAGS,
	TT_FUTEX_CMD,
	TT_FUTEX_FLAGS,
	TT_FUTEX_BITSET,
	TT_ARCH_PRCTL,
	TT_RLIMIT,
	TT_GRND,
	TT_ACCESS_MODE,
	TT_AT_FDCWD,
	TT_SEEK_WHENCE,
	TT_FCNTL_CMD,
	TT_WAIT_OPTIONS,
	TT_TTY_IOCTL,
	TT_SOCKET_FAMILY,
	TT_SOCKET_TYPE,
	TT_SOCKET_TYPE_FLAGS,
	TT_MSG_FLAGS,
	TT_FILE_MODE,
	TT_SOCK_LEVEL,
	TT_SOCK_PROTO_LEVEL,
	TT_NR,
};

/* trace_table_get - the rows of table @t (NULL-name terminated). */
const struct trace_flag *trace_table_get(enum trace_table t);

/* trace_table_find - the first name of value @val in @t, or NULL. */
const char *trace_table_find(enum trace_table t, unsigned long long val);

/* syscall_tbl_name - the name of syscall @nr, or NULL when the table has none. */
const char *syscall_tbl_name(int nr);

/* syscall_tbl_id - the number of syscall @name, or -1. */
int syscall_tbl_id(const char *name);

/* syscall_tbl_max - the highest syscall number in the table. */
int syscall_tbl_max(void);

/* errno_name - "ENOENT" for 2, or NULL for a value the headers do not name. */
const char *errno_name(int err);

#endif
