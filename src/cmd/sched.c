/* SPDX-License-Identifier: MIT */
/* sonde sched: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_sched(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'sched' is not implemented yet\n");
	return 1;
}
