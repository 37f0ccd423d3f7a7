/* SPDX-License-Identifier: MIT */
/* perf sched latency: per task (or per comm) runtime, context switches and wakeup-to-run delays. */
#include "ui/sched.h"

#include "lib/hashmap.h"
#include "lib/xalloc.h"
#include "session/sched.h"
#include "session/session.h"
#include "ui/header.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum lat_state { LAT_NONE, LAT_SLEEPING, LAT_WAITING, LAT_RUNNING };

/* struct lat_task - one task (by pid), or after merging one comm */
struct lat_task {
	int pid;
	const char *comm;    /* the thread's last comm, at print time */
	enum lat_state state; /* of its last switch-out */
	u64 ready;	     /* since when it waits for a cpu */
	u64 runtime;	     /* sched_stat_runtime sums */
	u64 total_delay, max_delay, max_start, max_end;
	u64 nr_switches;     /* sched-ins measured */
	int nr_merged;
	u32 order;
};

struct lat_run {
	struct tool tool;
	const struct sched_latency_opts *o;
	struct sched_decoder dec;
	struct u64map by_pid; /* pid -> struct lat_task *, for pids past the array */
	struct lat_task **pid_arr; /* by pid below PID_ARRAY_MAX */
	u32 nr_pid_arr;
	struct lat_task **tasks;
	u32 nr, alloc;
	bool any_trace;
	int *cpu_curr;	      /* per cpu: the pid its last switch ran, -1: none seen */
	int nr_cpus;
	u64 nr_switch_bugs;   /* switches whose prev was not the cpu's current task */
	u64 nr_wakeups;
};

/* the task a cpu's last switch put on it: a switch from another is a "context switch bug" */
static void lat_check_curr(struct lat_run *r, int cpu, int prev, int next)
{
	if (cpu < 0)
		return;
	if (cpu >= r->nr_cpus) {
		int n = cpu + 16;

		r->cpu_curr = xreallocarray(r->cpu_curr, (size_t)n, sizeof(int));
		for (int i = r->nr_cpus; i < n; i++)
			r->cpu_curr[i] = -1;
		r->nr_cpus = n;
	}
	if (r->cpu_curr[cpu] != -1 && r->cpu_curr[cpu] != prev)
		r->nr_switch_bugs++;
	r->cpu_curr[cpu] = next;
}

#define PID_ARRAY_MAX (1U << 22)

static struct lat_task *lat_findnew(struct lat_run *r, int pid)
{
	bool in_arr = pid >= 0 && (u32)pid < PID_ARRAY_MAX;
	struct lat_task *k;

	if (in_arr && (u32)pid < r->nr_pid_arr && r->pid_arr[pid])
		return r->pid_arr[pid];
	k = in_arr ? NULL : u64map_find(&r->by_pid, (u64)(s64)pid);
	if (k)
		return k;
	k = xcalloc(1, sizeof(*k));
	k->pid = pid;
	k->order = r->nr;
	if (in_arr) {
		if ((u32)pid >= r->nr_pid_arr) {
			u32 n = (u32)pid + 1024;

			r->pid_arr = xreallocarray(r->pid_arr, n, sizeof(*r->pid_arr));
			memset(r->pid_arr + r->nr_pid_arr, 0, (n - r->nr_pid_arr) * sizeof(*r->pid_arr));
			r->nr_pid_arr = n;
		}
		r->pid_arr[pid] = k;
	} else {
		u64map_set(&r->by_pid, (u64)(s64)pid, k);
	}
	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 256;
		r->tasks = xreallocarray(r->tasks, r->alloc, sizeof(*r->tasks));
	}
	r->tasks[r->nr++] = k;
	return k;
}

static void lat_sched_in(struct lat_task *k, u64 t)
{
	u64 d;

	if (k->state == LAT_NONE) {
		/* first sight: it was runnable until now */
		k->state = LAT_WAITING;
		k->ready = t;
	}
	if (k->state != LAT_WAITING) {
		k->state = LAT_RUNNING;
		return;
	}
	d = t >= k->ready ? t - k->ready : 0;
	k->total_delay += d;
	k->nr_switches++;
	if (d > k->max_delay) {
		k->max_delay = d;
		k->max_start = k->ready;
		k->max_end = t;
	}
	k->state = LAT_RUNNING;
}

static int lat_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct perf_sample *s, struct evsel *evsel)
{
	struct lat_run *r = (struct lat_run *)tool;
	struct sched_rec rec;
	struct lat_task *k;

	(void)session;
	(void)ev;
	if (s->raw_data)
		r->any_trace = true;
	switch (sched_decode(&r->dec, evsel, s, &rec)) {
	case SCHED_SWITCH:
		lat_check_curr(r, (int)s->cpu, rec.pid, rec.next_pid);
		if (rec.next_pid)
			lat_sched_in(lat_findnew(r, rec.next_pid), s->time);
		if (rec.pid) {
			k = lat_findnew(r, rec.pid);
			k->state = rec.state == 0 ? LAT_WAITING : LAT_SLEEPING;
			k->ready = s->time;
		}
		break;
	case SCHED_WAKEUP:
	case SCHED_WAKEUP_NEW:
		r->nr_wakeups++;
		if (!rec.pid)
			break;
		k = lat_findnew(r, rec.pid);
		if (k->state == LAT_SLEEPING) {
			k->state = LAT_WAITING;
			k->ready = s->time;
		}
		break;
	case SCHED_FORK:
		if (!rec.next_pid)
			break;
		k = lat_findnew(r, rec.next_pid);
		k->state = LAT_SLEEPING;
		k->ready = s->time;
		break;
	case SCHED_MIGRATE:
		/* perf follows migrations only with -C (whatever cpu it names) */
		if (r->o->cpu < 0 || !rec.pid)
			break;
		r->nr_wakeups++;
		k = lat_findnew(r, rec.pid);
		if (k->state == LAT_NONE)
			k->state = LAT_WAITING;
		if (k->state == LAT_WAITING)
			k->ready = s->time;
		break;
	case SCHED_RUNTIME:
		if (!rec.pid)
			break;
		k = lat_findnew(r, rec.pid);
		k->runtime += rec.runtime;
		/* perf: a task first seen by its runtime (charged by another cpu,
		 * e.g. a migration thread) waits for a cpu from then on */
		if (k->state == LAT_NONE) {
			k->state = LAT_WAITING;
			k->ready = s->time;
		}
		break;
	default:
		break;
	}
	return 0;
}

/* ---- sorting ---- */

enum lat_key { KEY_RUNTIME, KEY_SWITCH, KEY_AVG, KEY_MAX };

static const char *const key_names[] = { "runtime", "switch", "avg", "max" };

static int key_of(const char *s, size_t len)
{
	for (int i = 0; i < 4; i++)
		if (strlen(key_names[i]) == len && !strncmp(key_names[i], s, len))
			return i;
	return -1;
}

bool sched_latency_sort_valid(const char *sort, const char **bad, size_t *bad_len)
{
	const char *p = sort;

	while (*p) {
		size_t n;

		while (*p == ',' || *p == ' ')
			p++;
		n = strcspn(p, ", ");
		if (n && key_of(p, n) < 0) {
			*bad = p;
			*bad_len = n;
			return false;
		}
		p += n;
	}
	return true;
}

static int sort_keys[8], nr_sort_keys;

static u64 lat_avg(const struct lat_task *k)
{
	return k->nr_switches ? k->total_delay / k->nr_switches : 0;
}

static int cmp_u64_desc(u64 a, u64 b)
{
	return a > b ? -1 : a < b;
}

static int lat_cmp(const void *a, const void *b)
{
	const struct lat_task *x = *(const struct lat_task *const *)a;
	const struct lat_task *y = *(const struct lat_task *const *)b;
	int c = 0;

	for (int i = 0; i < nr_sort_keys && !c; i++) {
		switch (sort_keys[i]) {
		case KEY_RUNTIME:
			c = cmp_u64_desc(x->runtime, y->runtime);
			break;
		case KEY_SWITCH:
			c = cmp_u64_desc(x->nr_switches, y->nr_switches);
			break;
		case KEY_AVG:
			c = cmp_u64_desc(lat_avg(x), lat_avg(y));
			break;
		case KEY_MAX:
			c = cmp_u64_desc(x->max_delay, y->max_delay);
			break;
		}
	}
	if (c)
		return c;
	/* perf's sorted tree puts an equal entry before those already in it */
	return x->order > y->order ? -1 : x->order < y->order;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct lat_task *x = *(const struct lat_task *const *)a;
	const struct lat_task *y = *(const struct lat_task *const *)b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int cmp_comm(const void *a, const void *b)
{
	const struct lat_task *x = *(const struct lat_task *const *)a;
	const struct lat_task *y = *(const struct lat_task *const *)b;

	return strcmp(x->comm, y->comm);
}

static void ts_usec(char *buf, size_t len, u64 t)
{
	char tmp[40];

	snprintf(tmp, sizeof(tmp), "%" PRIu64 ".%06" PRIu64, (u64)(t / 1000000000ULL),
		 (u64)((t % 1000000000ULL) / 1000ULL));
	snprintf(buf, len, "%12s", tmp);
}

static void print_dashes(int n)
{
	putchar(' ');
	for (int i = 0; i < n; i++)
		putchar('-');
	putchar('\n');
}

int sched_latency(struct session *session, const struct sched_latency_opts *opts)
{
	struct lat_run r = { .o = opts };
	struct data_error err = { 0 };
	struct lat_task **list;
	u32 nr = 0;
	u64 total_runtime = 0, total_switches = 0;
	const char *p;
	int ret;

	u64map_init(&r.by_pid);
	sched_decoder_init(&r.dec, session);
	r.dec.comms = false; /* names come from the threads */
	r.tool.sample = lat_sample;
	r.tool.ordered = true;
	ret = session_process(session, &r.tool, &err);
	if (ret < 0) {
		data_error_print(data_reader_path(session->reader), &err);
		goto out;
	}
	if (!r.any_trace)
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");

	/* names, then the per-comm merge unless -p */
	for (u32 i = 0; i < r.nr; i++) {
		struct thread *t = machine_findnew_thread(&session->machine, -1, r.tasks[i]->pid);

		r.tasks[i]->comm = t->comm;
		r.tasks[i]->nr_merged = 1;
	}
	if (r.nr > 1)
		qsort(r.tasks, r.nr, sizeof(*r.tasks), cmp_pid);
	list = xcalloc(r.nr + 1, sizeof(*list));
	if (opts->per_pid) {
		if (r.nr)
			memcpy(list, r.tasks, r.nr * sizeof(*list));
		nr = r.nr;
	} else {
		struct strpool *names = &session->names;
		struct u64map by_comm;

		u64map_init(&by_comm);
		for (u32 i = 0; i < r.nr; i++) {
			struct lat_task *k = r.tasks[i], *m;
			const char *key = strpool_intern(names, k->comm);

			m = u64map_find(&by_comm, (u64)(uintptr_t)key);
			if (!m) {
				u64map_set(&by_comm, (u64)(uintptr_t)key, k);
				list[nr++] = k;
				continue;
			}
			m->nr_merged++;
			m->runtime += k->runtime;
			m->nr_switches += k->nr_switches;
			m->total_delay += k->total_delay;
			if (k->max_delay > m->max_delay) {
				m->max_delay = k->max_delay;
				m->max_start = k->max_start;
				m->max_end = k->max_end;
			}
		}
		u64map_release(&by_comm);
	}
	if (!opts->per_pid && nr > 1)
		qsort(list, nr, sizeof(*list), cmp_comm);
	for (u32 i = 0; i < nr; i++)
		list[i]->order = i;
	nr_sort_keys = 0;
	for (p = opts->sort; *p && nr_sort_keys < 8;) {
		size_t n;

		while (*p == ',' || *p == ' ')
			p++;
		n = strcspn(p, ", ");
		if (n)
			sort_keys[nr_sort_keys++] = key_of(p, n);
		p += n;
	}
	if (nr > 1)
		qsort(list, nr, sizeof(*list), lat_cmp);

	printf("\n");
	print_dashes(139);
	printf("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Max delay start           | Max delay end          |\n");
	print_dashes(139);
	for (u32 i = 0; i < nr; i++) {
		struct lat_task *k = list[i];
		char name[64], st[48], en[48];

		if (!k->nr_switches)
			continue;
		if (k->nr_merged > 1)
			snprintf(name, sizeof(name), "%s:(%d)", k->comm, k->nr_merged);
		else
			snprintf(name, sizeof(name), "%s:%d", k->comm, k->pid);
		ts_usec(st, sizeof(st), k->max_start);
		ts_usec(en, sizeof(en), k->max_end);
		printf("  %-22s| %10.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | max start: %s s | max end: %s s\n",
		       name, (double)k->runtime / 1e6, k->nr_switches, (double)lat_avg(k) / 1e6,
		       (double)k->max_delay / 1e6, st, en);
		total_runtime += k->runtime;
		total_switches += k->nr_switches;
	}
	print_dashes(113);
	printf("  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n", (double)total_runtime / 1e6,
	       total_switches);
	print_dashes(51);
	if (r.nr_switch_bugs && r.nr_wakeups)
		printf("  INFO: %.3f%% context switch bugs (%" PRIu64 " out of %" PRIu64 ")\n",
		       100.0 * (double)r.nr_switch_bugs / (double)r.nr_wakeups, r.nr_switch_bugs,
		       r.nr_wakeups);
	printf("\n");
	free(list);
out:
	for (u32 i = 0; i < r.nr; i++)
		free(r.tasks[i]);
	free(r.tasks);
	free(r.cpu_curr);
	free(r.pid_arr);
	u64map_release(&r.by_pid);
	sched_decoder_release(&r.dec);
	return ret < 0 ? ret : 0;
}
