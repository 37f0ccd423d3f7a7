/* SPDX-License-Identifier: MIT */
/* data convert --to-sqlite: samples, threads, comms, dsos, symbols, call paths in perf's export-to-sqlite layout. */
#include "ui/export-sqlite.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/handoff.h"
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
	int (*create_module)(sqlite3 *, const char *, const sqlite3_module *, void *);
	int (*declare_vtab)(sqlite3 *, const char *);
	void (*result_int64)(sqlite3_context *, sqlite3_int64);
	void (*result_text)(sqlite3_context *, const char *, int, void (*)(void *));
	int (*system_errno)(sqlite3 *);
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
	SYM(create_module, "sqlite3_create_module");
	SYM(declare_vtab, "sqlite3_declare_vtab");
	SYM(result_int64, "sqlite3_result_int64");
	SYM(result_text, "sqlite3_result_text");
	SYM(system_errno, "sqlite3_system_errno");
#undef SYM
	/*
	 * One thread at a time uses the connection (the session's thread sets
	 * it up, the writer thread fills it, the session's thread finishes it
	 * after joining the writer): no mutexes, no memory statistics (both
	 * cost a lock per call). Only possible before SQLite initialises; when
	 * something else already did, it stays as it is.
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

/* each table's rows: its name, its column count, which columns hold text */
static const struct {
	const char *name;
	int nr_cols;
	u32 text_cols;	   /* bit i: column i is text (an offset into the batch's texts) */
	bool ids_in_order; /* rows are made with ids 1, 2, 3...: SQLite numbers them */
	u32 zero_cols;	   /* bit i: column i is always 0 (written as a constant) */
} tables[NR_ST] = {
	[ST_THREAD] = { "threads", 5, 0 },
	[ST_COMM] = { "comms", 5, 1u << 1 },
	[ST_COMM_THREAD] = { "comm_threads", 3, 0 },
	[ST_DSO] = { "dsos", 5, 1u << 2 | 1u << 3 | 1u << 4 },
	[ST_SYMBOL] = { "symbols", 6, 1u << 5 },
	/* to_*, branch_type, in_tx, insn_count, cyc_count and flags: 0 */
	[ST_SAMPLE] = { "samples", 25, 0, true,
			1u << 11 | 1u << 12 | 1u << 13 | 1u << 14 | 1u << 19 | 1u << 20 | 1u << 22 |
				1u << 23 | 1u << 24 },
	[ST_CALL_PATH] = { "call_paths", 4, 0, true },
};

#define MAX_COLS 25
/* a batch goes to the writer thread at this many sample rows */
#define BATCH_SAMPLES 1024
#define MAX_BATCHES 8

/*
 * struct sqbatch - rows made by the session's thread for the writer thread:
 * per table an array of nr_cols values per row (texts as offsets into
 * @texts, copied: the writer never reads the session's strings).
 */
struct sqbatch {
	struct {
		s64 *vals;
		u32 nr, alloc; /* rows */
	} tab[NR_ST];
	struct strbuf texts;
};

/*
 * struct rows_vtab - the virtual table a table's rows are read from: one
 * INSERT INTO t SELECT * FROM temp.t_rows per batch moves them, without a
 * bind and a step per row (SQLite then appends them in rowid order)
 */
struct rows_vtab {
	sqlite3_vtab base; /* first */
	int table;
	const struct sqbatch **src; /* the batch being written */
};

struct rows_cursor {
	sqlite3_vtab_cursor base; /* first */
	u32 row;
};

struct last_path;

/* struct last_thread - the previous sample's thread, comm and event, and their rows */
struct last_thread {
	const struct thread *thread;
	const char *comm;
	u64 tid_row, cid;
	struct last_path *lp;
	const struct evsel *evsel;
	u64 eid;
};

struct sqrun {
	struct tool tool; /* first */
	struct last_thread last;
	struct session *session;
	const char *path;
	sqlite3 *db;
	sqlite3_stmt *st[NR_ST];
	const struct sqbatch *cur; /* the batch the writer is writing */
	struct handoff *handoff;   /* NULL: the session's thread writes */
	struct sqbatch *batch;	   /* being filled */
	struct resolver res;
	struct resolved_chain chain;
	struct u64map threads, comms, comm_threads, symbols, paths, evsels;
	u64 *dso_rows, *frame_rows; /* rows by dso and frame id (0: none yet) */
	u32 nr_dso_rows, nr_frame_rows;
	struct u64map last_paths; /* struct thread * -> struct last_path * */
	u64 nr_threads, nr_comms, nr_comm_threads, nr_dsos, nr_symbols, nr_paths, nr_samples;
	int err; /* set by the writer (atomic), read by the session's thread */
};

/* ---- the virtual table over a batch's rows ---- */

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		      char **errp)
{
	struct sqrun *s = aux;
	struct strbuf sql = STRBUF_INIT;
	struct rows_vtab *vt;
	int table = -1, rc;

	(void)errp;
	/* "CREATE VIRTUAL TABLE temp.X_rows USING sonde_rows(X)" */
	for (int t = 0; argc > 3 && t < NR_ST; t++)
		if (!strcmp(argv[3], tables[t].name))
			table = t;
	if (table < 0)
		return SQLITE_ERROR;
	strbuf_addstr(&sql, "CREATE TABLE x(");
	for (int i = 0; i < tables[table].nr_cols; i++)
		strbuf_addf(&sql, "%sc%d", i ? ", " : "", i);
	strbuf_addch(&sql, ')');
	rc = lib.declare_vtab(db, sql.buf);
	strbuf_release(&sql);
	if (rc != SQLITE_OK)
		return rc;
	vt = xzalloc(sizeof(*vt));
	vt->table = table;
	vt->src = &s->cur;
	*out = &vt->base;
	return SQLITE_OK;
}

static int vt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	info->estimatedCost = 1e6;
	return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *vt)
{
	free(vt);
	return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct rows_cursor *c = xzalloc(sizeof(*c));

	(void)vt;
	*out = &c->base;
	return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *c)
{
	free(c);
	return SQLITE_OK;
}

static int vt_filter(sqlite3_vtab_cursor *c, int idx, const char *idx_str, int argc, sqlite3_value **argv)
{
	(void)idx;
	(void)idx_str;
	(void)argc;
	(void)argv;
	((struct rows_cursor *)c)->row = 0;
	return SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *c)
{
	((struct rows_cursor *)c)->row++;
	return SQLITE_OK;
}

static int vt_eof(sqlite3_vtab_cursor *c)
{
	const struct rows_vtab *vt = (const struct rows_vtab *)c->pVtab;

	return ((struct rows_cursor *)c)->row >= (*vt->src)->tab[vt->table].nr;
}

static int vt_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx, int col)
{
	const struct rows_vtab *vt = (const struct rows_vtab *)c->pVtab;
	const struct sqbatch *b = *vt->src;
	int nc = tables[vt->table].nr_cols;
	s64 v = b->tab[vt->table].vals[(size_t)((struct rows_cursor *)c)->row * nc + col];

	if (tables[vt->table].text_cols & (1u << col))
		lib.result_text(ctx, b->texts.buf + v, -1, SQLITE_STATIC);
	else
		lib.result_int64(ctx, v);
	return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *rowid)
{
	*rowid = ((struct rows_cursor *)c)->row;
	return SQLITE_OK;
}

static sqlite3_module rows_module = {
	.iVersion = 1,
	.xCreate = vt_connect,
	.xConnect = vt_connect,
	.xBestIndex = vt_best_index,
	.xDisconnect = vt_disconnect,
	.xDestroy = vt_disconnect,
	.xOpen = vt_open,
	.xClose = vt_close,
	.xFilter = vt_filter,
	.xNext = vt_next,
	.xEof = vt_eof,
	.xColumn = vt_column,
	.xRowid = vt_rowid,
};

/* ---- batches ---- */

static void *batch_new(void *arg)
{
	struct sqbatch *b = xzalloc(sizeof(*b));

	(void)arg;
	strbuf_init(&b->texts, 0);
	/* offset 0 is the empty text */
	strbuf_addch(&b->texts, 0);
	return b;
}

static void batch_free(void *batch, void *arg)
{
	struct sqbatch *b = batch;

	(void)arg;
	for (int t = 0; t < NR_ST; t++)
		free(b->tab[t].vals);
	strbuf_release(&b->texts);
	free(b);
}

/* write_batch - the writer: each table's rows of @batch in one statement each, then empty it */
static void write_batch(void *batch, void *arg)
{
	struct sqrun *s = arg;
	struct sqbatch *b = batch;

	s->cur = b;
	for (int t = 0; t < NR_ST; t++) {
		if (!b->tab[t].nr)
			continue;
		if (!__atomic_load_n(&s->err, __ATOMIC_RELAXED) && lib.step(s->st[t]) != SQLITE_DONE)
			__atomic_store_n(&s->err, -EIO, __ATOMIC_RELAXED);
		lib.reset(s->st[t]);
		b->tab[t].nr = 0;
	}
	s->cur = NULL;
	strbuf_reset(&b->texts);
	strbuf_addch(&b->texts, 0);
}

static const struct handoff_ops batch_ops = {
	.batch_new = batch_new,
	.consume = write_batch,
	.batch_free = batch_free,
};

/* flush - hand the filled batch to the writer (or write it here) */
static void flush(struct sqrun *s)
{
	if (s->handoff)
		s->batch = handoff_submit(s->handoff);
	else
		write_batch(s->batch, s);
}

/* row_add - a new zeroed row of @table in the batch being filled */
static s64 *row_add(struct sqrun *s, int table)
{
	struct sqbatch *b = s->batch;
	int nc = tables[table].nr_cols;
	s64 *row;

	if (b->tab[table].nr == b->tab[table].alloc) {
		b->tab[table].alloc = b->tab[table].alloc ? 2 * b->tab[table].alloc : 256;
		b->tab[table].vals = xreallocarray(b->tab[table].vals, (size_t)b->tab[table].alloc * nc,
						   sizeof(s64));
	}
	row = &b->tab[table].vals[(size_t)b->tab[table].nr++ * nc];
	memset(row, 0, nc * sizeof(*row));
	return row;
}

/* text_add - @str copied into the batch being filled: its offset there */
static s64 text_add(struct sqrun *s, const char *str)
{
	struct strbuf *t = &s->batch->texts;
	s64 off = (s64)t->len;

	strbuf_add(t, str, strlen(str) + 1);
	return off;
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
	memcpy(row_add(s, ST_THREAD), (s64[]){ (s64)id, 1, (s64)process_id, t->pid, t->tid }, 5 * sizeof(s64));
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
		s64 *row = row_add(s, ST_COMM);

		row[0] = (s64)id;
		row[1] = text_add(s, comm);
		row[2] = (s64)tid_row;
		row[3] = (s64)time;
	}
	key = (u64)id << 32 | tid_row;
	if (!u64map_find(&s->comm_threads, key)) {
		u64map_set(&s->comm_threads, key, (void *)1);
		++s->nr_comm_threads;
		memcpy(row_add(s, ST_COMM_THREAD), (s64[]){ (s64)s->nr_comm_threads, (s64)id, (s64)tid_row },
		       3 * sizeof(s64));
	}
	return id;
}

/* row_slot - the row id kept for index @idx in *@rows (0: none yet), the array grown (zeroed) to hold it */
static u64 *row_slot(u64 **rows, u32 *nr, u32 idx)
{
	if (idx >= *nr) {
		u32 n = MAX(idx + 1, 2 * *nr);

		*rows = xreallocarray(*rows, n, sizeof(**rows));
		memset(*rows + *nr, 0, (n - *nr) * sizeof(**rows));
		*nr = n;
	}
	return &(*rows)[idx];
}

static u64 dso_id(struct sqrun *s, const struct dso *dso)
{
	uintptr_t id;
	char bid[2 * BUILD_ID_SIZE + 1];
	s64 *row;
	u64 *slot;

	if (!dso)
		return 0;
	/* rows by the dso's creation order: an array, not a map */
	slot = row_slot(&s->dso_rows, &s->nr_dso_rows, dso->id);
	if (*slot)
		return *slot;
	id = ++s->nr_dsos;
	*slot = id;
	for (int i = 0; i < dso->build_id_size; i++)
		snprintf(bid + 2 * i, 3, "%02x", dso->build_id[i]);
	bid[2 * dso->build_id_size] = 0;
	row = row_add(s, ST_DSO);
	row[0] = (s64)id;
	row[1] = 1;
	row[2] = text_add(s, dso->short_name);
	row[3] = text_add(s, dso->long_name);
	row[4] = text_add(s, bid);
	return id;
}

/* remember @id as the symbol row of @f's symbol (a frame of a symbol has that symbol) */
static void frame_row_set(struct sqrun *s, const struct frame *f, u64 id)
{
	*row_slot(&s->frame_rows, &s->nr_frame_rows, f->id) = id;
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
	s64 *row;

	if (sym) {
		/* a symbol's row by its frame's interning order, then by the symbol */
		if (rf->frame->id < s->nr_frame_rows && s->frame_rows[rf->frame->id])
			return s->frame_rows[rf->frame->id];
		id = (uintptr_t)u64map_find(&s->symbols, (u64)(uintptr_t)sym);
		if (id) {
			frame_row_set(s, rf->frame, id);
			return id;
		}
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
	if (sym)
		frame_row_set(s, rf->frame, id);
	row = row_add(s, ST_SYMBOL);
	row[0] = (s64)id;
	row[1] = (s64)did;
	row[2] = (s64)(sym ? sym->start : rf->addr);
	row[3] = (s64)(sym ? sym->end : rf->addr);
	row[4] = sym ? (sym->binding == 1 ? 1 : sym->binding == 2 ? 2 : 0) : 0;
	row[5] = text_add(s, sym ? sym->name : "unknown");
	return id;
}

/*
 * struct last_path - a thread's previous call path, root first: samples of
 * a thread mostly share a long prefix with its previous one, whose node ids
 * need no look-up in the (large, cache-cold) maps. A node is known by what
 * its symbol row is made of: the frame and map (and the ip without a map).
 */
struct path_step {
	const struct frame *frame;
	const struct map *map;
	u64 ip; /* 0 with a map */
	u64 id; /* call_paths row */
};

struct last_path {
	struct path_step *steps;
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
	free(lp->steps);
	free(lp);
	return 0;
}

/* the call path of @sample's chain (outermost first), its leaf's id */
static u64 call_path(struct sqrun *s, struct thread *t, struct last_path *lp,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	static const struct chain_opts copts = { .unwind = true };
	u32 nr = resolve_sample_callchain(&s->res, t, sample, evsel->attr.sample_type, &copts, &s->chain);
	u64 parent = 0;
	u32 depth = 0;
	bool same = true;

	if (nr > lp->alloc) {
		lp->alloc = nr;
		lp->steps = xreallocarray(lp->steps, nr, sizeof(*lp->steps));
	}
	for (u32 i = nr; i-- > 0; depth++) {
		const struct resolved_frame *rf = &s->chain.frames[i];
		struct path_step *st = &lp->steps[depth];
		u64 ip = rf->map ? 0 : rf->ip, sid, key;
		uintptr_t id;

		/* the thread's previous chain had this node: its id, no look-up */
		if (same && depth < lp->nr && st->frame == rf->frame && st->map == rf->map && st->ip == ip) {
			parent = st->id;
			continue;
		}
		same = false;
		sid = symbol_id(s, rf);
		key = hash_u64(parent * 1000003 + sid) ^ (sid ? 0 : rf->ip);
		id = (uintptr_t)u64map_find(&s->paths, key);
		if (!id) {
			id = ++s->nr_paths;
			u64map_set(&s->paths, key, (void *)id);
			memcpy(row_add(s, ST_CALL_PATH), (s64[]){ (s64)id, (s64)parent, (s64)sid, (s64)rf->ip },
			       4 * sizeof(s64));
		}
		*st = (struct path_step){ rf->frame, rf->map, ip, id };
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
	struct last_thread *lt = &s->last;
	u64 sid = symbol_id(s, rf);
	u64 did = dso_id(s, resolved_frame_dso(rf));
	u64 path = 0;
	s64 *row;

	(void)session;
	(void)ev;
	/* runs of samples of one thread and event: their rows without map look-ups */
	if (lt->thread != loc.thread || lt->comm != loc.thread->comm) {
		lt->thread = loc.thread;
		lt->comm = loc.thread->comm;
		lt->tid_row = thread_id(s, loc.thread);
		lt->cid = comm_id(s, loc.thread, lt->tid_row, sample->time);
		lt->lp = last_path_of(s, loc.thread);
	}
	if (lt->evsel != evsel) {
		lt->evsel = evsel;
		lt->eid = (uintptr_t)u64map_find(&s->evsels, (u64)(uintptr_t)evsel);
	}
	if (sample->callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		path = call_path(s, loc.thread, lt->lp, sample, evsel);
	s->nr_samples++;
	row = row_add(s, ST_SAMPLE);
	row[0] = (s64)s->nr_samples;
	row[1] = (s64)lt->eid;
	row[2] = 1;
	row[3] = (s64)lt->tid_row;
	row[4] = (s64)lt->cid;
	row[5] = (s64)did;
	row[6] = (s64)sid;
	row[7] = (s64)(sid ? rf->symoff : 0);
	row[8] = (s64)sample->ip;
	row[9] = (s64)sample->time;
	row[10] = (evsel->attr.sample_type & PERF_SAMPLE_CPU) ? (s64)sample->cpu : -1;
	/* 11-14: to_dso_id, to_symbol_id, to_sym_offset, to_ip: 0 */
	row[15] = (s64)sample->period;
	row[16] = (s64)sample->weight;
	row[17] = (s64)sample->transaction;
	row[18] = (s64)((evsel->attr.sample_type & PERF_SAMPLE_DATA_SRC) ? sample->data_src : DATA_SRC_NA);
	/* 19, 20: branch_type, in_tx: 0 */
	row[21] = (s64)path;
	/* 22-24: insn_count, cyc_count, flags: 0 */
	if (s->batch->tab[ST_SAMPLE].nr >= BATCH_SAMPLES)
		flush(s);
	return __atomic_load_n(&s->err, __ATOMIC_RELAXED);
}

/* db_error - SQLite's last error into @msg: the system's reason when a write to @s->path failed */
static void db_error(struct sqrun *s, struct strbuf *msg)
{
	int e = lib.system_errno(s->db);

	if (e)
		strbuf_addf(msg, "sqlite: writing %s: %s", s->path, strerror(e));
	else
		strbuf_addf(msg, "sqlite: %s", lib.errmsg(s->db));
}

static int exec_sql(struct sqrun *s, const char *sql, struct strbuf *msg)
{
	if (lib.exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	db_error(s, msg);
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
	s.path = path;
	s.tool.sample = on_sample;
	s.tool.ordered = true;
	u64map_init(&s.threads);
	u64map_init(&s.comms);
	u64map_init(&s.comm_threads);
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
	/* each table's rows come from a virtual table over the batch being written */
	if (!ret && lib.create_module(s.db, "sonde_rows", &rows_module, &s) != SQLITE_OK) {
		strbuf_addf(msg, "sqlite: %s", lib.errmsg(s.db));
		ret = -EIO;
	}
	for (int k = 0; !ret && k < NR_ST; k++) {
		strbuf_reset(&sql);
		strbuf_addf(&sql, "CREATE VIRTUAL TABLE temp.%s_rows USING sonde_rows(%s);", tables[k].name,
			    tables[k].name);
		ret = exec_sql(&s, sql.buf, msg);
		strbuf_reset(&sql);
		if (tables[k].ids_in_order) {
			/*
			 * rows made in id order, after row 0: SQLite's next rowid is
			 * the id, and it appends without looking for the key first
			 */
			strbuf_addf(&sql, "INSERT INTO %s SELECT ", tables[k].name);
			for (int c = 1; c < tables[k].nr_cols; c++)
				strbuf_addf(&sql, tables[k].zero_cols & (1u << c) ? "%s0" : "%sc%d",
					    c > 1 ? ", " : "NULL, ", c);
			strbuf_addf(&sql, " FROM temp.%s_rows", tables[k].name);
		} else {
			strbuf_addf(&sql, "INSERT INTO %s SELECT * FROM temp.%s_rows", tables[k].name,
				    tables[k].name);
		}
		if (!ret && lib.prepare(s.db, sql.buf, -1, &s.st[k], NULL) != SQLITE_OK) {
			strbuf_addf(msg, "sqlite: %s", lib.errmsg(s.db));
			ret = -EIO;
		}
	}
	if (!ret) {
		thread_set_comm(&session->machine, machine_findnew_thread(&session->machine, 0, 0),
				"swapper");
		resolver_init(&s.res, &session->machine, NULL);
		/* SQLite's inserts on a second thread while this one reads and resolves */
		s.handoff = handoff_new(&batch_ops, &s, MAX_BATCHES);
		s.batch = s.handoff ? handoff_batch(s.handoff) : batch_new(NULL);
		ret = session_process(session, &s.tool, err);
		if (s.handoff) {
			handoff_finish(s.handoff, true);
		} else {
			write_batch(s.batch, &s);
			batch_free(s.batch, NULL);
		}
		resolver_release(&s.res);
		resolved_chain_release(&s.chain);
		if (ret >= 0 && s.err) {
			db_error(&s, msg);
			ret = s.err;
		}
	}
	for (int k = 0; k < NR_ST; k++)
		if (s.st[k])
			lib.finalize(s.st[k]);
	for (int k = 0; !ret && k < NR_ST; k++) {
		strbuf_reset(&sql);
		strbuf_addf(&sql, "DROP TABLE temp.%s_rows;", tables[k].name);
		ret = exec_sql(&s, sql.buf, msg);
	}
	if (!ret)
		ret = exec_sql(&s, views, msg);
	if (!ret)
		ret = exec_sql(&s, "COMMIT;", msg);
	lib.close(s.db);
	strbuf_release(&sql);
	u64map_release(&s.threads);
	u64map_release(&s.comms);
	u64map_release(&s.comm_threads);
	free(s.dso_rows);
	free(s.frame_rows);
	u64map_release(&s.symbols);
	u64map_release(&s.paths);
	u64map_release(&s.evsels);
	u64map_for_each(&s.last_paths, free_last_path, NULL);
	u64map_release(&s.last_paths);
	return ret < 0 ? ret : (long)s.nr_samples;
}
