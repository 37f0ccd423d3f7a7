/* SPDX-License-Identifier: MIT */
/*
 * Workload for report tests: a parent and two forked children, one of them
 * with two named threads, burning CPU in call trees that branch, so that
 * callchain graphs have several levels and percentages.
 * Usage: rptmix [ms]   (default 300 ms per process)
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static long run_ms = 300;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double hot(double x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 1.0000001 + 0.25;
	return x;
}

static double warm(double x)
{
	return hot(x, 300) + 1;
}

static double path_a(double x)
{
	return hot(x, 2000);
}

static double path_b(double x)
{
	return warm(x) + hot(x, 500);
}

static double path_c(double x)
{
	return path_a(x) + path_b(x);
}

static void spin(int kind)
{
	double end = now_ms() + run_ms;
	double x = 1;

	while (now_ms() < end) {
		switch (kind) {
		case 0:
			x += path_a(x) + path_c(x);
			break;
		case 1:
			x += path_b(x);
			break;
		default:
			x += path_c(x) + warm(x);
			break;
		}
		if (x > 1e6)
			x = 1;
	}
	sink = x;
}

static void *worker(void *arg)
{
	long kind = (long)arg;

	prctl(PR_SET_NAME, kind == 1 ? "rpt-worker1" : "rpt-worker-with-long-name", 0, 0, 0);
	spin((int)kind);
	return NULL;
}

int main(int argc, char **argv)
{
	pid_t kids[2];

	if (argc > 1)
		run_ms = atol(argv[1]);
	for (int k = 0; k < 2; k++) {
		kids[k] = fork();
		if (kids[k] == 0) {
			if (k == 0) {
				prctl(PR_SET_NAME, "rpt-child", 0, 0, 0);
				spin(1);
			} else {
				pthread_t t[2];

				for (long i = 0; i < 2; i++)
					pthread_create(&t[i], NULL, worker, (void *)(i + 1));
				for (int i = 0; i < 2; i++)
					pthread_join(t[i], NULL);
			}
			_exit(0);
		}
	}
	spin(0);
	for (int k = 0; k < 2; k++)
		waitpid(kids[k], NULL, 0);
	return 0;
}
