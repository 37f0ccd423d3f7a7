/* sonde buildid-list: not implemented yet (placeholder until its issue lands). */
#include "builtin.h"

#include <stdio.h>

int cmd_buildid_list(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "sonde: 'buildid-list' is not implemented yet\n");
	return 1;
}
