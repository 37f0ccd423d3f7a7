/* SPDX-License-Identifier: MIT */
/* script's checks against the file: -F fields, the sample selections, 'tod', per-event files. */
#define PR_PREFIX "script"
#include "cmd/script.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "session/session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* check_fields - -F against the file's events: -1 to go on, else 255 after perf's message */
static int check_fields(struct script_opts *o, struct evlist *evlist)
{
	struct strbuf msg = STRBUF_INIT;
	struct evsel *evsel;
	bool has_traces = false;
	int ret = -1;

	evlist_for_each_entry(evlist, evsel)
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
			has_traces = true;
	if (script_check_fields(&o->cfg, evlist, has_traces, &msg)) {
		fputs(msg.buf, stderr);
		ret = 255;
	}
	strbuf_release(&msg);
	return ret;
}

/* id_set_parse - --pid/--tid into @set; -EINVAL for a malformed list */
static int id_set_parse(const char *list, struct u64map *set)
{
	int *ids, nr;

	if (id_list_parse(list, &ids, &nr))
		return -EINVAL;
	for (int i = 0; i < nr; i++)
		u64map_set(set, (u64)(s64)ids[i], (void *)1);
	free(ids);
	return 0;
}

/* check_cpus - --cpu: -1 to go on, else 255 after perf's messages */
static int check_cpus(const char *list, struct session *session, struct script_select *sel)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct evsel *evsel;
	bool has_cpu = false;
	int too_large, highest, err;

	evlist_for_each_entry(session->evlist, evsel)
		if (evsel->attr.sample_type & PERF_SAMPLE_CPU)
			has_cpu = true;
	if (!has_cpu) {
		pr_err("File does not contain CPU events. Remove -C option to proceed.\n");
		return 255;
	}
	err = cpu_bitmap_parse(&sel->cpus, list, h->nr_cpus_avail, &too_large, &highest);
	if (highest >= CPU_LIST_MAX)
		pr_err("Perf can support %d CPUs. Consider raising MAX_NR_CPUS\n", CPU_LIST_MAX);
	if (err == -ERANGE)
		pr_err("Requested CPU %d too large. Consider raising MAX_NR_CPUS\n", too_large);
	else if (err)
		pr_err("Invalid cpu_list\n");
	return err ? 255 : -1;
}

/* find_switch_event - --switch-on/--switch-off @name: NULL after perf's message */
static struct evsel *find_switch_event(struct evlist *evlist, const char *which, const char *name)
{
	struct evsel *evsel = evlist_find_by_name(evlist, name);

	if (!evsel)
		fprintf(stderr, "ERROR: %s event not found (%s)\n"
				"HINT:  use 'perf evlist' to see the available event names\n",
			which, name);
	return evsel;
}

/*
 * check_selections - the selections of the command line (session/sample-filter
 * parses them) into @sel, with perf's messages: -1 to go on, else the exit
 * status (perf's -errno & 0xff for a bad --time or a missing switch event)
 */
static int check_selections(struct script_opts *o, struct session *session,
			    struct script_select *sel)
{
	const struct perf_header *h = data_reader_header(session->reader);
	int ret;

	if (o->comm_list) {
		name_list_parse(o->comm_list, &sel->comms);
		sel->has_comms = true;
	}
	if (o->sym_list) {
		name_list_parse(o->sym_list, &sel->syms);
		sel->has_syms = true;
	}
	if (o->dso_list) {
		name_list_parse(o->dso_list, &sel->dsos);
		sel->has_dsos = true;
	}
	if (o->pid_list) {
		if (id_set_parse(o->pid_list, &sel->pids)) {
			pr_err("problems parsing pid list\n");
			return 0;
		}
		sel->has_pids = true;
	}
	if (o->tid_list) {
		if (id_set_parse(o->tid_list, &sel->tids)) {
			pr_err("problems parsing tid list\n");
			return 0;
		}
		sel->has_tids = true;
	}
	if (o->cpu_list) {
		ret = check_cpus(o->cpu_list, session, sel);
		if (ret >= 0)
			return ret;
	}
	if (o->stop_bt)
		name_list_parse(o->stop_bt, &sel->stop_bt);
	if (o->switch_on) {
		sel->switch_on = find_switch_event(session->evlist, "switch-on", o->switch_on);
		if (!sel->switch_on)
			return -ENOENT & 0xff;
	}
	if (o->switch_off) {
		sel->switch_off = find_switch_event(session->evlist, "switch-off", o->switch_off);
		if (!sel->switch_off)
			return -ENOENT & 0xff;
	}
	if (o->time_str && time_spans_parse(o->time_str, h->first_sample_time, h->last_sample_time,
					     &sel->time_spans, &sel->nr_time_spans)) {
		pr_err("Invalid time string\n");
		return -EINVAL & 0xff;
	}
	return -1;
}

/* check_tod - the 'tod' field needs the file's clock data: -1 to go on, else 255 */
static int check_tod(const struct script_opts *o, struct session *session)
{
	const struct perf_header *h = data_reader_header(session->reader);

	for (int j = 0; j < SOT_MAX; j++) {
		if ((o->cfg.out[j].fields & SFB(TOD)) && !perf_header_has_feat(h, HEADER_CLOCK_DATA)) {
			pr_err("Can't provide 'tod' time, missing clock data. Please record with -k/--clockid option.\n");
			return 255;
		}
	}
	return -1;
}

int script_check(struct script_opts *o, struct session *session, struct script_select *sel)
{
	int ret = check_fields(o, session->evlist);

	if (ret < 0)
		ret = check_selections(o, session, sel);
	if (ret < 0)
		ret = check_tod(o, session);
	return ret;
}

struct script_event_dump *script_open_event_dumps(const struct script_opts *o,
						  struct session *session)
{
	struct evlist *evlist = session->evlist;
	int n = evlist->nr_entries;
	struct script_event_dump *dumps = xcalloc(n, sizeof(*dumps));
	struct evsel *evsel;

	for (int i = 0; i < n; i++)
		dumps[i].fd = -1;
	evlist_for_each_entry(evlist, evsel) {
		int i = evsel->idx;

		if (i < 0 || i >= n)
			continue;
		dumps[i].path = xasprintf("%s.%s.dump", o->input ? o->input : "perf.data",
					  evsel->name ? evsel->name : "unknown");
		dumps[i].fd = open(dumps[i].path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (dumps[i].fd < 0) {
			pr_err("Failed to create/open %s\n", dumps[i].path);
			for (int k = 0; k < n; k++) {
				if (dumps[k].fd >= 0)
					close(dumps[k].fd);
				free(dumps[k].path);
			}
			free(dumps);
			return NULL;
		}
	}
	return dumps;
}
