/* SPDX-License-Identifier: MIT */
/* Workload: burn CPU in a few nested functions for N milliseconds (default 300). */
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static double leaf(double x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 1.0000001 + 0.5;
	return x;
}

static double middle(double x)
{
	return leaf(x) + leaf(x + 1);
}

static double outer(double x)
{
	return middle(x) * 0.5;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 300;
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (int i = 0; i < 100; i++)
			sink = outer(sink);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
	return 0;
}
