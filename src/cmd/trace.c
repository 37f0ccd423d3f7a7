/* SPDX-License-Identifier: MIT */
/* sonde trace: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_trace(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'trace' is not implemented yet\n");
	return 1;
}
