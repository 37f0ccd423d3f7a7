/* SPDX-License-Identifier: MIT */
/* Lookups over the tables tools/gen-trace-tables.sh generates from the machine's headers. */
#include "trace/syscall-tbl.h"

#include <stddef.h>
#include <string.h>

/* the generated header (build dir, see the Makefile): its name comes from the compile line */
#include TRACE_GEN_TABLES

#define NR_SYSCALL_NAMES (sizeof(trace_syscall_names) / sizeof(trace_syscall_names[0]))

const struct trace_flag *trace_table_get(enum trace_table t)
{
	static const struct trace_flag *const tables[TT_NR] = {
		[TT_ERRNO] = trace_errnos,
		[TT_OPEN_FLAGS] = trace_open_flags,
		[TT_OPEN_ACCMODE] = trace_open_accmodes,
		[TT_PROT] = trace_prot_flags,
		[TT_MAP_TYPE] = trace_map_types,
		[TT_MAP_FLAGS] = trace_map_flags,
		[TT_SIGNAL] = trace_signals,
		[TT_SIGPROCMASK_HOW] = trace_sigprocmask_hows,
		[TT_CLONE_FLAGS] = trace_clone_flags,
		[TT_FUTEX_CMD] = trace_futex_cmds,
		[TT_FUTEX_FLAGS] = trace_futex_flags,
		[TT_FUTEX_BITSET] = trace_futex_bitsets,
		[TT_ARCH_PRCTL] = trace_arch_prctl_codes,
		[TT_RLIMIT] = trace_rlimits,
		[TT_GRND] = trace_grnd_flags,
		[TT_ACCESS_MODE] = trace_access_modes,
		[TT_AT_FDCWD] = trace_at_fdcwd,
		[TT_SEEK_WHENCE] = trace_seek_whences,
		[TT_FCNTL_CMD] = trace_fcntl_cmds,
		[TT_WAIT_OPTIONS] = trace_wait_options,
		[TT_TTY_IOCTL] = trace_tty_ioctls,
		[TT_SOCKET_FAMILY] = trace_socket_families,
		[TT_SOCKET_TYPE] = trace_socket_types,
		[TT_SOCKET_TYPE_FLAGS] = trace_socket_type_flags,
		[TT_MSG_FLAGS] = trace_msg_flags,
		[TT_FILE_MODE] = trace_file_modes,
		[TT_SOCK_LEVEL] = trace_sock_levels,
		[TT_SOCK_PROTO_LEVEL] = trace_sock_proto_levels,
	};

	return t < TT_NR ? tables[t] : NULL;
}

const char *trace_table_find(enum trace_table t, unsigned long long val)
{
	for (const struct trace_flag *f = trace_table_get(t); f && f->name; f++)
		if (f->val == val)
			return f->name;
	return NULL;
}

const char *syscall_tbl_name(int nr)
{
	size_t lo = 0, hi = NR_SYSCALL_NAMES;

	/* the generator sorts the rows by number */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (trace_syscall_names[mid].nr == nr)
			return trace_syscall_names[mid].name;
		if (trace_syscall_names[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int syscall_tbl_id(const char *name)
{
	for (size_t i = 0; i < NR_SYSCALL_NAMES; i++)
		if (!strcmp(trace_syscall_names[i].name, name))
			return trace_syscall_names[i].nr;
	return -1;
}

int syscall_tbl_max(void)
{
	return trace_syscall_names[NR_SYSCALL_NAMES - 1].nr;
}

const char *errno_name(int err)
{
	return trace_table_find(TT_ERRNO, (unsigned long long)err);
}
