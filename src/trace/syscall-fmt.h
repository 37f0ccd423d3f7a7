/* SPDX-License-Identifier: MIT */
/* Syscall descriptions (argument names and types from tracefs) and perf trace's argument beautifiers. */
#ifndef SONDE_TRACE_SYSCALL_FMT_H
#define SONDE_TRACE_SYSCALL_FMT_H

#include "lib/util.h"

#include <stdbool.h>

struct strbuf;

#define SYSCALL_MAX_ARGS 6

/* how one argument is shown */
enum syscall_arg_kind {
	SAK_INT,	/* signed decimal */
	SAK_INT32,	/* an int: signed decimal of the low 32 bits */
	SAK_UINT,	/* unsigned decimal */
	SAK_HEX,	/* 0x%llx: pointers, addresses, offsets */
	SAK_FD,		/* an int fd */
	SAK_DFD,	/* a directory fd: AT_FDCWD as CWD */
	SAK_FILENAME,	/* a user string perf shows by its address's low 32 bits */
	SAK_PID,	/* a pid, "(comm)" added when the thread is known */
	SAK_OPEN_FLAGS,
	SAK_ACCESS_MODE,
	SAK_SOCK_LEVEL,		/* setsockopt/getsockopt level: TCP, IPV6... */
	SAK_FILE_MODE,
	SAK_EMPTY,		/* shown with no value (statx's flags and mask in perf 6.1) */		/* umode_t: IRUGO|IWUSR... */
	SAK_MMAP_PROT,
	SAK_MMAP_FLAGS,
	SAK_CLONE_FLAGS,
	SAK_FUTEX_OP,
	SAK_SIGNAL,
	SAK_SIGPROCMASK_HOW,
	SAK_ARCH_PRCTL,
	SAK_RLIMIT,
	SAK_GRND,
	SAK_WHENCE,
	SAK_FCNTL_CMD,
	SAK_FCNTL_ARG,	/* shown even when zero for the commands that take one */
	SAK_WAIT_OPTIONS,
	SAK_IOCTL_CMD,
	SAK_SOCKET_FAMILY,
	SAK_SOCKET_TYPE,
	SAK_MSG_FLAGS,
	SAK_FD_FLAGS,	/* fcntl SETFD's argument, as perf 6.1 shows it */
	SAK_FUTEX_VAL3,
};

/* how the return value is shown (errors are always "-1 ENAME (text)") */
enum syscall_ret_kind {
	SRK_INT,
	SRK_HEX,	/* mmap, brk, ...: an address */
	SRK_PID,	/* clone, wait4, ...: "pid (comm)" */
	SRK_NONE,	/* exit, exit_group: never return, shown as "?" */
};

/*
 * struct syscall_desc - one syscall: its name and the arguments its tracefs
 * syscalls:sys_enter_<name> format declares (none when the kernel has no
 * such tracepoint: perf's raw args then).
 */
struct syscall_desc {
	int id;
	const char *name;	/* from the generated table, static */
	int nr_args;
	char *arg_names[SYSCALL_MAX_ARGS];	/* owned */
	enum syscall_arg_kind kinds[SYSCALL_MAX_ARGS];
	enum syscall_ret_kind ret_kind;
	bool has_format;	/* the tracefs format was read */
};

/* struct syscall_fmt_cb - what the caller knows: thread comms and the paths of fds */
struct syscall_fmt_cb {
	const char *(*comm)(void *priv, int pid);  /* comm of a known thread, or NULL */
	const char *(*fd_path)(void *priv, int fd); /* path of the calling thread's fd, or NULL */
	void *priv;
};

/*
 * syscall_desc_init - fill @desc for syscall @id (name from the generated
 * table; argument names and types from tracefs). Returns 0, or -ENOENT for
 * an id the table does not name.
 */
int syscall_desc_init(struct syscall_desc *desc, int id);

/* syscall_desc_release - free the argument names. */
void syscall_desc_release(struct syscall_desc *desc);

/*
 * syscall_format_args - append the arguments of one call as perf trace shows
 * them: "name: value" pairs separated by ", ", zero values left out, fds
 * followed by their path ("3</etc/passwd>") when @cb knows it.
 */
void syscall_format_args(const struct syscall_desc *desc, const u64 args[SYSCALL_MAX_ARGS],
			 const struct syscall_fmt_cb *cb, struct strbuf *out);

/*
 * syscall_format_ret - append the return value of the call with @args:
 * "-1 ENOENT (No such file or directory)" for an error, an address in hex,
 * "pid (comm)", fcntl's flags, or decimal.
 */
void syscall_format_ret(const struct syscall_desc *desc, const u64 args[SYSCALL_MAX_ARGS], s64 ret,
			const struct syscall_fmt_cb *cb, struct strbuf *out);

/*
 * tp_field_offsets - the offsets of the @nr fields @fields of tracepoint
 * @sys:@name as its tracefs format declares them (-ENOENT for one not
 * there). Returns 0 when all were found, else -errno.
 */
int tp_field_offsets(const char *sys, const char *name, const char *const *fields, int *offs,
		     int nr);

#endif
