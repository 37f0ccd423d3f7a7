/* SPDX-License-Identifier: MIT */
/* perf_event_open(2) wrapper, PERF_TEST_ATTR dump, RLIMIT_NOFILE and kernel capability probes. */
#include "core/sys.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

size_t sys_attr_dump(char *out, size_t len, const struct perf_event_attr *a, int fd,
		     int group_fd, int cpu, pid_t pid, unsigned long flags)
{
	size_t n = 0;

#define ADD(fmt, ...)                                                                      \
	do {                                                                               \
		int r_ = snprintf(out + n, n < len ? len - n : 0, fmt, __VA_ARGS__);       \
		if (r_ > 0)                                                                \
			n += (size_t)r_;                                                   \
	} while (0)
#define U(name, v) ADD("%s=%llu\n", name, (unsigned long long)(v))
	/* the keys and their order are perf's: its attr tests parse these files */
	ADD("[event-%u-%llu-%d]\n", a->type, (unsigned long long)a->config, fd);
	ADD("fd=%d\n", fd);
	ADD("group_fd=%d\n", group_fd);
	ADD("cpu=%d\n", cpu);
	ADD("pid=%d\n", (int)pid);
	U("flags", flags);
	U("type", a->type);
	U("size", a->size);
	U("config", a->config);
	U("sample_period", a->sample_period);
	U("sample_type", a->sample_type);
	U("read_format", a->read_format);
	U("disabled", a->disabled);
	U("inherit", a->inherit);
	U("pinned", a->pinned);
	U("exclusive", a->exclusive);
	U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel);
	U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle);
	U("mmap", a->mmap);
	U("comm", a->comm);
	U("freq", a->freq);
	U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec);
	U("task", a->task);
	U("watermark", a->watermark);
	U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data);
	U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host);
	U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user);
	U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec);
	U("context_switch", a->context_switch);
	U("write_backward", a->write_backward);
	U("namespaces", a->namespaces);
	U("use_clockid", a->use_clockid);
	U("wakeup_events", a->wakeup_events);
	U("bp_type", a->bp_type);
	U("config1", a->config1);
	U("config2", a->config2);
	U("branch_sample_type", a->branch_sample_type);
	U("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
#undef U
#undef ADD
	return n < len ? n : len;
}

static void test_attr_write(const char *dir, struct perf_event_attr *attr, int fd, int group_fd,
			    int cpu, pid_t pid, unsigned long flags)
{
	char path[4096], buf[4096];
	size_t n;
	int out;

	snprintf(path, sizeof(path), "%s/event-%u-%llu-%d", dir, attr->type,
		 (unsigned long long)attr->config, fd);
	n = sys_attr_dump(buf, sizeof(buf), attr, fd, group_fd, cpu, pid, flags);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return; /* a test hook: the open itself succeeded, so carry on */
	(void)write_full(out, buf, n);
	close(out);
}

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	static int test_attr = -1;
	static const char *test_dir;
	int fd = (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);

	if (fd < 0)
		return -errno;
	if (test_attr < 0) {
		test_dir = getenv("PERF_TEST_ATTR");
		test_attr = test_dir && *test_dir;
	}
	if (test_attr)
		test_attr_write(test_dir, attr, fd, group_fd, cpu, pid, flags);
	return fd;
}

long sys_raise_nofile_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	return (long)rl.rlim_cur;
}

static int read_proc_int(const char *path, int dflt)
{
	long long v;

	return read_sysfs_int(path, &v) ? dflt : (int)v;
}

char *sys_proc_field(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	char *res = NULL;
	size_t kl = strlen(key);

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, key, kl))
			continue;
		p = line + kl;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = 0;
		res = xstrdup(p);
		break;
	}
	fclose(f);
	return res;
}

bool sys_cpu_is_amd(void)
{
	static int is_amd = -1;

	if (is_amd < 0) {
		char *vendor = sys_proc_field("/proc/cpuinfo", "vendor_id");

		is_amd = vendor && (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"));
		free(vendor);
	}
	return is_amd;
}

int sys_paranoid(void)
{
	return read_proc_int("/proc/sys/kernel/perf_event_paranoid", 2);
}

void kernel_caps_probe(struct kernel_caps *caps)
{
	static const char *const tracefs_dirs[] = { "/sys/kernel/tracing",
						    "/sys/kernel/debug/tracing" };
	struct perf_event_attr attr;
	char path[256];
	int fd;

	memset(caps, 0, sizeof(*caps));
	caps->paranoid = sys_paranoid();
	caps->max_sample_rate = read_proc_int("/proc/sys/kernel/perf_event_max_sample_rate", 0);
	caps->mlock_kb = read_proc_int("/proc/sys/kernel/perf_event_mlock_kb", 0);
	for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", tracefs_dirs[i]);
		if (access(path, R_OK | X_OK))
			continue;
		caps->has_tracefs = true;
		caps->tracefs = tracefs_dirs[i];
		snprintf(path, sizeof(path), "%s/kprobe_events", tracefs_dirs[i]);
		caps->has_kprobes = !access(path, F_OK);
		snprintf(path, sizeof(path), "%s/uprobe_events", tracefs_dirs[i]);
		caps->has_uprobes = !access(path, F_OK);
		break;
	}
	caps->has_breakpoints = !access("/sys/bus/event_source/devices/breakpoint", F_OK);

	/* a user-only cycles counter on ourselves: what any unprivileged user may try */
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		caps->has_hw_counters = true;
		close(fd);
	}
}
