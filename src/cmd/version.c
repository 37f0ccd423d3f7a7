/* sonde version: the version string and, with --build-options, a capability report. */
#include "builtin.h"
#include "lib/parse-options.h"

#ifndef SONDE_VERSION
#define SONDE_VERSION "0.0.0"
#endif

#include <stdbool.h>
#include <stdio.h>

const char sonde_version_string[] = SONDE_VERSION;

int cmd_version(int argc, const char **argv)
{
	bool build_options = false;
	const struct option options[] = {
		OPT_BOOLEAN(0, "build-options", &build_options, "display the build options"),
		OPT_END()
	};
	const char *const usage[] = { "perf version [<options>]", NULL };

	parse_options(argc, argv, options, usage, 0);
	printf("%s version %s\n", prog_name, sonde_version_string);
	return 0;
}
