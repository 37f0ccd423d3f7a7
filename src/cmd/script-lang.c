/* SPDX-License-Identifier: MIT */
/* perf script's scripting options: -s, -g, -l and the built-in scripts (record/report NAME). */
#include "cmd/script-lang.h"

#include "builtin.h"
#include "cmd/flamegraph.h"
#include "cmd/open.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/debug.h"
#include "lib/xalloc.h"
#include "ui/script-python.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a built-in script: scripts/python/<name>.py under the exec path */
struct builtin_script {
	const char *name;
	const char *args;	 /* shown by -l after the name */
	const char *desc;
	const char *const *record; /* what `script record NAME` adds to sonde record */
};

#define REC(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const struct builtin_script builtins[] = {
	{ "event_analyzing_sample", "", "analyze all perf samples", REC("record") },
	{ "export-to-sqlite", "[database name] [columns] [calls]",
	  "export perf data to a sqlite3 database", REC("record") },
	{ "failed-syscalls", "[comm]", "system-wide failed syscalls",
	  REC("record", "-e", "raw_syscalls:sys_exit") },
	{ "failed-syscalls-by-pid", "[comm]", "system-wide failed syscalls, by pid",
	  REC("record", "-e", "raw_syscalls:sys_exit") },
	{ "flamegraph", "", "create flame graphs", REC("record", "-g") },
	{ "futex-contention", "", "futext contention measurement",
	  REC("record", "-e", "syscalls:sys_enter_futex", "-e", "syscalls:sys_exit_futex") },
	{ "rw-by-file", "<comm>", "r/w activity for a program, by file",
	  REC("record", "-e", "syscalls:sys_enter_read", "-e", "syscalls:sys_enter_write") },
	{ "rw-by-pid", "", "system-wide r/w activity",
	  REC("record", "-e", "syscalls:sys_enter_read", "-e", "syscalls:sys_exit_read", "-e",
	      "syscalls:sys_enter_write", "-e", "syscalls:sys_exit_write") },
	{ "sctop", "[comm] [interval]", "syscall top", REC("record", "-e", "raw_syscalls:sys_enter") },
	{ "stackcollapse", "", "produce callgraphs in short form for scripting use",
	  REC("record") },
	{ "syscall-counts", "[comm]", "system-wide syscall counts",
	  REC("record", "-e", "raw_syscalls:sys_enter") },
	{ "syscall-counts-by-pid", "[comm]", "system-wide syscall counts, by pid",
	  REC("record", "-e", "raw_syscalls:sys_enter") },
	{ "wakeup-latency", "", "system-wide min/max/avg wakeup latency",
	  REC("record", "-e", "sched:sched_switch", "-e", "sched:sched_wakeup") },
};

static const char *script_arg;	 /* -s */
static const char *gen_lang;	 /* -g */

int script_lang_opt_script(const struct opt_spec *opt, const char *arg, int unset)
{
	script_arg = unset ? NULL : arg;
	return 0;
}

int script_lang_opt_gen(const struct opt_spec *opt, const char *arg, int unset)
{
	gen_lang = unset ? NULL : arg;
	return 0;
}

static bool is_file(const char *path)
{
	return access(path, R_OK) == 0;
}

/*
 * exec_path - the directory holding scripts/python (our Core.py, Util.py and
 * the built-in scripts): $SONDE_EXEC_PATH, <bindir>/../libexec/sonde once
 * installed, or the source tree above the build directory.
 */
static const char *exec_path(void)
{
	static char buf[PATH_MAX];
	static const char *const rel[] = { "/../libexec/sonde", "/.." };
	const char *env = getenv("SONDE_EXEC_PATH");
	char exe[PATH_MAX], probe[PATH_MAX + 128];
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	if (buf[0])
		return buf;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		snprintf(probe, sizeof(probe), "%s%s/scripts/python/Perf-Trace-Util/lib/Perf/Trace/Core.py",
			 exe, rel[i]);
		if (is_file(probe) && realpath(probe, buf)) {
			/* strip the known tail back to the exec path */
			char *tail = strstr(buf, "/scripts/python/Perf-Trace-Util/");

			if (tail)
				*tail = '\0';
			return buf;
		}
	}
	buf[0] = '\0';
	return NULL;
}

static const struct builtin_script *builtin_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/* builtin_path - the .py of built-in @name (owned by the caller), NULL when absent */
static char *builtin_path(const char *name)
{
	const char *ep = exec_path();
	char *path;

	if (!ep || !builtin_find(name))
		return NULL;
	path = xasprintf("%s/scripts/python/%s.py", ep, name);
	if (is_file(path))
		return path;
	free(path);
	return NULL;
}

void script_lang_list(void)
{
	printf("List of available trace scripts:\n");
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++) {
		char *path = builtin_path(builtins[i].name);
		char *label;

		if (!path)
			continue;
		free(path);
		label = xasprintf("%s%s%s", builtins[i].name, builtins[i].args[0] ? " " : "",
				  builtins[i].args);
		printf("  %-36s %s\n", label, builtins[i].desc);
		free(label);
	}
}

/*
 * The TUIs' script menu, in perf's order (its Perl scripts first, then the
 * Python ones, as their directories list them), each with the events every
 * alternative of perf's record script names: perf offers a script when the
 * file has all of them.
 */
static const struct {
	const char *name;
	const char *const *events;
} menu_scripts[] = {
	{ "rw-by-pid", REC("syscalls:sys_enter_read", "syscalls:sys_exit_read",
			   "syscalls:sys_enter_write", "syscalls:sys_exit_write") },
	{ "failed-syscalls", REC("raw_syscalls:sys_exit", "syscalls:sys_exit") },
	{ "wakeup-latency", REC("sched:sched_switch", "sched:sched_wakeup") },
	{ "rw-by-file", REC("syscalls:sys_enter_read", "syscalls:sys_enter_write") },
	{ "syscall-counts-by-pid", REC("raw_syscalls:sys_enter", "syscalls:sys_enter") },
	{ "export-to-sqlite", NULL },
	{ "futex-contention", REC("syscalls:sys_enter_futex", "syscalls:sys_exit_futex") },
	{ "failed-syscalls-by-pid", REC("raw_syscalls:sys_exit", "syscalls:sys_exit") },
	{ "syscall-counts", REC("raw_syscalls:sys_enter", "syscalls:sys_enter") },
	{ "flamegraph", NULL },
	{ "event_analyzing_sample", NULL },
	{ "sctop", REC("raw_syscalls:sys_enter", "syscalls:sys_enter") },
	{ "stackcollapse", NULL },
};

static bool has_event(const char *const *events, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(events[i], name))
			return true;
	return false;
}

int script_lang_menu(const char *const *events, int nr_events, const char **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(menu_scripts) && n < max; i++) {
		const char *const *ev = menu_scripts[i].events;
		char *path;
		bool ok = true;

		for (; ev && *ev && ok; ev++)
			ok = has_event(events, nr_events, *ev);
		if (!ok)
			continue;
		path = builtin_path(menu_scripts[i].name);
		if (!path)
			continue;
		free(path);
		out[n++] = menu_scripts[i].name;
	}
	return n;
}

void script_lang_tui_menu(struct script_menu *m, const struct evlist *evlist, const char *input,
			  const char **names, int max)
{
	const char **events = xcalloc((size_t)evlist->nr_entries + 1, sizeof(*events));
	struct evsel *evsel;
	int nr = 0;

	evlist_for_each_entry(evlist, evsel)
		events[nr++] = evsel->name;
	m->exe = "/proc/self/exe";
	m->prog = prog_name;
	m->input = input ? input : "perf.data";
	m->scripts = names;
	m->nr_scripts = script_lang_menu(events, nr, names, max);
	free(events);
}

bool script_lang_wanted(int argc)
{
	return script_arg || gen_lang || argc > 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int refuse_perl(void)
{
	fprintf(stderr, "Error: Perl scripting is not supported by %s: use a Python script "
			"(perf script -s script.py)\n", prog_name);
	return 255;
}

/* run the Python script @path with sys.argv = [@path, @argv...] over the input */
static int run_python(struct script_opts *o, const char *path, int argc, const char **argv)
{
	struct script_python_opts po = {
		.script = path,
		.exec_path = exec_path(),
		.comm_list = o->comm_list,
		.sym_list = o->sym_list,
		.dso_list = o->dso_list,
		.pid_list = o->pid_list,
		.tid_list = o->tid_list,
		.cpu_list = o->cpu_list,
		.time_str = o->time_str,
	};
	struct data_reader *reader;
	const char **av = xcalloc((size_t)argc + 2, sizeof(*av));
	int ret;

	if (!is_file(path)) {
		fprintf(stderr, "Can't open python script \"%s\": %s\n", path, strerror(errno));
		free(av);
		return 255;
	}
	av[0] = path;
	for (int i = 0; i < argc; i++)
		av[i + 1] = argv[i];
	po.argc = argc + 1;
	po.argv = av;
	reader = data_open_for_read(o->input, o->force);
	if (!reader) {
		free(av);
		return 255;
	}
	ret = script_python_run(&po, reader);
	free(av);
	return ret ? 255 : 0;
}

/* -g LANG: perf-script.py in the current directory */
static int generate(struct script_opts *o)
{
	struct data_reader *reader;
	int err;

	if (!strcmp(gen_lang, "perl") || !strcmp(gen_lang, "pl"))
		return refuse_perl();
	if (strcmp(gen_lang, "python") && strcmp(gen_lang, "py")) {
		fprintf(stderr, "invalid language specifier");
		return 254;
	}
	reader = data_open_for_read(o->input, o->force);
	if (!reader)
		return 255;
	err = script_python_generate(reader, "perf-script.py");
	data_reader_close(reader);
	if (err) {
		fprintf(stderr, "couldn't create Python script perf-script.py: %s\n", strerror(-err));
		return 255;
	}
	fprintf(stderr, "generated Python script: perf-script.py\n");
	return 0;
}

/* script record NAME [record args]: sonde record with the script's events */
static int record_builtin(const struct builtin_script *b, int argc, const char **argv)
{
	const char **av;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int k = 0, nrec = 0;

	while (b->record[nrec])
		nrec++;
	if (n <= 0)
		return 255;
	self[n] = '\0';
	av = xcalloc((size_t)(nrec + argc + 2), sizeof(*av));
	av[k++] = prog_name;
	for (int i = 0; i < nrec; i++)
		av[k++] = b->record[i];
	for (int i = 0; i < argc; i++)
		av[k++] = argv[i];
	fflush(stdout);
	execv(self, (char *const *)av);
	fprintf(stderr, "failed to run %s record: %s\n", prog_name, strerror(errno));
	free(av);
	return 255;
}

/*
 * take_input_option - perf's report scripts hand their arguments to perf
 * script: "-i FILE" (--input) there selects the file. Takes it out of
 * @argv and returns the number of arguments left for the script.
 */
static int take_input_option(struct script_opts *o, int argc, const char **argv)
{
	int k = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if ((!strcmp(a, "-i") || !strcmp(a, "--input")) && i + 1 < argc) {
			o->input = argv[++i];
			continue;
		}
		if (!strncmp(a, "--input=", 8)) {
			o->input = a + 8;
			continue;
		}
		if (!strncmp(a, "-i", 2) && a[2]) {
			o->input = a + 2;
			continue;
		}
		argv[k++] = a;
	}
	return k;
}

/* an option of perf's flamegraph.py: "-x V", "-xV", "--long V" or "--long=V"; its value or NULL */
static const char *fg_opt(const char *const *argv, int argc, int *i, char shrt, const char *lng)
{
	const char *a = argv[*i];
	size_t n = strlen(lng);

	if (shrt && a[0] == '-' && a[1] == shrt) {
		if (a[2])
			return a + 2;
		return *i + 1 < argc ? argv[++*i] : NULL;
	}
	if (strncmp(a, "--", 2) || strncmp(a + 2, lng, n))
		return NULL;
	if (a[2 + n] == '=')
		return a + 3 + n;
	if (!a[2 + n] && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/*
 * report_flamegraph - `script report flamegraph [-f html|json] [-o FILE]
 * [--template PATH] [--colorscheme C]`: the HTML page is sonde's own flame
 * graph (flamegraph_run(), no d3 template, no network); -f json, and any
 * argument this does not know, go to the Python built-in, which writes
 * perf's JSON tree (or argparse's complaint).
 */
static int report_flamegraph(struct script_opts *o, const char *path, int argc, const char **argv)
{
	const char *format = "html", *output = NULL, *tmpl = NULL, *scheme = NULL;
	struct flame_opts fo;
	int ret;

	for (int i = 0; i < argc; i++) {
		const char *v;

		if ((v = fg_opt(argv, argc, &i, 'f', "format")))
			format = v;
		else if ((v = fg_opt(argv, argc, &i, 'o', "output")))
			output = v;
		else if ((v = fg_opt(argv, argc, &i, 0, "template")))
			tmpl = v;
		else if ((v = fg_opt(argv, argc, &i, 0, "colorscheme")))
			scheme = v;
		else
			return run_python(o, path, argc, argv);
	}
	if (strcmp(format, "html") ||
	    (scheme && strcmp(scheme, "blue-green") && strcmp(scheme, "orange")))
		return run_python(o, path, argc, argv);
	if (tmpl && !is_file(tmpl)) {
		/* a template asked for by name must exist, as with perf */
		fprintf(stderr, "Flame Graph template %s does not exist. Please install the "
				"js-d3-flame-graph (RPM) or libjs-d3-flame-graph (deb) package, "
				"specify an existing flame graph template (--template PATH) or "
				"another output format (--format FORMAT).\n", tmpl);
		return 1;
	}
	flame_opts_init(&fo);
	fo.input = o->input;
	fo.force = o->force;
	fo.output = output ? output : "flamegraph.html";
	fo.format = "html";
	fo.say_first = true; /* "dumping data to" on stdout, as perf's script says it */
	fo.stack.pid = true; /* perf's tree has a root per process */
	fo.comm_list = o->comm_list;
	fo.pid_list = o->pid_list;
	fo.tid_list = o->tid_list;
	fo.cpu_list = o->cpu_list;
	fo.dso_list = o->dso_list;
	fo.time_str = o->time_str;
	fo.symfs = o->symfs;
	fo.kallsyms = o->kallsyms;
	if (scheme && !strcmp(scheme, "orange"))
		fo.style.colors = "orange";
	ret = flamegraph_run(&fo);
	return ret ? 255 : 0;
}

int script_lang_run(struct script_opts *o, int argc, const char **argv)
{
	if (gen_lang)
		return generate(o);
	if (script_arg) {
		const char *s = script_arg;
		char *path = NULL;
		int ret;

		if (!strncmp(s, "perl:", 5) || !strncmp(s, "pl:", 3) || has_suffix(s, ".pl"))
			return refuse_perl();
		if (!strncmp(s, "python:", 7))
			s += 7;
		else if (!strncmp(s, "py:", 3))
			s += 3;
		if (!has_suffix(s, ".py")) {
			path = builtin_path(s);
			if (!path) {
				fprintf(stderr, "invalid script extension");
				return 129;
			}
			s = path;
		}
		ret = run_python(o, s, argc, argv);
		free(path);
		return ret;
	}
	if (!strcmp(argv[0], "record") || !strcmp(argv[0], "report")) {
		const struct builtin_script *b = argc > 1 ? builtin_find(argv[1]) : NULL;
		char *path = b ? builtin_path(b->name) : NULL;
		int ret;

		if (!path) {
			fprintf(stderr, "Please specify a valid %s script(see '%s script -l' for listing)\n",
				argv[0], prog_name);
			return 255;
		}
		if (!strcmp(argv[0], "record")) {
			free(path);
			return record_builtin(b, argc - 2, argv + 2);
		}
		argc = take_input_option(o, argc - 2, argv + 2);
		if (!strcmp(b->name, "flamegraph"))
			ret = report_flamegraph(o, path, argc, argv + 2);
		else
			ret = run_python(o, path, argc, argv + 2);
		free(path);
		return ret;
	}
	fprintf(stderr, "Error: running '%s' as a record+report script pair is not supported by %s: "
			"use '%s script record %s' then '%s script report %s'\n",
		argv[0], prog_name, prog_name, argv[0], prog_name, argv[0]);
	return 255;
}
