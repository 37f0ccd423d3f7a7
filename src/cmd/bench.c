/* SPDX-License-Identifier: MIT */
/* sonde bench: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_bench(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'bench' is not implemented yet\n");
	return 1;
}
