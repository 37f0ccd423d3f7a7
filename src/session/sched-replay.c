/* SPDX-License-Identifier: MIT */
/* perf sched replay's model built from a session, and its replay: one thread per recorded task, runs burnt, sleeps waited, wakeups posted. */
#include "session/sched-replay.h"

#include "core/evsel.h"
#include "lib/xalloc.h"
#include "session/sched.h"
#include "session/session.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct replay_step {
	enum replay_step_kind kind;
	u64 ns;			    /* run: how long */
	bool waitable;		    /* sleep: the task was not runnable (or not started) */
	bool claimed;		    /* sleep: a wakeup step posts it */
	struct replay_step *target; /* wakeup: the sleep it ends, NULL: none */
	sem_t sem;		    /* sleep, when claimed */
};

void sched_replay_init(struct sched_replay *rp)
{
	memset(rp, 0, sizeof(*rp));
	u64map_init(&rp->by_pid);
}

void sched_replay_release(struct sched_replay *rp)
{
	for (int i = 0; i < rp->nr_tasks; i++) {
		struct replay_task *t = rp->tasks[i];

		for (int j = 0; j < t->nr_steps; j++) {
			if (t->steps[j]->claimed)
				sem_destroy(&t->steps[j]->sem);
			free(t->steps[j]);
		}
		free(t->steps);
		free(t);
	}
	free(rp->tasks);
	free(rp->cpu_last);
	u64map_release(&rp->by_pid);
	memset(rp, 0, sizeof(*rp));
}

/* ---- calibration -------------------------------------------------------- */

/* spin until @ns have passed */
static void burn_ns(u64 ns)
{
	u64 end = monotonic_ns() + ns;

	while (monotonic_ns() < end)
		;
}

static void sleep_ns(u64 ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* the least time @fn(@ns) took over a few tries */
static u64 least_cost(void (*fn)(u64), u64 ns)
{
	u64 best = ~0ULL;

	for (int i = 0; i < 10; i++) {
		u64 t0 = monotonic_ns(), d;

		fn(ns);
		d = monotonic_ns() - t0;
		if (d < best)
			best = d;
	}
	return best;
}

static u64 one_cost(void (*fn)(u64), u64 ns)
{
	u64 t0 = monotonic_ns();

	fn(ns);
	return monotonic_ns() - t0;
}

void sched_replay_calibrate(struct sched_replay *rp, u64 *run_ns, u64 *sleep_ns_out)
{
	rp->run_overhead = least_cost(burn_ns, 0);
	rp->sleep_overhead = least_cost(sleep_ns, 1);
	*run_ns = one_cost(burn_ns, 1000000);
	*sleep_ns_out = one_cost(sleep_ns, 1000000);
}

/* ---- the model ---------------------------------------------------------- */

static struct replay_step *task_add_step(struct sched_replay *rp, struct replay_task *t,
					 enum replay_step_kind kind)
{
	struct replay_step *st = xcalloc(1, sizeof(*st));

	st->kind = kind;
	if (t->nr_steps == t->alloc_steps) {
		t->alloc_steps = t->alloc_steps ? 2 * t->alloc_steps : 8;
		t->steps = xreallocarray(t->steps, (size_t)t->alloc_steps, sizeof(*t->steps));
	}
	t->steps[t->nr_steps++] = st;
	switch (kind) {
	case REPLAY_RUN:
		rp->nr_run++;
		break;
	case REPLAY_SLEEP:
		rp->nr_sleep++;
		t->last_sleep = st;
		break;
	case REPLAY_WAKEUP:
		rp->nr_wakeup++;
		break;
	}
	return st;
}

/* the task of @pid, made (with @comm and a first, waitable sleep: its start) when new */
static struct replay_task *replay_task_findnew(struct sched_replay *rp, int pid, const char *comm,
					       int comm_len)
{
	struct replay_task *t = u64map_find(&rp->by_pid, (u64)(s64)pid);
	size_t n;

	if (t)
		return t;
	t = xcalloc(1, sizeof(*t));
	t->nr = rp->nr_tasks;
	t->pid = pid;
	n = comm_len < 0 ? strlen(comm) : (size_t)comm_len;
	if (n >= sizeof(t->comm))
		n = sizeof(t->comm) - 1;
	memcpy(t->comm, comm, n);
	if (rp->nr_tasks == rp->alloc_tasks) {
		rp->alloc_tasks = rp->alloc_tasks ? 2 * rp->alloc_tasks : 64;
		rp->tasks = xreallocarray(rp->tasks, (size_t)rp->alloc_tasks, sizeof(*rp->tasks));
	}
	rp->tasks[rp->nr_tasks++] = t;
	u64map_set(&rp->by_pid, (u64)(s64)pid, t);
	task_add_step(rp, t, REPLAY_SLEEP)->waitable = true;
	return t;
}

struct replay_load {
	struct tool tool;
	struct sched_replay *rp;
	struct sched_decoder dec;
};

static const char *thread_comm_of(struct session *session, int tid)
{
	struct thread *t = machine_find_thread(&session->machine, tid);

	return t && t->comm ? t->comm : "";
}

/* a FORK registers the parent, then the child, each under its name then (the child's the parent's, if named) */
static int load_other(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct perf_sample *s)
{
	struct replay_load *l = (struct replay_load *)tool;
	const char *parent_comm;
	struct thread *child;

	(void)s;
	if (ev->header.type != PERF_RECORD_FORK || ev->header.size < sizeof(ev->fork))
		return 0;
	child = machine_find_thread(&session->machine, (int)ev->fork.tid);
	parent_comm = thread_comm_of(session, (int)ev->fork.ptid);
	replay_task_findnew(l->rp, (int)ev->fork.ptid, parent_comm, -1);
	/* the idle task counts as named ("swapper") for its children, as perf has it */
	replay_task_findnew(l->rp, (int)ev->fork.tid,
			    child && (child->comm_set || ev->fork.ptid) ? child->comm : parent_comm, -1);
	return 0;
}

static void load_switch(struct sched_replay *rp, const struct perf_sample *s,
			const struct sched_rec *rec)
{
	int cpu = (int)s->cpu;
	struct replay_task *prev;
	u64 delta = 0;

	if (cpu < 0)
		return;
	if (cpu >= rp->nr_cpus) {
		rp->cpu_last = xreallocarray(rp->cpu_last, (size_t)cpu + 1, sizeof(*rp->cpu_last));
		memset(rp->cpu_last + rp->nr_cpus, 0,
		       (size_t)(cpu + 1 - rp->nr_cpus) * sizeof(*rp->cpu_last));
		rp->nr_cpus = cpu + 1;
	}
	if (rp->cpu_last[cpu] && s->time > rp->cpu_last[cpu])
		delta = s->time - rp->cpu_last[cpu];
	rp->cpu_last[cpu] = s->time;
	prev = replay_task_findnew(rp, rec->pid, rec->comm, rec->comm_len);
	replay_task_findnew(rp, rec->next_pid, rec->next_comm, rec->next_comm_len);
	task_add_step(rp, prev, REPLAY_RUN)->ns = delta;
	task_add_step(rp, prev, REPLAY_SLEEP)->waitable = rec->state != 0;
}

static void load_wakeup(struct sched_replay *rp, struct session *session,
			const struct perf_sample *s, const struct sched_rec *rec)
{
	struct replay_task *waker, *wakee;
	struct replay_step *st, *sl;

	waker = replay_task_findnew(rp, (int)s->tid, thread_comm_of(session, (int)s->tid), -1);
	wakee = replay_task_findnew(rp, rec->pid, rec->comm, rec->comm_len);
	st = task_add_step(rp, waker, REPLAY_WAKEUP);
	sl = wakee->last_sleep;
	/* a sleep is ended once: a second wakeup of it is a multi-target one, and ends none */
	if (sl && sl->claimed) {
		rp->nr_wakeup--;
		rp->nr_multi_target++;
		return;
	}
	/* nor does a wakeup of a task that was runnable */
	if (sl && sl->waitable && wakee != waker) {
		sl->claimed = true;
		sem_init(&sl->sem, 0, 0);
		st->target = sl;
	}
}

static int load_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		       const struct perf_sample *s, struct evsel *evsel)
{
	struct replay_load *l = (struct replay_load *)tool;
	struct sched_rec rec;

	(void)ev;
	if (s->raw_data)
		l->rp->any_trace = true;
	switch (sched_decode(&l->dec, evsel, s, &rec)) {
	case SCHED_SWITCH:
		load_switch(l->rp, s, &rec);
		break;
	case SCHED_WAKEUP:
	case SCHED_WAKEUP_NEW:
		load_wakeup(l->rp, session, s, &rec);
		break;
	default:
		break;
	}
	return 0;
}

int sched_replay_load(struct sched_replay *rp, struct session *session)
{
	struct replay_load l = { .rp = rp };
	struct data_error err = { 0 };
	int ret;

	sched_decoder_init(&l.dec, session);
	l.tool.sample = load_sample;
	l.tool.other = load_other;
	l.tool.ordered = true;
	ret = session_process(session, &l.tool, &err);
	sched_decoder_release(&l.dec);
	return ret < 0 ? ret : 0;
}

/* ---- the replay --------------------------------------------------------- */

/* struct replay_gate - holds the task threads until all are made */
struct replay_gate {
	pthread_mutex_t lock;
	pthread_cond_t open;
	bool is_open;
};

struct replay_thread {
	pthread_t th;
	struct replay_task *task;
	struct replay_gate *gate;
	u64 *cpu_total;
};

static u64 thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* wait for a claimed sleep's post; a trace with lost records may never post it: give up after 1 s */
static void step_wait(struct replay_step *st)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	while (sem_timedwait(&st->sem, &ts) && errno == EINTR)
		;
}

static void *replay_thread_main(void *arg)
{
	struct replay_thread *rt = arg;
	struct replay_task *t = rt->task;
	u64 c0;

	pthread_mutex_lock(&rt->gate->lock);
	while (!rt->gate->is_open)
		pthread_cond_wait(&rt->gate->open, &rt->gate->lock);
	pthread_mutex_unlock(&rt->gate->lock);
	c0 = thread_cpu_ns();
	for (int i = 0; i < t->nr_steps; i++) {
		struct replay_step *st = t->steps[i];

		switch (st->kind) {
		case REPLAY_RUN:
			burn_ns(st->ns);
			break;
		case REPLAY_SLEEP:
			if (st->claimed)
				step_wait(st);
			break;
		case REPLAY_WAKEUP:
			if (st->target)
				sem_post(&st->target->sem);
			break;
		}
	}
	__atomic_fetch_add(rt->cpu_total, thread_cpu_ns() - c0, __ATOMIC_RELAXED);
	return NULL;
}

int sched_replay_run(struct sched_replay *rp, struct replay_result *res)
{
	struct replay_thread *th = xcalloc((size_t)rp->nr_tasks + 1, sizeof(*th));
	struct replay_gate gate = { .is_open = false };
	pthread_attr_t attr;
	u64 cpu_total = 0, t0;
	int made = 0, ret = 0;

	memset(res, 0, sizeof(*res));
	/* every claimed sleep starts unposted */
	for (int i = 0; i < rp->nr_tasks; i++)
		for (int j = 0; j < rp->tasks[i]->nr_steps; j++) {
			struct replay_step *st = rp->tasks[i]->steps[j];

			if (st->claimed) {
				sem_destroy(&st->sem);
				sem_init(&st->sem, 0, 0);
			}
		}
	pthread_mutex_init(&gate.lock, NULL);
	pthread_cond_init(&gate.open, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (; made < rp->nr_tasks; made++) {
		th[made].task = rp->tasks[made];
		th[made].gate = &gate;
		th[made].cpu_total = &cpu_total;
		if (pthread_create(&th[made].th, &attr, replay_thread_main, &th[made])) {
			ret = -EAGAIN;
			break;
		}
	}
	pthread_attr_destroy(&attr);
	pthread_mutex_lock(&gate.lock);
	gate.is_open = true;
	pthread_cond_broadcast(&gate.open);
	pthread_mutex_unlock(&gate.lock);
	t0 = monotonic_ns();
	for (int i = 0; i < made; i++)
		pthread_join(th[i].th, NULL);
	res->wall_ns = monotonic_ns() - t0;
	res->cpu_ns = cpu_total;
	pthread_cond_destroy(&gate.open);
	pthread_mutex_destroy(&gate.lock);
	free(th);
	return ret;
}
