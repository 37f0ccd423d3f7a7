/* SPDX-License-Identifier: MIT */
/* sonde buildid-cache: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_buildid_cache(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'buildid-cache' is not implemented yet\n");
	return 1;
}
