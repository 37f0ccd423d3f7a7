/* SPDX-License-Identifier: MIT */
/* sonde diff: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_diff(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'diff' is not implemented yet\n");
	return 1;
}
