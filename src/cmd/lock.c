/* SPDX-License-Identifier: MIT */
/* sonde lock: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_lock(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'lock' is not implemented yet\n");
	return 1;
}
