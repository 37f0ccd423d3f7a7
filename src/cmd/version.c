/* SPDX-License-Identifier: MIT */
/* sonde version: the version string and, with --build-options, the libraries and kernel features. */
#include "builtin.h"
#include "core/sys.h"
#include "lib/lazy-libs.h"
#include "lib/optspec.h"

#ifndef SONDE_VERSION
#define SONDE_VERSION "0.0.0"
#endif

#include <stdbool.h>
#include <stdio.h>

const char sonde_version_string[] = SONDE_VERSION;

/* perf's layout: "%22s: [ on  ]  # MACRO"; status is "on " or "OFF" */
static void status_line(const char *name, bool on, const char *macro)
{
	printf("%22s: [ %s ]  # %s\n", name, on ? "on " : "OFF", macro);
}

/*
 * What this binary and this machine offer. The linked libraries are
 * required (no build-time switches), so their lines are constants; the
 * libraries sonde loads on first use (libdebuginfod, libcapstone,
 * libstdc++'s demangler) are "on" only when they really load here. The
 * perf features sonde does not implement are listed OFF so scripts
 * grepping perf's list get an answer.
 */
static void print_build_options(void)
{
	struct kernel_caps caps;
	char paranoid[32];

	status_line("dwarf", true, "HAVE_DWARF_SUPPORT");
	/* perf probe's variable locations: sonde does not call dwarf_getlocations */
	status_line("dwarf_getlocations", false, "HAVE_DWARF_GETLOCATIONS_SUPPORT");
	status_line("glibc", true, "HAVE_GLIBC_SUPPORT");
	status_line("syscall_table", false, "HAVE_SYSCALL_TABLE_SUPPORT");
	status_line("libbfd", false, "HAVE_LIBBFD_SUPPORT");
	status_line("debuginfod", lazy_debuginfod_loadable(), "HAVE_DEBUGINFOD_SUPPORT");
	status_line("libelf", true, "HAVE_LIBELF_SUPPORT");
	status_line("libnuma", false, "HAVE_LIBNUMA_SUPPORT");
	status_line("numa_num_possible_cpus", false, "HAVE_LIBNUMA_SUPPORT");
	status_line("libperl", false, "HAVE_LIBPERL_SUPPORT");
	status_line("libpython", false, "HAVE_LIBPYTHON_SUPPORT");
	status_line("libslang", false, "HAVE_SLANG_SUPPORT");
	status_line("libcrypto", false, "HAVE_LIBCRYPTO_SUPPORT");
	status_line("libunwind", false, "HAVE_LIBUNWIND_SUPPORT");
	status_line("libdw-dwarf-unwind", true, "HAVE_DWARF_SUPPORT");
	status_line("zlib", false, "HAVE_ZLIB_SUPPORT");
	status_line("lzma", true, "HAVE_LZMA_SUPPORT");
	status_line("get_cpuid", false, "HAVE_AUXTRACE_SUPPORT");
	status_line("bpf", false, "HAVE_LIBBPF_SUPPORT");
	status_line("aio", false, "HAVE_AIO_SUPPORT");
	status_line("zstd", true, "HAVE_ZSTD_SUPPORT");
	status_line("libpfm4", false, "HAVE_LIBPFM");
	/* sonde's own libraries that perf 6.1 does not list */
	status_line("libtraceevent", true, "HAVE_LIBTRACEEVENT");
	status_line("libcapstone", lazy_capstone_loadable(), "HAVE_LIBCAPSTONE_SUPPORT");
	status_line("cxa_demangle", lazy_demangler_loadable(), "libstdc++: C++ demangling");
	status_line("ncursesw", true, "HAVE_NCURSESW_SUPPORT");

	/* what this machine's kernel offers, probed now */
	kernel_caps_probe(&caps);
	status_line("hw_counters", caps.has_hw_counters, "kernel: hardware PMU counters (cycles)");
	status_line("tracefs", caps.has_tracefs,
		    caps.tracefs ? "kernel: tracefs mounted" : "kernel: tracefs not mounted");
	status_line("kprobes", caps.has_kprobes, "kernel: kprobe_events");
	status_line("uprobes", caps.has_uprobes, "kernel: uprobe_events");
	status_line("breakpoints", caps.has_breakpoints, "kernel: breakpoint PMU");
	snprintf(paranoid, sizeof(paranoid), "%d", caps.paranoid);
	printf("%22s: [ %-3s ]  # %s\n", "perf_event_paranoid", paranoid,
	       "kernel: /proc/sys/kernel/perf_event_paranoid");
	if (caps.max_sample_rate > 0)
		printf("%22s: [ %d ]  # %s\n", "max_sample_rate", caps.max_sample_rate,
		       "kernel: /proc/sys/kernel/perf_event_max_sample_rate");
}

int cmd_version(int argc, const char **argv)
{
	bool build_options = false;
	const struct opt_spec options[] = {
		SPEC_FLAG("build-options", 0, &build_options, "display the build options"),
		SPEC_END()
	};
	const char *const usage[] = { "perf version [<options>]", NULL };

	opts_parse(argc, argv, options, usage, 0);
	printf("%s version %s\n", prog_name, sonde_version_string);
	if (build_options)
		print_build_options();
	return 0;
}
