/* SPDX-License-Identifier: MIT */
/* Test workload for sched analyses: forks children that spin, sleep and ping-pong over pipes. */
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void spin_us(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

/* usage: schedfork [LOOPS [CHILDREN]] */
int main(int argc, char **argv)
{
	int loops = argc > 1 ? atoi(argv[1]) : 20;
	int nr = argc > 2 ? atoi(argv[2]) : 3;
	int ping[2], pong[2];
	char c = 0;

	if (pipe(ping) || pipe(pong))
		return 1;
	/* a ping-pong pair: each wakes the other */
	if (fork() == 0) {
		for (int i = 0; i < loops; i++) {
			if (read(ping[0], &c, 1) != 1)
				_exit(1);
			spin_us(100);
			if (write(pong[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	/* sleepers: spin a little, sleep a little */
	for (int k = 0; k < nr; k++) {
		if (fork() == 0) {
			for (int i = 0; i < loops; i++) {
				spin_us(200 + 100 * k);
				usleep(500 + 300 * k);
			}
			_exit(0);
		}
	}
	for (int i = 0; i < loops; i++) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
		spin_us(50);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
