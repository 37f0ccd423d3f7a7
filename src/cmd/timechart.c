/* SPDX-License-Identifier: MIT */
/* sonde timechart: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_timechart(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'timechart' is not implemented yet\n");
	return 1;
}
