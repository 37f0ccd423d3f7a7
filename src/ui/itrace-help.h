/* SPDX-License-Identifier: MIT */
/* The help text of --itrace, shared by the commands that accept the option. */
#ifndef SONDE_UI_ITRACE_HELP_H
#define SONDE_UI_ITRACE_HELP_H

/* itrace_help - perf 6.1's --itrace help, byte for byte (the -h output is interface). */
extern const char itrace_help[];

#endif
