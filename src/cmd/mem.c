/* SPDX-License-Identifier: MIT */
/* sonde mem: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_mem(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'mem' is not implemented yet\n");
	return 1;
}
