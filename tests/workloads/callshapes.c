/* SPDX-License-Identifier: MIT */
/*
 * Workload for the report TUI's callchain folding: call trees of every
 * shape the browser draws differently. A function burning time and calling
 * a lone chain that forks (aself -> bmid -> cmid -> dleaf | eleaf), one
 * calling a lone function that forks (pself -> q -> rleaf | sleaf), and a
 * fork whose one branch is a chain (tfork -> umid -> vleaf | wleaf), under a
 * main with samples of its own.
 * Usage: callshapes [ms]   (default 500)
 */
#include <stdlib.h>
#include <time.h>

static volatile double sink;

/* after a call: the call stays a call (no tail call), its caller stays in the chain */
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")

/* burning in the function itself: a sample's own frame is the function's */
#define BURN(n)                                    \
	do {                                       \
		double x_ = sink;                  \
		for (int i_ = 0; i_ < (n); i_++)   \
			x_ = x_ * 1.0000001 + 0.5; \
		sink = x_;                         \
	} while (0)

/* a call makes the compiler give a function a frame: its callers stay in the chain */
static void __attribute__((noinline)) framed(void)
{
	KEEP_FRAME();
}

#define LEAF(name, n)              \
	static void name(void)     \
	{                          \
		framed();          \
		BURN(n);           \
	}

LEAF(dleaf, 100000)
LEAF(eleaf, 60000)
LEAF(rleaf, 50000)
LEAF(sleaf, 40000)
LEAF(vleaf, 30000)
LEAF(wleaf, 25000)

static void cmid(void)
{
	dleaf();
	eleaf();
	KEEP_FRAME();
}

static void bmid(void)
{
	cmid();
	KEEP_FRAME();
}

static void aself(void)
{
	BURN(100000);
	bmid();
	KEEP_FRAME();
}

static void q(void)
{
	rleaf();
	sleaf();
	KEEP_FRAME();
}

static void pself(void)
{
	BURN(60000);
	q();
	KEEP_FRAME();
}

static void umid(void)
{
	vleaf();
	KEEP_FRAME();
}

static void tfork(void)
{
	umid();
	wleaf();
	KEEP_FRAME();
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 500;
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		aself();
		pself();
		tfork();
		/* samples of main's own: the top's lone node has some ending in it */
		BURN(20000);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
	return 0;
}
