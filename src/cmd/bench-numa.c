/* SPDX-License-Identifier: MIT */
/* sonde bench numa mem: one memory-bandwidth test (processes x threads over global/process/thread buffers) in perf's layout. */
#include "cmd/bench.h"
#include "builtin.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the test as the options describe it */
struct numa_test {
	int nr_proc, nr_threads, nr_loops, thp, usleep_us;
	double secs, mb_global, mb_proc, mb_thread;
	bool quiet, zero_memset, init_zero, measure_convergence;
	int nr_nodes;
	const char *secs_str, *mb_global_str, *mb_proc_str, *mb_thread_str;
	const char *cpus_str, *nodes_str;
};

/* per thread, in memory shared by all the processes */
struct numa_result {
	double runtime; /* seconds from the common start to this thread's last loop */
	u64 bytes;
	int node;	/* the NUMA node it last ran on (-m) */
};

/* what every process and thread sees */
struct numa_shared {
	int ready;	/* threads at the start line */
	int go;		/* set once all are there */
	int converged;	/* -m: every process ran on a single node at a check */
	double converged_at; /* ... seconds after the start */
	struct timeval start;
	struct numa_result res[];
};

static long mb_bytes(double mb)
{
	return (long)(mb * 1024 * 1024);
}

static void *map_shared(size_t len)
{
	void *p;

	if (!len)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

/* one pass over @len bytes: read, change and write back every word (or bzero with -Z) */
static void touch_buffer(u64 *buf, long len, bool zero)
{
	long n = len / (long)sizeof(u64);
	u64 acc = 0;

	if (!buf || !len)
		return;
	if (zero) {
		memset(buf, 0, (size_t)len);
		return;
	}
	for (long i = 0; i < n; i++)
		buf[i] += ++acc;
}

struct numa_thread {
	pthread_t th;
	const struct numa_test *t;
	struct numa_shared *sh;
	u64 *global, *proc;
	int idx;
};

static double secs_since(const struct timeval *t0)
{
	return bench_usec_since(t0) / 1e6;
}

/*
 * numa_check_converged - -m: note the node @nt runs on; the first thread
 * then sees whether each process has all its threads on one node, and if so
 * the run has converged: every thread stops after its loop
 */
static bool numa_check_converged(struct numa_thread *nt)
{
	const struct numa_test *t = nt->t;
	struct numa_shared *sh = nt->sh;
	unsigned int cpu, node;

	if (__atomic_load_n(&sh->converged, __ATOMIC_ACQUIRE))
		return true;
	sh->res[nt->idx].node = getcpu(&cpu, &node) ? 0 : (int)node;
	if (nt->idx)
		return false;
	for (int p = 0; p < t->nr_proc; p++)
		for (int i = 1; i < t->nr_threads; i++)
			if (__atomic_load_n(&sh->res[p * t->nr_threads + i].node, __ATOMIC_RELAXED) !=
			    __atomic_load_n(&sh->res[p * t->nr_threads].node, __ATOMIC_RELAXED))
				return false;
	sh->converged_at = secs_since(&sh->start);
	__atomic_store_n(&sh->converged, 1, __ATOMIC_RELEASE);
	return true;
}

static void *numa_thread_run(void *arg)
{
	struct numa_thread *nt = arg;
	const struct numa_test *t = nt->t;
	long g = mb_bytes(t->mb_global), p = mb_bytes(t->mb_proc), l = mb_bytes(t->mb_thread);
	u64 *mine = l ? xmalloc((size_t)l) : NULL;
	struct numa_result *r = &nt->sh->res[nt->idx];
	int shown = 0;

	if (mine && t->init_zero)
		memset(mine, 0, (size_t)l);
	__atomic_fetch_add(&nt->sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&nt->sh->go, __ATOMIC_ACQUIRE))
		usleep(100);
	for (int loop = 0; t->nr_loops < 0 || loop < t->nr_loops; loop++) {
		touch_buffer(nt->global, g, t->zero_memset);
		touch_buffer(nt->proc, p, t->zero_memset);
		touch_buffer(mine, l, t->zero_memset);
		r->bytes += (u64)(g + p + l);
		r->runtime = secs_since(&nt->sh->start);
		/* the first thread says how far the run is at each whole second, as perf */
		if (!nt->idx && !t->quiet && (int)r->runtime > shown) {
			shown = (int)r->runtime;
			printf("\r #  %5.1f%%  [%.1f mins]", 0.0, r->runtime / 60);
			fflush(stdout);
		}
		if (t->usleep_us)
			usleep((useconds_t)t->usleep_us);
		if (t->measure_convergence && numa_check_converged(nt))
			break;
		if (r->runtime >= t->secs)
			break;
	}
	free(mine);
	return NULL;
}

/* one process: its buffer and its threads */
static void numa_process_run(const struct numa_test *t, struct numa_shared *sh, u64 *global, int proc)
{
	long p = mb_bytes(t->mb_proc);
	u64 *pbuf = p ? xmalloc((size_t)p) : NULL;
	struct numa_thread *th = xcalloc((size_t)t->nr_threads, sizeof(*th));

	if (pbuf && t->init_zero)
		memset(pbuf, 0, (size_t)p);
	for (int i = 0; i < t->nr_threads; i++) {
		th[i] = (struct numa_thread){ .t = t, .sh = sh, .global = global, .proc = pbuf,
					      .idx = proc * t->nr_threads + i };
		if (pthread_create(&th[i].th, NULL, numa_thread_run, &th[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	for (int i = 0; i < t->nr_threads; i++)
		pthread_join(th[i].th, NULL);
	free(th);
	free(pbuf);
}

static int nr_numa_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9')
			n++;
	if (d)
		closedir(d);
	return n ? n : 1;
}

/* perf's nine result rows, in its machine-readable (default) or -q human form */
static void numa_report(const struct numa_test *t, const struct numa_shared *sh)
{
	int n = t->nr_proc * t->nr_threads;
	double max = 0, min = INFINITY, sum = 0, bytes = 0;
	static const char *const units[] = { "secs", "secs", "secs", "%", "GB", "GB", "nsecs", "GB/sec", "GB/sec" };
	static const char *const names[] = { "runtime-max/thread", "runtime-min/thread", "runtime-avg/thread",
					     "spread-runtime/thread", "data/thread", "data-total",
					     "runtime/byte/thread", "thread-speed", "total-speed" };
	static const char *const human[] = { "secs slowest (max) thread-runtime", "secs fastest (min) thread-runtime",
					     "secs average thread-runtime", "% difference between max/avg runtime",
					     "GB data processed, per thread", "GB data processed, total",
					     "nsecs/byte/thread runtime", "GB/sec/thread speed", "GB/sec total speed" };
	double v[9];

	for (int i = 0; i < n; i++) {
		double rt = sh->res[i].runtime;

		if (rt > max)
			max = rt;
		if (rt < min)
			min = rt;
		sum += rt;
		bytes += (double)sh->res[i].bytes;
	}
	/* perf's fastest thread is counted in whole seconds */
	min = floor(min);
	v[0] = max;
	v[1] = min;
	v[2] = sum / n;
	v[3] = max ? (max - min) / max * 50 : 0;
	v[4] = bytes / n / 1e9;
	v[5] = bytes / 1e9;
	v[6] = v[4] ? v[2] / v[4] : 0;
	v[7] = max ? v[4] / max : 0;
	v[8] = max ? v[5] / max : 0;
	/* converged when its last thread stopped: perf's latency is the slowest runtime */
	if (t->measure_convergence) {
		if (t->quiet)
			printf("%15.3f %s\n", max, "secs latency to NUMA-converge");
		else
			printf(" main,%41.3f, %-15s %s\n", max, "secs,", "NUMA-convergence-latency");
	}
	for (int i = 0; i < 9; i++) {
		if (t->quiet)
			printf("%15.3f %s\n", v[i], human[i]);
		else
		{
			char unit[16];

			snprintf(unit, sizeof(unit), "%s,", units[i]);
			printf(" main,%41.3f, %-15s %s\n", v[i], unit, names[i]);
		}
	}
}

static const char *const numa_usage[] = { "perf bench numa <options>", NULL };
static const char *const numa_mem_usage[] = { "perf bench numa mem [<options>]", NULL };

/*
 * perf's suite (no options, or -a): each test's name and options as perf
 * prints them; a test that names CPUs or nodes the machine lacks is skipped
 */
static const struct numa_suite_test {
	const char *name, *args;
} numa_suite[] = {
#include "cmd/bench-numa-suite.h"
};

/* numa_list_max - the highest cpu/node a -C/-M list names ("0,2", "1x2": node 1 twice) */
static int numa_list_max(const char *list)
{
	int max = -1;

	for (const char *p = list; p && *p;) {
		char *end;
		long v = strtol(p, &end, 0);

		if (end == p)
			break;
		if (v > max)
			max = (int)v;
		p = end;
		if (*p == 'x')
			strtol(p + 1, (char **)&p, 0);
		if (*p == ',')
			p++;
	}
	return max;
}

static int numa_run(int argc, const char **argv, bool in_suite, bool *all_out);
static bool numa_quick; /* the suite's tests cut short (SONDE_BENCH_NUMA_QUICK) */

/* the suite, in perf's layout; SONDE_BENCH_NUMA_QUICK (tests) runs each for 0.1 s on 1/64 of the memory */
static int numa_run_suite(void)
{
	const char *quick = getenv("SONDE_BENCH_NUMA_QUICK");
	struct utsname u;

	numa_quick = quick && *quick;
	if (!uname(&u))
		printf(" #\n # Running test on: %s %s %s %s %s GNU/Linux\n #\n\n", u.sysname, u.nodename,
		       u.release, u.version, u.machine);
	for (size_t i = 0; i < ARRAY_SIZE(numa_suite); i++) {
		char *copy = xstrdup(numa_suite[i].args), *save = NULL;
		const char *argv[40] = { "mem" };
		int argc = 1;

		printf(" # Running %s, \"perf bench numa mem %s\"\n", numa_suite[i].name, numa_suite[i].args);
		fflush(stdout);
		for (char *w = strtok_r(copy, " ", &save); w && argc < 36; w = strtok_r(NULL, " ", &save))
			argv[argc++] = w;
		argv[argc] = NULL;
		numa_run(argc, argv, true, NULL);
		printf("\n");
		fflush(stdout);
		free(copy);
	}
	return 0;
}

int bench_numa_mem(int argc, const char **argv)
{
	bool all = false;
	int ret;

	printf("\n # Running main, \"perf bench numa numa-mem");
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\"\n");
	fflush(stdout);
	ret = numa_run(argc, argv, false, &all);
	(void)all;
	if (ret == -1)
		return numa_run_suite();
	return ret;
}

/*
 * numa_run - one test from its options (argv[0] is the command); -1 when
 * they ask for the suite (no options, -a). In the suite a test the machine
 * can't run is skipped with perf's line; alone it is a usage error.
 */
static int numa_run(int argc, const char **argv, bool in_suite, bool *all_out)
{
	struct numa_test t = { .nr_proc = 1, .nr_threads = 1, .nr_loops = -1, .secs = 5, .mb_global = 1 };
	bool all = false, flag = false, quick = in_suite && numa_quick;
	const char *text = NULL;
	const struct opt_spec options[] = {
		SPEC_INT("nr_proc", 'p', &t.nr_proc, "number of processes"),
		SPEC_INT("nr_threads", 't', &t.nr_threads, "number of threads per process"),
		SPEC_TEXT("mb_global", 'G', &t.mb_global_str, "MB", "global  memory (MBs)"),
		SPEC_TEXT("mb_proc", 'P', &t.mb_proc_str, "MB", "process memory (MBs)"),
		SPEC_TEXT("mb_proc_locked", 'L', &text, "MB",
			  "process serialized/locked memory access (MBs), <= process_memory"),
		SPEC_TEXT("mb_thread", 'T', &t.mb_thread_str, "MB", "thread  memory (MBs)"),
		SPEC_TEXT("nr_secs", 's', &t.secs_str, "n", "max number of seconds to run (default: 5 secs)"),
		SPEC_INT("nr_loops", 'l', &t.nr_loops, "max number of loops to run (default: unlimited)"),
		SPEC_INT("usleep", 'u', &t.usleep_us, "usecs to sleep per loop iteration"),
		SPEC_FLAG("data_reads", 'R', &flag, "access the data via reads (can be mixed with -W)"),
		SPEC_FLAG("data_writes", 'W', &flag, "access the data via writes (can be mixed with -R)"),
		SPEC_FLAG("data_backwards", 'B', &flag, "access the data backwards as well"),
		SPEC_FLAG("data_zero_memset", 'Z', &t.zero_memset, "access the data via glibc bzero only"),
		SPEC_FLAG("data_rand_walk", 'r', &flag, "access the data with random (32bit LFSR) walk"),
		SPEC_FLAG("init_zero", 'z', &t.init_zero, "bzero the initial allocations"),
		SPEC_FLAG("init_random", 'I', &flag, "randomize the contents of the initial allocations"),
		SPEC_FLAG("init_cpu0", '0', &flag, "do the initial allocations on CPU#0"),
		SPEC_TEXT("perturb_secs", 'x', &text, "n",
			  "perturb thread 0/0 every X secs, to test convergence stability"),
		SPEC_FLAG("show_details", 'd', &flag, "Show details"),
		SPEC_FLAG("all", 'a', &all, "Run all tests in the suite"),
		SPEC_INT("thp", 'H', &t.thp, "MADV_NOHUGEPAGE < 0 < MADV_HUGEPAGE"),
		SPEC_FLAG("show_convergence", 'c', &flag,
			  "show convergence details, convergence is reached when each process (all its threads) is running on a single NUMA node."),
		SPEC_FLAG("measure_convergence", 'm', &t.measure_convergence, "measure convergence latency"),
		SPEC_FLAG("quiet", 'q', &t.quiet, "quiet mode (do not show any warnings or messages)"),
		SPEC_FLAG("serialize-startup", 'S', &flag, "serialize thread startup"),
		SPEC_TEXT("cpus", 'C', &t.cpus_str, "cpu[,cpu2,...cpuN]",
			  "bind the first N tasks to these specific cpus (the rest is unbound)"),
		SPEC_TEXT("memnodes", 'M', &t.nodes_str, "node[,node2,...nodeN]",
			  "bind the first N tasks to these specific memory nodes (the rest is unbound)"),
		SPEC_END(),
	};
	struct numa_shared *sh;
	struct timeval t0;
	u64 *global;
	pid_t *pids;
	int n, nodes, cpus;
	size_t sh_len;

	if (opts_parse(argc, argv, options, numa_usage, 0) > 1)
		opts_usage_exit(numa_usage, options);
	if (!in_suite && (argc < 2 || all))
		return -1;
	nodes = nr_numa_nodes();
	cpus = bench_nr_cpus();
	if (numa_list_max(t.cpus_str) >= cpus || numa_list_max(t.nodes_str) >= nodes) {
		/* perf checks the cpus first */
		if (numa_list_max(t.cpus_str) >= cpus)
			printf("\nTest not applicable, system has only %d CPUs.\n", cpus);
		else
			printf("\nTest not applicable, system has only %d nodes.\n", nodes);
		if (in_suite)
			return 0;
		fflush(stdout);
		/* this usage names the command as the help of `-h` does not */
		opts_usage_exit(numa_mem_usage, options);
	}
	if (t.secs_str)
		t.secs = strtod(t.secs_str, NULL);
	if (t.mb_global_str)
		t.mb_global = strtod(t.mb_global_str, NULL);
	if (t.mb_proc_str)
		t.mb_proc = strtod(t.mb_proc_str, NULL);
	if (t.mb_thread_str)
		t.mb_thread = strtod(t.mb_thread_str, NULL);
	if (t.nr_proc < 1)
		t.nr_proc = 1;
	if (t.nr_threads < 1)
		t.nr_threads = 1;
	if (quick) {
		t.secs = t.secs < 0.1 ? t.secs : 0.1;
		t.mb_global /= 64;
		t.mb_proc /= 64;
		t.mb_thread /= 64;
	}
	n = t.nr_proc * t.nr_threads;
	if (!t.quiet) {
		printf("#\n#\n");
		printf("\n ###\n # %d task%s will execute (on %d nodes, %d CPUs):\n", n, n == 1 ? "" : "s", nodes,
		       cpus);
		printf(" #%11dx%6ldMB global  shared mem operations\n", t.nr_loops, (long)t.mb_global);
		printf(" #%11dx%6ldMB process shared mem operations\n", t.nr_loops, (long)t.mb_proc);
		printf(" #%11dx%6ldMB thread  local  mem operations\n", t.nr_loops, (long)t.mb_thread);
		printf(" ###\n\n ###\n #\n");
		fflush(stdout);
	}
	sh_len = sizeof(*sh) + (size_t)n * sizeof(struct numa_result);
	sh = map_shared(sh_len);
	global = map_shared((size_t)mb_bytes(t.mb_global));
	if (global && t.init_zero)
		memset(global, 0, (size_t)mb_bytes(t.mb_global));
	pids = xcalloc((size_t)t.nr_proc, sizeof(*pids));
	gettimeofday(&t0, NULL);
	for (int p = 0; p < t.nr_proc; p++) {
		pids[p] = fork();
		if (pids[p] < 0) {
			perror("fork");
			return 1;
		}
		if (!pids[p]) {
			numa_process_run(&t, sh, global, p);
			_exit(0);
		}
	}
	while (__atomic_load_n(&sh->ready, __ATOMIC_SEQ_CST) < n)
		usleep(100);
	if (!t.quiet)
		printf(" # Startup synchronization: ... threads initialized in %.6f seconds.\n #\n",
		       secs_since(&t0));
	fflush(stdout);
	gettimeofday(&sh->start, NULL);
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
	for (int p = 0; p < t.nr_proc; p++)
		waitpid(pids[p], NULL, 0);
	if (!t.quiet)
		printf("\n ###\n\n");
	numa_report(&t, sh);
	munmap(sh, sh_len);
	if (global)
		munmap(global, (size_t)mb_bytes(t.mb_global));
	free(pids);
	return 0;
}
