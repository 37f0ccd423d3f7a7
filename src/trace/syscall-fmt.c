/* SPDX-License-Identifier: MIT */
/* Syscall argument names from tracefs formats and the argument/return beautifiers of perf trace. */
#include "trace/syscall-fmt.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "trace/syscall-tbl.h"
#include "trace/tracefs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fast number formatting: a traced program makes millions of calls, printf is the bottleneck */
static void add_u64(struct strbuf *out, u64 v)
{
	char buf[24];
	int i = sizeof(buf);

	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	strbuf_add(out, buf + i, sizeof(buf) - i);
}

static void add_s64(struct strbuf *out, s64 v)
{
	if (v < 0) {
		strbuf_addch(out, '-');
		add_u64(out, -(u64)v);
	} else {
		add_u64(out, (u64)v);
	}
}

/* add_hex - "0x..." as %#llx prints it (0 as "0") */
static void add_hex(struct strbuf *out, u64 v)
{
	char buf[24];
	int i = sizeof(buf);

	if (!v) {
		strbuf_addch(out, '0');
		return;
	}
	while (v) {
		buf[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
	buf[--i] = 'x';
	buf[--i] = '0';
	strbuf_add(out, buf + i, sizeof(buf) - i);
}

static bool name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

/* arg_kind - how perf shows argument @arg (of C type @type) of syscall @sc */
static enum syscall_arg_kind arg_kind(const char *sc, const char *arg, const char *type)
{
	static const char *const fd_names[] = { "fd", "fildes", "oldfd", "newfd", "ufd", "epfd",
						"out_fd", "in_fd", "fd_in", "fd_out", NULL };
	static const char *const dfd_names[] = { "dfd", "olddfd", "newdfd", "dirfd", NULL };
	static const char *const file_names[] = { "filename", "pathname", "oldname", "newname",
						  "path", "specialfile", "library", NULL };
	static const char *const pid_names[] = { "pid", "upid", "tgid", NULL };
	static const char *const hex_names[] = { "addr", "start", "brk", "off", "pgoff", "arg2",
						 "arg3", "arg4", "arg5", "new_addr", NULL };
	static const char *const sig_calls[] = { "kill", "tkill", "tgkill", "rt_sigaction",
						 "rt_sigqueueinfo", "rt_tgsigqueueinfo",
						 "pidfd_send_signal", NULL };
	static const char *const open_calls[] = { "open", "openat", "open_by_handle_at", NULL };
	static const char *const access_calls[] = { "access", "faccessat", "faccessat2", NULL };
	static const char *const msg_calls[] = { "sendto", "recvfrom", "sendmsg", "recvmsg",
						 "sendmmsg", "recvmmsg", NULL };
	bool is_ptr = strchr(type, '*') != NULL;

	/* newer than perf 6.1's tables: shown as plain numbers */
	if (!strcmp(sc, "faccessat2"))
		return is_ptr ? SAK_HEX : SAK_INT32;
	if (!strcmp(sc, "futex") && !strcmp(arg, "val3"))
		return SAK_FUTEX_VAL3;
	if ((!strcmp(sc, "socket") || !strcmp(sc, "socketpair")) && !strcmp(arg, "family"))
		return SAK_SOCKET_FAMILY;
	if ((!strcmp(sc, "socket") || !strcmp(sc, "socketpair")) && !strcmp(arg, "type"))
		return SAK_SOCKET_TYPE;
	if (!strcmp(arg, "flags") && name_in(sc, msg_calls))
		return SAK_MSG_FLAGS;
	if (!strcmp(sc, "ioctl") && !strcmp(arg, "arg"))
		return SAK_HEX;

	if (name_in(arg, fd_names) && !is_ptr)
		return SAK_FD;
	if (name_in(arg, dfd_names) && !is_ptr)
		return SAK_DFD;
	if (name_in(arg, file_names) && is_ptr && strstr(type, "char"))
		return SAK_FILENAME;
	if (name_in(arg, pid_names) && !is_ptr)
		return SAK_PID;
	if (!strcmp(arg, "flags") && name_in(sc, open_calls))
		return SAK_OPEN_FLAGS;
	if (!strcmp(arg, "mode") && name_in(sc, access_calls))
		return SAK_ACCESS_MODE;
	/* perf 6.1 names them but prints nothing after the colon */
	if (!strcmp(sc, "statx") && (!strcmp(arg, "flags") || !strcmp(arg, "mask")))
		return SAK_EMPTY;
	if (!strcmp(arg, "level") && (!strcmp(sc, "setsockopt") || !strcmp(sc, "getsockopt")))
		return SAK_SOCK_LEVEL;
	if (!strcmp(arg, "mode") && strstr(type, "umode_t"))
		return SAK_FILE_MODE;
	if (!strcmp(arg, "prot"))
		return SAK_MMAP_PROT;
	if (!strcmp(arg, "flags") && !strcmp(sc, "mmap"))
		return SAK_MMAP_FLAGS;
	if (!strcmp(arg, "clone_flags"))
		return SAK_CLONE_FLAGS;
	if (!strcmp(arg, "op") && !strcmp(sc, "futex"))
		return SAK_FUTEX_OP;
	if (!strcmp(arg, "sig") && name_in(sc, sig_calls))
		return SAK_SIGNAL;
	if (!strcmp(arg, "how") && !strcmp(sc, "rt_sigprocmask"))
		return SAK_SIGPROCMASK_HOW;
	if (!strcmp(arg, "option") && !strcmp(sc, "arch_prctl"))
		return SAK_ARCH_PRCTL;
	if (!strcmp(arg, "resource"))
		return SAK_RLIMIT;
	if (!strcmp(arg, "flags") && !strcmp(sc, "getrandom"))
		return SAK_GRND;
	if (!strcmp(arg, "whence"))
		return SAK_WHENCE;
	if (!strcmp(sc, "fcntl") && !strcmp(arg, "cmd"))
		return SAK_FCNTL_CMD;
	if (!strcmp(sc, "fcntl") && !strcmp(arg, "arg"))
		return SAK_FCNTL_ARG;
	if (!strcmp(sc, "ioctl") && !strcmp(arg, "cmd"))
		return SAK_IOCTL_CMD;
	if (!strcmp(arg, "options") && (!strcmp(sc, "wait4") || !strcmp(sc, "waitid")))
		return SAK_WAIT_OPTIONS;
	if (is_ptr || (strstr(type, "unsigned long") && name_in(arg, hex_names)))
		return SAK_HEX;
	if (strstr(type, "unsigned") || strstr(type, "size_t") || strstr(type, "u32") ||
	    strstr(type, "u64"))
		return SAK_UINT;
	if (strstr(type, "int") && !strstr(type, "long"))
		return SAK_INT32;
	return SAK_INT;
}

static enum syscall_ret_kind ret_kind(const char *sc)
{
	static const char *const hex_calls[] = { "mmap", "mremap", "brk", "shmat", NULL };
	static const char *const pid_calls[] = { "clone", "clone3", "fork", "vfork", "wait4",
						 "getppid", "gettid", "set_tid_address", NULL };

	if (!strcmp(sc, "exit") || !strcmp(sc, "exit_group"))
		return SRK_NONE;
	if (name_in(sc, hex_calls))
		return SRK_HEX;
	if (name_in(sc, pid_calls))
		return SRK_PID;
	return SRK_INT;
}

/*
 * format_field_line - split "field:TYPE NAME;\toffset:N;..." into @type and
 * @name (array brackets dropped) and return the offset, or -1 when the
 * line is no field line.
 */
static int format_field_line(const char *line, char *type, size_t tlen, char *name, size_t nlen)
{
	const char *p = strstr(line, "field:"), *semi, *sp, *off;
	size_t len;

	if (!p)
		return -1;
	p += 6;
	semi = strchr(p, ';');
	if (!semi)
		return -1;
	sp = semi;
	while (sp > p && sp[-1] != ' ')
		sp--;
	if (sp == p)
		return -1;
	len = (size_t)(sp - p);
	while (len && p[len - 1] == ' ')
		len--;
	snprintf(type, tlen, "%.*s", (int)len, p);
	len = strcspn(sp, "[;");
	snprintf(name, nlen, "%.*s", (int)len, sp);
	off = strstr(semi, "offset:");
	return off ? atoi(off + 7) : -1;
}

static int read_format(const char *sys, const char *name, struct strbuf *sb)
{
	const char *root = tracefs_root();
	char path[512];

	if (!root)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, sys, name);
	if (strbuf_read_file(sb, path, 4096) < 0)
		return -errno ? -errno : -ENOENT;
	return 0;
}

int tp_field_offsets(const char *sys, const char *name, const char *const *fields, int *offs,
		     int nr)
{
	struct strbuf sb = STRBUF_INIT;
	char type[128], fname[128];
	int err, found = 0;

	for (int i = 0; i < nr; i++)
		offs[i] = -ENOENT;
	err = read_format(sys, name, &sb);
	if (err)
		return err;
	for (char *line = sb.buf, *next; line && *line; line = next) {
		int off;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		off = format_field_line(line, type, sizeof(type), fname, sizeof(fname));
		for (int i = 0; off >= 0 && i < nr; i++)
			if (offs[i] < 0 && !strcmp(fname, fields[i])) {
				offs[i] = off;
				found++;
			}
	}
	strbuf_release(&sb);
	return found == nr ? 0 : -ENOENT;
}

int syscall_desc_init(struct syscall_desc *desc, int id)
{
	struct strbuf sb = STRBUF_INIT;
	char tp[160];
	int err;

	memset(desc, 0, sizeof(*desc));
	desc->id = id;
	desc->name = syscall_tbl_name(id);
	if (!desc->name)
		return -ENOENT;
	desc->ret_kind = ret_kind(desc->name);
	snprintf(tp, sizeof(tp), "sys_enter_%s", desc->name);
	err = read_format("syscalls", tp, &sb);
	if (err) {
		/* uname is newuname to the kernel's tracepoints */
		snprintf(tp, sizeof(tp), "sys_enter_new%s", desc->name);
		strbuf_setlen(&sb, 0);
		err = read_format("syscalls", tp, &sb);
	}
	if (!err) {
		desc->has_format = true;
		for (char *line = sb.buf, *next; line && *line; line = next) {
			char type[128], name[128];

			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			if (format_field_line(line, type, sizeof(type), name, sizeof(name)) < 0 ||
			    !strncmp(name, "common_", 7) || !strcmp(name, "__syscall_nr"))
				continue;
			if (desc->nr_args == SYSCALL_MAX_ARGS)
				break;
			desc->arg_names[desc->nr_args] = xstrdup(name);
			desc->kinds[desc->nr_args] = arg_kind(desc->name, name, type);
			desc->nr_args++;
		}
	}
	strbuf_release(&sb);
	return 0;
}

void syscall_desc_release(struct syscall_desc *desc)
{
	for (int i = 0; i < desc->nr_args; i++)
		free(desc->arg_names[i]);
	desc->nr_args = 0;
}

/*
 * add_bits - the names of the single bits of @val found in @t, low bit
 * first, '|'-separated, then what is left in hex. Returns whether
 * something was appended.
 */
static bool add_bits(struct strbuf *out, enum trace_table t, u64 val, bool sep)
{
	u64 rest = 0;

	for (int bit = 0; bit < 64; bit++) {
		u64 b = 1ULL << bit;
		const char *name;

		if (!(val & b))
			continue;
		name = trace_table_find(t, b);
		if (!name) {
			rest |= b;
			continue;
		}
		if (t == TT_WAIT_OPTIONS)
			name += strspn(name, "_") + 1; /* WNOHANG, __WALL: NOHANG, ALL */
		strbuf_addf(out, "%s%s", sep ? "|" : "", name);
		sep = true;
	}
	if (rest) {
		strbuf_addf(out, "%s%#llx", sep ? "|" : "", (unsigned long long)rest);
		sep = true;
	}
	return sep;
}

static void add_pid(struct strbuf *out, int pid, const struct syscall_fmt_cb *cb)
{
	const char *c = cb && cb->comm ? cb->comm(cb->priv, pid) : NULL;

	strbuf_addf(out, "%d", pid);
	if (c)
		strbuf_addf(out, " (%s)", c);
}

static void add_named(struct strbuf *out, enum trace_table t, u64 val, bool is_signed)
{
	const char *name = trace_table_find(t, val);

	if (name)
		strbuf_addstr(out, name);
	else if (is_signed)
		strbuf_addf(out, "%d", (int)val);
	else
		strbuf_addf(out, "%llu", (unsigned long long)val);
}

static void add_fd(struct strbuf *out, int fd, const struct syscall_fmt_cb *cb)
{
	const char *path = cb && cb->fd_path && fd >= 0 ? cb->fd_path(cb->priv, fd) : NULL;

	add_s64(out, fd);
	if (path)
		strbuf_addf(out, "<%s>", path);
}

static void add_arg(struct strbuf *out, enum syscall_arg_kind kind, u64 v,
		    const struct syscall_fmt_cb *cb)
{
	switch (kind) {
	case SAK_INT:
		add_s64(out, (s64)v);
		break;
	case SAK_INT32:
		add_s64(out, (int)v);
		break;
	case SAK_FD_FLAGS:
		/* perf 6.1 shows FD_CLOEXEC inverted: "0" when set, "CLOEXEC" when clear */
		strbuf_addstr(out, (v & 1) ? "0" : "CLOEXEC");
		break;
	case SAK_FUTEX_VAL3: {
		const char *name = trace_table_find(TT_FUTEX_BITSET, (unsigned int)v);

		if (name)
			strbuf_addstr(out, name);
		else
			add_u64(out, (unsigned int)v);
		break;
	}
	case SAK_UINT:
	case SAK_FCNTL_ARG:
		add_u64(out, v);
		break;
	case SAK_HEX:
		add_hex(out, v);
		break;
	case SAK_FD:
		add_fd(out, (int)v, cb);
		break;
	case SAK_DFD:
		if ((int)v == (int)trace_table_get(TT_AT_FDCWD)[0].val)
			strbuf_addstr(out, "CWD");
		else
			add_fd(out, (int)v, cb);
		break;
	case SAK_FILENAME:
		add_hex(out, (unsigned int)v);
		break;
	case SAK_PID:
		add_pid(out, (int)v, cb);
		break;
	case SAK_OPEN_FLAGS: {
		/* perf's order: RDONLY/RDWR, the other flags by name, WRONLY */
		u64 acc = v & 3, rest = v & ~3ULL;
		const struct trace_flag *f, *names[64];
		int nr = 0;
		bool sep = false;

		if (acc != 1) {
			strbuf_addstr(out, trace_table_find(TT_OPEN_ACCMODE, acc) ?: "0x3");
			sep = true;
		}
		for (f = trace_table_get(TT_OPEN_FLAGS); f->name && nr < 64; f++)
			if (f->val && (rest & f->val) == f->val) {
				names[nr++] = f;
				rest &= ~f->val;
			}
		for (int a = 1; a < nr; a++)
			for (int b = a; b > 0 && strcmp(names[b - 1]->name, names[b]->name) > 0; b--) {
				f = names[b];
				names[b] = names[b - 1];
				names[b - 1] = f;
			}
		for (int k = 0; k < nr; k++) {
			strbuf_addf(out, "%s%s", sep ? "|" : "", names[k]->name);
			sep = true;
		}
		if (rest) {
			strbuf_addf(out, "%s%#llx", sep ? "|" : "", (unsigned long long)rest);
			sep = true;
		}
		if (acc == 1)
			strbuf_addf(out, "%s%s", sep ? "|" : "", trace_table_find(TT_OPEN_ACCMODE, 1));
		break;
	}
	case SAK_EMPTY:
		break;
	case SAK_SOCK_LEVEL: {
		const char *name = trace_table_find(TT_SOCK_LEVEL, (u32)v) ?:
				   trace_table_find(TT_SOCK_PROTO_LEVEL, (u32)v);

		if (name)
			strbuf_addstr(out, name);
		else
			strbuf_addf(out, "%d", (int)v);
		break;
	}
	case SAK_FILE_MODE: {
		/* each name whose bits are all still set takes them, in table order */
		bool sep = false;

		for (const struct trace_flag *f = trace_table_get(TT_FILE_MODE); f->name; f++) {
			if ((v & f->val) != f->val)
				continue;
			strbuf_addf(out, "%s%s", sep ? "|" : "", f->name);
			sep = true;
			v &= ~f->val;
		}
		if (v)
			strbuf_addf(out, "%s%#llx", sep ? "|" : "", (unsigned long long)v);
		break;
	}
	case SAK_ACCESS_MODE: {
		bool sep = false;

		for (const struct trace_flag *f = trace_table_get(TT_ACCESS_MODE); f->name; f++) {
			if (!(v & f->val))
				continue;
			/* R_OK -> R */
			strbuf_addf(out, "%s%.1s", sep ? "|" : "", f->name);
			sep = true;
			v &= ~f->val;
		}
		if (v)
			strbuf_addf(out, "%s%#llx", sep ? "|" : "", (unsigned long long)v);
		break;
	}
	case SAK_MMAP_PROT:
		add_bits(out, TT_PROT, v, false);
		break;
	case SAK_MMAP_FLAGS: {
		const char *type = trace_table_find(TT_MAP_TYPE, v & 0xf);
		bool sep = false;

		if (type) {
			strbuf_addstr(out, type);
			sep = true;
			v &= ~0xfULL;
		}
		add_bits(out, TT_MAP_FLAGS, v, sep);
		break;
	}
	case SAK_CLONE_FLAGS:
		add_bits(out, TT_CLONE_FLAGS, v, false);
		break;
	case SAK_FUTEX_OP: {
		const char *cmd = trace_table_find(TT_FUTEX_CMD, v & 0x7f);

		if (cmd)
			strbuf_addstr(out, cmd);
		else
			strbuf_addf(out, "%llu", (unsigned long long)(v & 0x7f));
		add_bits(out, TT_FUTEX_FLAGS, v & ~0x7fULL, true);
		break;
	}
	case SAK_SIGNAL: {
		const char *name = trace_table_find(TT_SIGNAL, v);

		if (name)
			strbuf_addstr(out, name);
		else
			add_hex(out, v); /* real-time signals */
		break;
	}
	case SAK_SOCKET_FAMILY:
		add_named(out, TT_SOCKET_FAMILY, v, true);
		break;
	case SAK_SOCKET_TYPE: {
		const char *name = trace_table_find(TT_SOCKET_TYPE, v & 0xf);

		if (name)
			strbuf_addstr(out, name);
		else
			add_u64(out, v & 0xf);
		for (const struct trace_flag *f = trace_table_get(TT_SOCKET_TYPE_FLAGS); f->name; f++)
			if (v & f->val) {
				strbuf_addf(out, "|%s", f->name);
				v &= ~f->val;
			}
		if (v & ~0xfULL)
			strbuf_addf(out, "|%#llx", (unsigned long long)(v & ~0xfULL));
		break;
	}
	case SAK_MSG_FLAGS:
		add_bits(out, TT_MSG_FLAGS, v, false);
		break;
	case SAK_SIGPROCMASK_HOW:
		add_named(out, TT_SIGPROCMASK_HOW, v, true);
		break;
	case SAK_ARCH_PRCTL:
		add_named(out, TT_ARCH_PRCTL, v, true);
		break;
	case SAK_RLIMIT:
		add_named(out, TT_RLIMIT, v, true);
		break;
	case SAK_GRND:
		add_bits(out, TT_GRND, v, false);
		break;
	case SAK_WHENCE:
		add_named(out, TT_SEEK_WHENCE, v, false);
		break;
	case SAK_FCNTL_CMD:
		add_named(out, TT_FCNTL_CMD, v, true);
		break;
	case SAK_WAIT_OPTIONS:
		add_bits(out, TT_WAIT_OPTIONS, v, false);
		break;
	case SAK_IOCTL_CMD: {
		const char *name = trace_table_find(TT_TTY_IOCTL, (unsigned int)v);

		if (name)
			strbuf_addstr(out, name);
		else
			strbuf_addf(out, "%#x", (unsigned int)v);
		break;
	}
	}
}

/* fcntl_cmd_takes_arg - the fcntl commands perf shows the third argument for, even when 0 */
static bool fcntl_cmd_takes_arg(u64 cmd)
{
	const char *name = trace_table_find(TT_FCNTL_CMD, cmd);

	return name && strncmp(name, "GET", 3) && strncmp(name, "OFD_GET", 7);
}

void syscall_format_args(const struct syscall_desc *desc, const u64 args[SYSCALL_MAX_ARGS],
			 const struct syscall_fmt_cb *cb, struct strbuf *out)
{
	bool first = true, anon_map = false;

	if (!desc->has_format) {
		/* no tracefs format: perf's raw argN names, all six */
		for (int i = 0; i < SYSCALL_MAX_ARGS; i++) {
			if (!args[i])
				continue;
			strbuf_addf(out, "%sarg%d: %llu", first ? "" : ", ", i,
				    (unsigned long long)args[i]);
			first = false;
		}
		return;
	}
	for (int i = 0; i < desc->nr_args; i++) {
		u64 v = args[i];

		/* futex: WAKE takes (uaddr, op, val), WAIT one more; the rest is stale registers */
		if (!strcmp(desc->name, "futex") && (((args[1] & 0x7f) == 1 && i > 2) ||
						     ((args[1] & 0x7f) == 0 && i > 3)))
			break;

		if (desc->kinds[i] == SAK_MMAP_FLAGS)
			anon_map = v & 0x20; /* MAP_ANONYMOUS: the fd is no argument then */
		if (desc->kinds[i] == SAK_FCNTL_ARG) {
			const char *cmd = trace_table_find(TT_FCNTL_CMD, args[1]);

			if (!fcntl_cmd_takes_arg(args[1]))
				continue;
			if (cmd && !strcmp(cmd, "SETFD")) {
				strbuf_addf(out, "%s%s: ", first ? "" : ", ", desc->arg_names[i]);
				add_arg(out, SAK_FD_FLAGS, v, cb);
				first = false;
				continue;
			}
		} else if (!v && desc->kinds[i] != SAK_SIGPROCMASK_HOW && desc->kinds[i] != SAK_WHENCE &&
			   desc->kinds[i] != SAK_FCNTL_CMD && desc->kinds[i] != SAK_SOCK_LEVEL) {
			continue;
		}
		if (desc->kinds[i] == SAK_FD && anon_map && !strcmp(desc->name, "mmap"))
			continue;
		if (!first)
			strbuf_add(out, ", ", 2);
		strbuf_addstr(out, desc->arg_names[i]);
		strbuf_add(out, ": ", 2);
		add_arg(out, desc->kinds[i], v, cb);
		first = false;
	}
}

void syscall_format_ret(const struct syscall_desc *desc, const u64 args[SYSCALL_MAX_ARGS], s64 ret,
			const struct syscall_fmt_cb *cb, struct strbuf *out)
{
	if (ret < 0 && ret >= -4095) {
		const char *name = errno_name((int)-ret);

		if (name)
			strbuf_addf(out, "-1 %s (%s)", name, strerror((int)-ret));
		else
			strbuf_addf(out, "-1 %lld (%s)", (long long)-ret, strerror((int)-ret));
		return;
	}
	if (desc->name && !strcmp(desc->name, "fcntl") && args) {
		const char *cmd = trace_table_find(TT_FCNTL_CMD, args[1]);

		/* GETFD's FD_CLOEXEC, GETFL's open flags */
		if (cmd && !strcmp(cmd, "GETFD")) {
			add_arg(out, SAK_FD_FLAGS, (u64)ret, cb);
			return;
		}
		if (cmd && !strcmp(cmd, "GETFL")) {
			add_arg(out, SAK_OPEN_FLAGS, (u64)ret, cb);
			return;
		}
	}
	switch (desc->ret_kind) {
	case SRK_HEX:
		add_hex(out, (u64)ret);
		break;
	case SRK_PID: {
		/* perf shows the comm of a thread it knows; getppid's unknown parent not at all */
		const char *c = cb && cb->comm ? cb->comm(cb->priv, (int)ret) : NULL;

		if (c)
			strbuf_addf(out, "%lld (%s)", (long long)ret, c);
		else if (ret && strcmp(desc->name, "getppid"))
			add_s64(out, ret);
		break;
	}
	case SRK_NONE:
		strbuf_addch(out, '?');
		break;
	default:
		add_s64(out, ret);
		break;
	}
}
