/* SPDX-License-Identifier: MIT */
/* data convert --to-sqlite: samples, threads, comms, dsos, symbols, call paths in perf's export-to-sqlite layout. */
#include "ui/export-sqlite.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "session/resolve.h"
#include "symbol/symtab.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libsqlite3 is loaded on first use, so no other command pays for it */
static struct {
	void *handle;
	int (*open)(const char *, sqlite3 **);
	int (*close)(sqlite3 *);
	int (*exec)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
	int (*prepare)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
	int (*bind_int64)(sqlite3_stmt *, int, sqlite3_int64);
	int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
	int (*step)(sqlite3_stmt *);
	int (*reset)(sqlite3_stmt *);
	int (*finalize)(sqlite3_stmt *);
	const char *(*errmsg)(sqlite3 *);
	void (*free)(void *);
	int (*config)(int, ...);
} lib;

int export_sqlite_load(void)
{
	if (lib.handle)
		return 0;
	lib.handle = dlopen("libsqlite3.so.0", RTLD_LAZY | RTLD_LOCAL);
	if (!lib.handle)
		return -ENOENT;
#define SYM(field, name)                                         \
	do {                                                     \
		*(void **)&lib.field = dlsym(lib.handle, name);  \
		if (!lib.field)                                  \
			goto missing;                            \
	} while (0)
	SYM(open, "sqlite3_open");
	SYM(close, "sqlite3_close");
	SYM(exec, "sqlite3_exec");
	SYM(prepare, "sqlite3_prepare_v2");
	SYM(bind_int64, "sqlite3_bind_int64");
	SYM(bind_text, "sqlite3_bind_text");
	SYM(step, "sqlite3_step");
	SYM(reset, "sqlite3_reset");
	SYM(finalize, "sqlite3_finalize");
	SYM(errmsg, "sqlite3_errmsg");
	SYM(free, "sqlite3_free");
	SYM(config, "sqlite3_config");
#undef SYM
	/*
	 * sonde writes the database from one thread: no mutexes, no memory
	 * statistics (both cost a lock per call). Only possible before SQLite
	 * initialises; when something else already did, it stays as it is.
	 */
	lib.config(SQLITE_CONFIG_SINGLETHREAD);
	lib.config(SQLITE_CONFIG_MEMSTATUS, 0);
	return 0;
missing:
	dlclose(lib.handle);
	lib.handle = NULL;
	return -ENOSYS;
}

/* perf's tables, column for column; row 0 of each stands for "unknown" */
static const char schema[] =
	"CREATE TABLE selected_events (id integer NOT NULL PRIMARY KEY, name varchar(80));\n"
	"CREATE TABLE machines (id integer NOT NULL PRIMARY KEY, pid integer, root_dir varchar(4096));\n"
	"CREATE TABLE threads (id integer NOT NULL PRIMARY KEY, machine_id bigint, process_id bigint, "
	"pid integer, tid integer);\n"
	"CREATE TABLE comms (id integer NOT NULL PRIMARY KEY, comm varchar(16), c_thread_id bigint, "
	"c_time bigint, exec_flag boolean);\n"
	"CREATE TABLE comm_threads (id integer NOT NULL PRIMARY KEY, comm_id bigint, thread_id bigint);\n"
	"CREATE TABLE dsos (id integer NOT NULL PRIMARY KEY, machine_id bigint, short_name varchar(256), "
	"long_name varchar(4096), build_id varchar(64));\n"
	"CREATE TABLE symbols (id integer NOT NULL PRIMARY KEY, dso_id bigint, sym_start bigint, "
	"sym_end bigint, binding integer, name varchar(2048));\n"
	"CREATE TABLE branch_types (id integer NOT NULL PRIMARY KEY, name varchar(80));\n"
	"CREATE TABLE samples (id integer NOT NULL PRIMARY KEY, evsel_id bigint, machine_id bigint, "
	"thread_id bigint, comm_id bigint, dso_id bigint, symbol_id bigint, sym_offset bigint, "
	"ip bigint, time bigint, cpu integer, to_dso_id bigint, to_symbol_id bigint, "
	"to_sym_offset bigint, to_ip bigint, period bigint, weight bigint, transaction_ bigint, "
	"data_src bigint, branch_type integer, in_tx boolean, call_path_id bigint, "
	"insn_count bigint, cyc_count bigint, flags integer);\n"
	"CREATE TABLE call_paths (id integer NOT NULL PRIMARY KEY, parent_id bigint, symbol_id bigint, "
	"ip bigint);\n";

/* the views queries use, written for sonde with the columns perf's have */
static const char views[] =
	"CREATE VIEW machines_view AS SELECT m.id, m.pid, m.root_dir, "
	"  (CASE WHEN m.id = 0 THEN 'unknown' WHEN m.pid = -1 THEN 'host' ELSE 'guest' END) "
	"  AS host_or_guest FROM machines m;\n"
	"CREATE VIEW dsos_view AS SELECT d.id, d.machine_id, mv.host_or_guest, d.short_name, "
	"  d.long_name, d.build_id FROM dsos d LEFT JOIN machines_view mv ON mv.id = d.machine_id;\n"
	"CREATE VIEW symbols_view AS SELECT s.id, s.name, d.short_name AS dso, s.dso_id, s.sym_start, "
	"  s.sym_end, (CASE s.binding WHEN 0 THEN 'local' WHEN 1 THEN 'global' ELSE 'weak' END) "
	"  AS binding FROM symbols s LEFT JOIN dsos d ON d.id = s.dso_id;\n"
	"CREATE VIEW threads_view AS SELECT t.id, t.machine_id, mv.host_or_guest, t.process_id, "
	"  t.pid, t.tid FROM threads t LEFT JOIN machines_view mv ON mv.id = t.machine_id;\n"
	"CREATE VIEW comm_threads_view AS SELECT ct.comm_id, c.comm AS command, ct.thread_id, "
	"  t.pid, t.tid FROM comm_threads ct LEFT JOIN comms c ON c.id = ct.comm_id "
	"  LEFT JOIN threads t ON t.id = ct.thread_id;\n"
	"CREATE VIEW samples_view AS SELECT s.id, s.time, s.cpu, t.pid, t.tid, c.comm AS command, "
	"  e.name AS event, printf('%x', s.ip) AS ip_hex, sy.name AS symbol, s.sym_offset, "
	"  d.short_name AS dso_short_name, printf('%x', s.to_ip) AS to_ip_hex, "
	"  tsy.name AS to_symbol, s.to_sym_offset, td.short_name AS to_dso_short_name, "
	"  b.name AS branch_type_name, s.in_tx, s.insn_count, s.cyc_count, "
	"  (CASE WHEN s.cyc_count = 0 THEN CAST(0 AS FLOAT) "
	"   ELSE ROUND(CAST(s.insn_count AS FLOAT) / s.cyc_count, 2) END) AS IPC, s.flags "
	"  FROM samples s LEFT JOIN threads t ON t.id = s.thread_id "
	"  LEFT JOIN comms c ON c.id = s.comm_id LEFT JOIN selected_events e ON e.id = s.evsel_id "
	"  LEFT JOIN symbols sy ON sy.id = s.symbol_id LEFT JOIN dsos d ON d.id = s.dso_id "
	"  LEFT JOIN symbols tsy ON tsy.id = s.to_symbol_id LEFT JOIN dsos td ON td.id = s.to_dso_id "
	"  LEFT JOIN branch_types b ON b.id = s.branch_type;\n"
	"CREATE VIEW call_paths_view AS SELECT c.id, printf('%x', c.ip) AS ip, c.symbol_id, "
	"  s.name AS symbol, s.dso_id, d.short_name AS dso_short_name, c.parent_id, "
	"  printf('%x', p.ip) AS parent_ip, p.symbol_id AS parent_symbol_id, ps.name AS parent_symbol, "
	"  ps.dso_id AS parent_dso_id, pd.short_name AS parent_dso_short_name "
	"  FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id "
	"  LEFT JOIN symbols s ON s.id = c.symbol_id LEFT JOIN dsos d ON d.id = s.dso_id "
	"  LEFT JOIN symbols ps ON ps.id = p.symbol_id LEFT JOIN dsos pd ON pd.id = ps.dso_id;\n";

/* perf's branch type names (sample flags), the rows of branch_types */
static const struct {
	int id;
	const char *name;
} branch_names[] = {
	{ 1, "unconditional jump" }, { 3, "call" }, { 5, "return" }, { 9, "conditional jump" },
	{ 19, "system call" }, { 21, "return from system call" }, { 33, "asynchronous branch" },
	{ 67, "software interrupt" }, { 69, "return from interrupt" }, { 99, "hardware interrupt" },
	{ 129, "transaction abort" }, { 2051, "vm entry" }, { 4099, "vm exit" },
};

/* perf's data_src of a sample without one: every field "not available" */
#define DATA_SRC_NA 0x5080021ULL

enum { ST_THREAD, ST_COMM, ST_COMM_THREAD, ST_DSO, ST_SYMBOL, ST_SAMPLE, ST_CALL_PATH, NR_ST };

static const char *const inserts[NR_ST] = {
	"INSERT INTO threads VALUES (?, ?, ?, ?, ?)",
	"INSERT INTO comms VALUES (?, ?, ?, ?, ?)",
	"INSERT INTO comm_threads VALUES (?, ?, ?)",
	"INSERT INTO dsos VALUES (?, ?, ?, ?, ?)",
	"INSERT INTO symbols VALUES (?, ?, ?, ?, ?, ?)",
	"INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?, ?, ?, ?, 0, 0, ?, 0, 0, 0)",
	"INSERT INTO call_paths VALUES (?, ?, ?, ?)",
};

struct sqrun {
	struct tool tool; /* first */
	struct session *session;
	sqlite3 *db;
	sqlite3_stmt *st[NR_ST];
	struct resolver res;
	struct resolved_chain chain;
	struct u64map threads, comms, comm_threads, dsos, symbols, paths, evsels;
	struct u64map last_paths; /* struct thread * -> struct last_path * */
	u64 nr_threads, nr_comms, nr_comm_threads, nr_dsos, nr_symbols, nr_paths, nr_samples;
	int err;
};

/* run a prepared insert with @n int64 values (strings bound by the caller) */
static void run_insert(struct sqrun *s, int which, const s64 *vals, int n)
{
	sqlite3_stmt *st = s->st[which];

	for (int i = 0; i < n; i++)
		if (vals)
			lib.bind_int64(st, i + 1, vals[i]);
	if (lib.step(st) != SQLITE_DONE && !s->err)
		s->err = -EIO;
	lib.reset(st);
}

static u64 thread_id(struct sqrun *s, struct thread *t)
{
	uintptr_t id = (uintptr_t)u64map_find(&s->threads, (u64)(uintptr_t)t);
	struct thread *leader;
	u64 process_id;

	if (id)
		return id;
	id = ++s->nr_threads;
	u64map_set(&s->threads, (u64)(uintptr_t)t, (void *)id);
	leader = t->pid == t->tid ? t : machine_findnew_thread(&s->session->machine, t->pid, t->pid);
	process_id = leader == t ? id : thread_id(s, leader);
	run_insert(s, ST_THREAD, (s64[]){ (s64)id, 1, (s64)process_id, t->pid, t->tid }, 5);
	return id;
}

static u64 comm_id(struct sqrun *s, struct thread *t, u64 tid_row, u64 time)
{
	const char *comm = t->comm ? t->comm : "";
	uintptr_t id = (uintptr_t)u64map_find(&s->comms, (u64)(uintptr_t)comm);
	u64 key;

	if (!id) {
		id = ++s->nr_comms;
		u64map_set(&s->comms, (u64)(uintptr_t)comm, (void *)id);
		lib.bind_text(s->st[ST_COMM], 2, comm, -1, SQLITE_STATIC);
		lib.bind_int64(s->st[ST_COMM], 1, (s64)id);
		lib.bind_int64(s->st[ST_COMM], 3, (s64)tid_row);
		lib.bind_int64(s->st[ST_COMM], 4, (s64)time);
		lib.bind_int64(s->st[ST_COMM], 5, 0);
		run_insert(s, ST_COMM, NULL, 0);
	}
	key = (u64)id << 32 | tid_row;
	if (!u64map_find(&s->comm_threads, key)) {
		u64map_set(&s->comm_threads, key, (void *)1);
		++s->nr_comm_threads;
		run_insert(s, ST_COMM_THREAD, (s64[]){ (s64)s->nr_comm_threads, (s64)id, (s64)tid_row }, 3);
	}
	return id;
}

static u64 dso_id(struct sqrun *s, const struct dso *dso)
{
	uintptr_t id;
	char bid[2 * BUILD_ID_SIZE + 1];

	if (!dso)
		return 0;
	id = (uintptr_t)u64map_find(&s->dsos, (u64)(uintptr_t)dso);
	if (id)
		return id;
	id = ++s->nr_dsos;
	u64map_set(&s->dsos, (u64)(uintptr_t)dso, (void *)id);
	for (int i = 0; i < dso->build_id_size; i++)
		snprintf(bid + 2 * i, 3, "%02x", dso->build_id[i]);
	bid[2 * dso->build_id_size] = 0;
	lib.bind_int64(s->st[ST_DSO], 1, (s64)id);
	lib.bind_int64(s->st[ST_DSO], 2, 1);
	lib.bind_text(s->st[ST_DSO], 3, dso->short_name, -1, SQLITE_STATIC);
	lib.bind_text(s->st[ST_DSO], 4, dso->long_name, -1, SQLITE_STATIC);
	lib.bind_text(s->st[ST_DSO], 5, bid, -1, SQLITE_TRANSIENT);
	run_insert(s, ST_DSO, NULL, 0);
	return id;
}

/*
 * the symbol row of @rf: its symbol, or an "unknown" one per address (as
 * perf); 0 without a dso. Adds the dso's row when first seen.
 */
static u64 symbol_id(struct sqrun *s, const struct resolved_frame *rf)
{
	const struct symbol *sym = resolved_frame_sym(rf);
	u64 key, did;
	uintptr_t id;

	if (sym) {
		/* a known symbol's row needs no dso look-up */
		id = (uintptr_t)u64map_find(&s->symbols, (u64)(uintptr_t)sym);
		if (id)
			return id;
	}
	did = dso_id(s, resolved_frame_dso(rf));
	key = sym ? (u64)(uintptr_t)sym : (did << 40) ^ rf->addr ^ 0x8000000000000000ULL;
	if (!did)
		return 0;
	if (!sym) {
		id = (uintptr_t)u64map_find(&s->symbols, key);
		if (id)
			return id;
	}
	id = ++s->nr_symbols;
	u64map_set(&s->symbols, key, (void *)id);
	lib.bind_int64(s->st[ST_SYMBOL], 1, (s64)id);
	lib.bind_int64(s->st[ST_SYMBOL], 2, (s64)did);
	lib.bind_int64(s->st[ST_SYMBOL], 3, (s64)(sym ? sym->start : rf->addr));
	lib.bind_int64(s->st[ST_SYMBOL], 4, (s64)(sym ? sym->end : rf->addr));
	lib.bind_int64(s->st[ST_SYMBOL], 5, sym ? (sym->binding == 1 ? 1 : sym->binding == 2 ? 2 : 0) : 0);
	lib.bind_text(s->st[ST_SYMBOL], 6, sym ? sym->name : "unknown", -1, SQLITE_STATIC);
	run_insert(s, ST_SYMBOL, NULL, 0);
	return id;
}

/*
 * struct last_path - a thread's previous call path, root first: samples of
 * a thread mostly share a long prefix with its previous one, whose node ids
 * need no look-up in the (large, cache-cold) paths map.
 */
struct last_path {
	u64 *frames; /* symbol row, or the ip (top bit set) of a frame without one */
	u64 *ids;    /* call_paths row */
	u32 nr, alloc;
};

static struct last_path *last_path_of(struct sqrun *s, struct thread *t)
{
	struct last_path *lp = u64map_find(&s->last_paths, (u64)(uintptr_t)t);

	if (!lp) {
		lp = xzalloc(sizeof(*lp));
		u64map_set(&s->last_paths, (u64)(uintptr_t)t, lp);
	}
	return lp;
}

static int free_last_path(uint64_t key, void *val, void *arg)
{
	struct last_path *lp = val;

	(void)key;
	(void)arg;
	free(lp->frames);
	free(lp->ids);
	free(lp);
	return 0;
}

/* the call path of @sample's chain (outermost first), its leaf's id */
static u64 call_path(struct sqrun *s, struct thread *t, const struct perf_sample *sample,
		     struct evsel *evsel)
{
	static const struct chain_opts copts = { .unwind = true };
	u32 nr = resolve_sample_callchain(&s->res, t, sample, evsel->attr.sample_type, &copts, &s->chain);
	u64 parent = 0;

	struct last_path *lp = last_path_of(s, t);
	u32 depth = 0;
	bool same = true;

	if (nr > lp->alloc) {
		lp->alloc = nr;
		lp->frames = xreallocarray(lp->frames, nr, sizeof(*lp->frames));
		lp->ids = xreallocarray(lp->ids, nr, sizeof(*lp->ids));
	}
	for (u32 i = nr; i-- > 0; depth++) {
		const struct resolved_frame *rf = &s->chain.frames[i];
		u64 sid = symbol_id(s, rf);
		u64 what = sid ? sid : rf->ip ^ 0x8000000000000000ULL;
		u64 key;
		uintptr_t id;

		/* the thread's previous chain had this node: its id, no look-up */
		if (same && depth < lp->nr && lp->frames[depth] == what) {
			parent = lp->ids[depth];
			continue;
		}
		same = false;
		key = hash_u64(parent * 1000003 + sid) ^ (sid ? 0 : rf->ip);
		id = (uintptr_t)u64map_find(&s->paths, key);
		if (!id) {
			id = ++s->nr_paths;
			u64map_set(&s->paths, key, (void *)id);
			run_insert(s, ST_CALL_PATH, (s64[]){ (s64)id, (s64)parent, (s64)sid, (s64)rf->ip }, 4);
		}
		lp->frames[depth] = what;
		lp->ids[depth] = id;
		parent = id;
	}
	lp->nr = depth;
	return parent;
}

static int on_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct sqrun *s = (struct sqrun *)tool;
	struct addr_location loc;
	const struct resolved_frame *rf = resolve_sample(&s->res, sample, &loc);
	u64 tid_row = thread_id(s, loc.thread);
	u64 cid = comm_id(s, loc.thread, tid_row, sample->time);
	u64 sid = symbol_id(s, rf);
	u64 did = dso_id(s, resolved_frame_dso(rf));
	u64 path = 0;
	uintptr_t eid = (uintptr_t)u64map_find(&s->evsels, (u64)(uintptr_t)evsel);

	(void)session;
	(void)ev;
	if (sample->callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		path = call_path(s, loc.thread, sample, evsel);
	s->nr_samples++;
	run_insert(s, ST_SAMPLE,
		   (s64[]){ (s64)s->nr_samples, (s64)eid, 1, (s64)tid_row, (s64)cid, (s64)did,
			    (s64)sid, (s64)(sid ? rf->symoff : 0), (s64)sample->ip, (s64)sample->time,
			    (evsel->attr.sample_type & PERF_SAMPLE_CPU) ? (s64)sample->cpu : -1,
			    (s64)sample->period, (s64)sample->weight, (s64)sample->transaction,
			    (s64)((evsel->attr.sample_type & PERF_SAMPLE_DATA_SRC) ? sample->data_src
										      : DATA_SRC_NA),
			    (s64)path },
		   16);
	return s->err;
}

static int exec_sql(struct sqrun *s, const char *sql, struct strbuf *msg)
{
	char *e = NULL;

	if (lib.exec(s->db, sql, NULL, NULL, &e) == SQLITE_OK)
		return 0;
	strbuf_addf(msg, "sqlite: %s", e ? e : "error");
	lib.free(e);
	return -EIO;
}

long export_sqlite(struct session *session, const char *path, struct data_error *err,
		   struct strbuf *msg)
{
	struct sqrun s;
	struct evsel *evsel;
	struct strbuf sql = STRBUF_INIT;
	long ret;
	int i = 0;

	memset(&s, 0, sizeof(s));
	if (export_sqlite_load()) {
		strbuf_addstr(msg, "libsqlite3.so.0 could not be loaded (install libsqlite3-0)");
		return -ENOSYS;
	}
	if (lib.open(path, &s.db) != SQLITE_OK) {
		strbuf_addf(msg, "sqlite: cannot open %s: %s", path, s.db ? lib.errmsg(s.db) : "");
		lib.close(s.db);
		return -EIO;
	}
	s.session = session;
	s.tool.sample = on_sample;
	s.tool.ordered = true;
	u64map_init(&s.threads);
	u64map_init(&s.comms);
	u64map_init(&s.comm_threads);
	u64map_init(&s.dsos);
	u64map_init(&s.symbols);
	u64map_init(&s.paths);
	u64map_init(&s.evsels);
	u64map_init(&s.last_paths);
	ret = exec_sql(&s, "PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
			    "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536; BEGIN;", msg);
	if (!ret)
		ret = exec_sql(&s, schema, msg);
	/* the unknown rows 0, the machine, the events and the branch types */
	strbuf_addstr(&sql, "INSERT INTO selected_events VALUES (0, 'unknown');\n"
			    "INSERT INTO machines VALUES (0, 0, 'unknown');\n"
			    "INSERT INTO machines VALUES (1, -1, '');\n"
			    "INSERT INTO threads VALUES (0, 0, 0, -1, -1);\n"
			    "INSERT INTO comms VALUES (0, 'unknown', 0, 0, 0);\n"
			    "INSERT INTO dsos VALUES (0, 0, 'unknown', 'unknown', '');\n"
			    "INSERT INTO symbols VALUES (0, 0, 0, 0, 0, 'unknown');\n"
			    "INSERT INTO samples VALUES (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);\n"
			    "INSERT INTO call_paths VALUES (0, 0, 0, 0);\n"
			    "INSERT INTO branch_types VALUES (0, 'no branch');\n");
	for (size_t k = 0; k < sizeof(branch_names) / sizeof(branch_names[0]); k++)
		strbuf_addf(&sql, "INSERT INTO branch_types VALUES (%d, '%s');\n", branch_names[k].id,
			    branch_names[k].name);
	evlist_for_each_entry(session->evlist, evsel) {
		++i;
		u64map_set(&s.evsels, (u64)(uintptr_t)evsel, (void *)(uintptr_t)i);
		strbuf_addf(&sql, "INSERT INTO selected_events VALUES (%d, '", i);
		for (const char *p = evsel->name ? evsel->name : "unknown"; *p; p++) {
			if (*p == '\'')
				strbuf_addch(&sql, '\'');
			strbuf_addch(&sql, *p);
		}
		strbuf_addstr(&sql, "');\n");
	}
	if (!ret)
		ret = exec_sql(&s, sql.buf, msg);
	for (int k = 0; !ret && k < NR_ST; k++)
		if (lib.prepare(s.db, inserts[k], -1, &s.st[k], NULL) != SQLITE_OK) {
			strbuf_addf(msg, "sqlite: %s", lib.errmsg(s.db));
			ret = -EIO;
		}
	if (!ret) {
		thread_set_comm(&session->machine, machine_findnew_thread(&session->machine, 0, 0),
				"swapper");
		resolver_init(&s.res, &session->machine, NULL);
		ret = session_process(session, &s.tool, err);
		resolver_release(&s.res);
		resolved_chain_release(&s.chain);
		if (ret >= 0 && s.err) {
			strbuf_addf(msg, "sqlite: %s", lib.errmsg(s.db));
			ret = s.err;
		}
	}
	for (int k = 0; k < NR_ST; k++)
		if (s.st[k])
			lib.finalize(s.st[k]);
	if (!ret)
		ret = exec_sql(&s, views, msg);
	if (!ret)
		ret = exec_sql(&s, "COMMIT;", msg);
	lib.close(s.db);
	strbuf_release(&sql);
	u64map_release(&s.threads);
	u64map_release(&s.comms);
	u64map_release(&s.comm_threads);
	u64map_release(&s.dsos);
	u64map_release(&s.symbols);
	u64map_release(&s.paths);
	u64map_release(&s.evsels);
	u64map_for_each(&s.last_paths, free_last_path, NULL);
	u64map_release(&s.last_paths);
	return ret < 0 ? ret : (long)s.nr_samples;
}
