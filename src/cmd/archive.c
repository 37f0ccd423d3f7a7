/* SPDX-License-Identifier: MIT */
/* sonde archive: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_archive(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'archive' is not implemented yet\n");
	return 1;
}
