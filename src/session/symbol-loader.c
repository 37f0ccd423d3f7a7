/* SPDX-License-Identifier: MIT */
/* Lazy symbols for live sessions (top): dsos' symbol tables loaded on a background thread. */
#define PR_PREFIX "machine"
#include "session/machine.h"

#include "lib/debug.h"
#include "lib/xalloc.h"
#include "lib/lazy-libs.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * The rule that keeps this simple: the worker thread never looks at the
 * machine. What a load needs (the dso's name, build-id, kind, the symbol
 * options, which stay constant while the thread runs) is copied into a job
 * by the main thread; the worker fills the job's symsrc, with names in the
 * job's own string pool, and hands the job back. Only the main thread
 * installs the result into the dso (machine_collect_symbols), after
 * moving the names into the session's pool. The mutex guards the two
 * queues and the stop flag, nothing else.
 */
struct symbol_job {
	struct dso *dso;	    /* the main thread's: the worker never reads it */
	const char *name;	    /* the dso's long name (interned, immutable) */
	u8 build_id[BUILD_ID_SIZE];
	u8 build_id_size;
	bool is_kernel;
	struct strpool pool;	    /* the worker's names */
	struct symsrc *ss;	    /* made by the worker */
	int status;
	struct symbol_job *next;
};

struct symbol_loader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_cond_t loaded;		      /* a job went to done */
	struct symbol_job *todo, **todo_tail; /* FIFO: first hit, first loaded */
	struct symbol_job *done;	      /* loaded, waiting for the main thread */
	bool stop;
	const struct symbol_opts *opts;
	u32 nr_pending;			      /* main thread only: queued, not yet installed */
};

static void *loader_main(void *arg)
{
	struct symbol_loader *l = arg;

	pthread_mutex_lock(&l->lock);
	for (;;) {
		struct symbol_job *job;

		while (!l->todo && !l->stop)
			pthread_cond_wait(&l->wake, &l->lock);
		if (l->stop)
			break;
		job = l->todo;
		l->todo = job->next;
		if (!l->todo)
			l->todo_tail = &l->todo;
		pthread_mutex_unlock(&l->lock);

		job->ss = symsrc_new(&job->pool);
		job->status = dso_symsrc_load(job->ss, job->name, job->build_id,
					      job->build_id_size, job->is_kernel, l->opts);

		pthread_mutex_lock(&l->lock);
		job->next = l->done;
		l->done = job;
		pthread_cond_broadcast(&l->loaded);
	}
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

int machine_start_lazy_symbols(struct machine *machine)
{
	struct symbol_loader *l;
	int err;

	if (machine->lazy || machine->loader || machine->opts.no_symbols)
		return 0;
	l = xzalloc(sizeof(*l));
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->wake, NULL);
	pthread_cond_init(&l->loaded, NULL);
	l->todo_tail = &l->todo;
	l->opts = machine->opts.symbol_opts;
	/* the demangler's one-time dlopen happens here, not in both threads at once */
	lazy_demangler_loadable();
	err = pthread_create(&l->thread, NULL, loader_main, l);
	if (err) {
		pthread_cond_destroy(&l->loaded);
		pthread_cond_destroy(&l->wake);
		pthread_mutex_destroy(&l->lock);
		free(l);
		return -err;
	}
	machine->lazy = l;
	return 0;
}

static void job_free(struct symbol_job *job)
{
	symsrc_free(job->ss);
	strpool_release(&job->pool);
	free(job);
}

void machine_stop_lazy_symbols(struct machine *machine)
{
	struct symbol_loader *l = machine->lazy;

	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->stop = true;
	pthread_cond_signal(&l->wake);
	pthread_mutex_unlock(&l->lock);
	/* a load under way finishes first (a big table can take a moment) */
	pthread_join(l->thread, NULL);
	for (struct symbol_job *j = l->todo, *n; j; j = n) {
		n = j->next;
		j->dso->is_queued = false;
		job_free(j);
	}
	for (struct symbol_job *j = l->done, *n; j; j = n) {
		n = j->next;
		j->dso->is_queued = false;
		job_free(j);
	}
	pthread_cond_destroy(&l->loaded);
	pthread_cond_destroy(&l->wake);
	pthread_mutex_destroy(&l->lock);
	free(l);
	machine->lazy = NULL;
}

int machine_queue_symbols(struct machine *machine, struct dso *dso)
{
	struct symbol_loader *l = machine->lazy;
	struct symbol_job *job;

	if (dso->is_queued)
		return -EAGAIN;
	job = xzalloc(sizeof(*job));
	job->dso = dso;
	job->name = dso->long_name;
	memcpy(job->build_id, dso->build_id, sizeof(job->build_id));
	job->build_id_size = dso->build_id_size;
	job->is_kernel = dso->is_kernel;
	strpool_init(&job->pool);
	dso->is_queued = true;
	l->nr_pending++;
	pthread_mutex_lock(&l->lock);
	*l->todo_tail = job;
	l->todo_tail = &job->next;
	pthread_cond_signal(&l->wake);
	pthread_mutex_unlock(&l->lock);
	return -EAGAIN;
}

/* install - @job's table becomes its dso's, the names moved into the session's pool */
static void install(struct machine *machine, struct symbol_job *job)
{
	struct symsrc *ss = job->ss;
	struct dso *dso = job->dso;

	for (size_t i = 0; i < ss->symtab.nr_syms; i++)
		ss->symtab.syms[i].name = strpool_intern(machine->names, ss->symtab.syms[i].name);
	ss->symtab.pool = machine->names;
	dso->ss = ss;
	dso->load_status = job->status;
	dso->is_loaded = true;
	dso->is_queued = false;
	pr_debug2("loaded %s: %d (in the background)\n", dso->long_name, dso->load_status);
	job->ss = NULL;
	job_free(job);
}

/*
 * order_todo - the waiting jobs by the samples their dsos met so far, most
 * first (the main thread's counts; called with the lock held)
 */
static void order_todo(struct symbol_loader *l)
{
	struct symbol_job *sorted = NULL, **tail;

	if (!l->todo || !l->todo->next)
		return;
	while (l->todo) {
		struct symbol_job *job = l->todo, **pos = &sorted;

		l->todo = job->next;
		while (*pos && (*pos)->dso->nr_pending_hits >= job->dso->nr_pending_hits)
			pos = &(*pos)->next;
		job->next = *pos;
		*pos = job;
	}
	l->todo = sorted;
	for (tail = &l->todo; *tail; tail = &(*tail)->next)
		;
	l->todo_tail = tail;
}

u32 machine_collect_symbols(struct machine *machine)
{
	struct symbol_loader *l = machine->lazy;
	struct symbol_job *done;
	u32 nr = 0;

	if (!l || !l->nr_pending)
		return 0;
	pthread_mutex_lock(&l->lock);
	done = l->done;
	l->done = NULL;
	/* the hottest dsos next: what the view shows most gets its names first */
	order_todo(l);
	pthread_mutex_unlock(&l->lock);
	for (struct symbol_job *n; done; done = n) {
		n = done->next;
		install(machine, done);
		nr++;
	}
	l->nr_pending -= nr;
	return nr;
}

u32 machine_nr_pending_symbols(const struct machine *machine)
{
	return machine->lazy ? machine->lazy->nr_pending : 0;
}

int machine_wait_symbols(struct machine *machine, struct dso *dso, int timeout_ms)
{
	struct symbol_loader *l = machine->lazy;
	struct timespec until;

	if (!l || dso->is_loaded)
		return 0;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	for (;;) {
		int err = 0;

		machine_collect_symbols(machine);
		if (dso->is_loaded)
			return 0;
		pthread_mutex_lock(&l->lock);
		if (!l->done)
			err = pthread_cond_timedwait(&l->loaded, &l->lock, &until);
		pthread_mutex_unlock(&l->lock);
		if (err == ETIMEDOUT) {
			machine_collect_symbols(machine);
			return dso->is_loaded ? 0 : -ETIMEDOUT;
		}
	}
}
