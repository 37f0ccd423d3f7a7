/* SPDX-License-Identifier: MIT */
/* sonde top: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_top(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'top' is not implemented yet\n");
	return 1;
}
