/* SPDX-License-Identifier: MIT */
/* sonde probe: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_probe(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'probe' is not implemented yet\n");
	return 1;
}
