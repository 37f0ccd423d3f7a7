/* SPDX-License-Identifier: MIT */
/* sonde kmem: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_kmem(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'kmem' is not implemented yet\n");
	return 1;
}
