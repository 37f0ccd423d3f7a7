/* SPDX-License-Identifier: MIT */
/* sonde annotate: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_annotate(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'annotate' is not implemented yet\n");
	return 1;
}
