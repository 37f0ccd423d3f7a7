/* SPDX-License-Identifier: MIT */
/* sonde bench mem find_bit: walking the set bits of bitmaps (word scans vs testing each bit), in perf's layout. */
#include "cmd/bench.h"
#include "builtin.h"
#include "lib/optspec.h"
#include "lib/util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define MAX_BITS 2048
#define WORD_BITS (sizeof(unsigned long) * CHAR_BIT)

static unsigned long bitmap[MAX_BITS / WORD_BITS];
static volatile unsigned long found; /* counted through memory: the loops cannot vanish */

/* the next set bit at or after @from, or @nbits */
static unsigned int next_set_bit(unsigned int nbits, unsigned int from)
{
	while (from < nbits) {
		unsigned long w = bitmap[from / WORD_BITS] >> (from % WORD_BITS);

		if (w) {
			from += (unsigned int)__builtin_ctzl(w);
			return from < nbits ? from : nbits;
		}
		from = (from / WORD_BITS + 1) * WORD_BITS;
	}
	return nbits;
}

static bool bit_is_set(unsigned int bit)
{
	return bitmap[bit / WORD_BITS] >> (bit % WORD_BITS) & 1;
}

static const char *const find_bit_usage[] = { "perf bench mem find_bit <options>", NULL };

int bench_mem_find_bit(int argc, const char **argv)
{
	unsigned int outer = 5, inner = 100000;
	const struct opt_spec options[] = {
		SPEC_UINT("outer-iterations", 'i', &outer, "Number of outer iterations used"),
		SPEC_UINT("inner-iterations", 'j', &inner, "Number of inner iterations used"),
		SPEC_END(),
	};

	if (opts_parse(argc, argv, options, find_bit_usage, 0) > 1)
		opts_usage_exit(find_bit_usage, options);
	for (unsigned int nbits = 1; nbits <= MAX_BITS; nbits *= 2) {
		/* as perf, the averages run on over the set-bit counts of one bitmap size */
		struct bench_stats scan = { 0 }, test = { 0 };

		for (unsigned int nset = 1; nset <= nbits; nset *= 2) {
			unsigned int step = nbits / nset;

			memset(bitmap, 0, sizeof(bitmap));
			for (unsigned int b = 0; b < nbits; b += step)
				bitmap[b / WORD_BITS] |= 1UL << (b % WORD_BITS);
			printf("%u operations %u bits set of %u bits\n", inner, nset, nbits);
			for (unsigned int o = 0; o < outer; o++) {
				struct timeval t0;

				gettimeofday(&t0, NULL);
				for (unsigned int j = 0; j < inner; j++)
					for (unsigned int b = next_set_bit(nbits, 0); b < nbits;
					     b = next_set_bit(nbits, b + 1))
						found++;
				bench_stats_add(&scan, bench_usec_since(&t0));
				gettimeofday(&t0, NULL);
				for (unsigned int j = 0; j < inner; j++)
					for (unsigned int b = 0; b < nbits; b++)
						if (bit_is_set(b))
							found++;
				bench_stats_add(&test, bench_usec_since(&t0));
			}
			printf("  Average for_each_set_bit took: %.3f usec (+- %.3f usec)\n", scan.mean,
			       bench_stats_err(&scan));
			printf("  Average test_bit loop took:    %.3f usec (+- %.3f usec)\n", test.mean,
			       bench_stats_err(&test));
		}
	}
	return 0;
}
