/* SPDX-License-Identifier: MIT */
/* Unit tests for src/session/hists.c and the stdio printer: hand-built frames and samples. */
#include "test.h"
#include "session/hists.h"
#include "session/resolve.h"
#include "ui/hists.h"
#include "lib/xalloc.h"

#include <linux/perf_event.h>

/* load_syms - @dso gets symbols @names[0..n) every 0x100 bytes from 0x100, @size bytes each */
static int load_syms(struct machine *m, struct dso *dso, const char *const *names, int n, u64 size)
{
	dso->ss = symsrc_new(m->names);
	for (int i = 0; i < n; i++)
		symtab_add(&dso->ss->symtab, 0x100 * (i + 1), size, 1, 2, names[i]);
	symtab_finish(&dso->ss->symtab, false);
	dso->ss->is_loaded = true;
	dso->ss->kind = SYMSRC_ELF;
	return 0;
}

static int fake_loader(struct machine *m, struct dso *dso, void *arg)
{
	static const char *const names[] = { "main", "outer", "middle", "leaf", "other" };

	(void)arg;
	return load_syms(m, dso, names, 5, 0x100);
}

struct fixture {
	struct strpool pool;
	struct machine m;
	struct thread *t;
};

static void fx_init(struct fixture *fx)
{
	strpool_init(&fx->pool);
	machine_init(&fx->m, &fx->pool, NULL);
	fx->m.loader = fake_loader;
	fx->t = machine_findnew_thread(&fx->m, 5, 5);
	thread_set_comm(&fx->m, fx->t, "app");
	machine_add_map(&fx->m, 5, 5, 0x10000, 0x1000, 0, "/bin/app", NULL, 0, 5, 0);
}

static void fx_release(struct fixture *fx)
{
	machine_release(&fx->m);
	strpool_release(&fx->pool);
}

/* fr - the frame of symbol number @i (0 main .. 4 other) */
static const struct frame *fr(struct fixture *fx, int i)
{
	return machine_resolve_ip(&fx->m, fx->t, PERF_RECORD_MISC_USER, 0x10000 + 0x100 * (i + 1) + 8);
}

/* add a sample whose chain is given leaf first as symbol numbers, -1 terminated */
static void add(struct fixture *fx, struct hists *h, u64 period, const int *chain)
{
	struct resolved_frame frames[16];
	struct hist_sample hs;
	u32 n = 0;

	memset(frames, 0, sizeof(frames));
	while (chain[n] >= 0) {
		frames[n].frame = fr(fx, chain[n]);
		frames[n].ip = frames[n].frame->ip;
		n++;
	}
	memset(&hs, 0, sizeof(hs));
	hs.thread = fx->t;
	hs.frame = frames[0].frame;
	hs.chain = frames;
	hs.nr_chain = n;
	hs.period = period;
	hs.cpu = -1;
	hs.socket = -1;
	hists_add(h, &hs);
}

static void opts_default(struct hists_opts *o, bool children)
{
	memset(o, 0, sizeof(*o));
	o->keys[0] = SORT_COMM;
	o->keys[1] = SORT_DSO;
	o->keys[2] = SORT_SYM;
	o->nr_keys = 3;
	o->children = children;
	o->use_callchain = true;
	o->cc.mode = CHAIN_GRAPH_ABS;
	o->cc.min_percent = 0.5;
	o->cc.order = children ? ORDER_CALLER : ORDER_CALLEE;
	o->max_stack = 127;
}

static char *print(struct hists *h)
{
	struct hists_print_opts po;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	memset(&po, 0, sizeof(po));
	po.event_name = "cpu-clock";
	hists_fprintf(h, &po, fp);
	fclose(fp);
	return buf;
}

TEST(hists_self_aggregation_and_order)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	static const int c1[] = { 3, 2, 1, 0, -1 }, c2[] = { 4, 0, -1 };

	fx_init(&fx);
	opts_default(&o, false);
	o.use_callchain = false;
	hists_init(&h, &o);
	add(&fx, &h, 100, c1);
	add(&fx, &h, 100, c1);
	add(&fx, &h, 300, c2);
	hists_sort(&h);
	EXPECT_EQ(h.nr_entries, 2);
	EXPECT_EQ(h.total_period, 500);
	EXPECT_EQ(h.nr_samples, 3);
	EXPECT_STREQ(h.entries[0]->frame->sym->name, "other");
	EXPECT_EQ(h.entries[0]->period, 300);
	EXPECT_EQ(h.entries[1]->nr_events, 2);
	hists_release(&h);
	fx_release(&fx);
}

TEST(hists_children_count_recursion_once)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	/* leaf <- middle <- leaf <- main: leaf twice in one chain */
	static const int c1[] = { 3, 2, 3, 0, -1 };

	fx_init(&fx);
	opts_default(&o, true);
	hists_init(&h, &o);
	add(&fx, &h, 10, c1);
	hists_sort(&h);
	EXPECT_EQ(h.nr_entries, 3);
	for (size_t i = 0; i < h.nr_entries; i++)
		EXPECT_EQ(h.entries[i]->acc_period, 10);
	/* the self entry is the leaf; the others have no self period */
	for (size_t i = 0; i < h.nr_entries; i++)
		EXPECT_EQ(h.entries[i]->period, !strcmp(h.entries[i]->frame->sym->name, "leaf") ? 10 : 0);
	hists_release(&h);
	fx_release(&fx);
}

TEST(hists_callchain_trie_and_graph_text)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	static const int c1[] = { 3, 2, 1, 0, -1 }, c2[] = { 3, 1, 0, -1 };
	char *out;

	fx_init(&fx);
	opts_default(&o, false);
	hists_init(&h, &o);
	for (int i = 0; i < 3; i++)
		add(&fx, &h, 100, c1);
	add(&fx, &h, 100, c2);
	hists_sort(&h);
	ASSERT_TRUE(h.nr_entries == 1);
	out = print(&h);
	EXPECT_STREQ(out,
		     "# Overhead  Command  Shared Object  Symbol  \n"
		     "# ........  .......  .............  ........\n"
		     "#\n"
		     "   100.00%  app      app            [.] leaf\n"
		     "            |\n"
		     "            ---leaf\n"
		     "               |          \n"
		     "               |--75.00%--middle\n"
		     "               |          outer\n"
		     "               |          main\n"
		     "               |          \n"
		     "                --25.00%--outer\n"
		     "                          main\n"
		     "\n");
	free(out);
	hists_release(&h);
	fx_release(&fx);
}

TEST(hists_children_graph_caller_order)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	static const int c1[] = { 3, 1, 0, -1 };
	char *out;

	fx_init(&fx);
	opts_default(&o, true);
	hists_init(&h, &o);
	add(&fx, &h, 100, c1);
	hists_sort(&h);
	ASSERT_TRUE(h.nr_entries == 3);
	/* equal children: the self entry, then caller above callee */
	EXPECT_STREQ(h.entries[0]->frame->sym->name, "leaf");
	EXPECT_STREQ(h.entries[1]->frame->sym->name, "main");
	EXPECT_STREQ(h.entries[2]->frame->sym->name, "outer");
	out = print(&h);
	EXPECT_TRUE(strstr(out, "   100.00%     0.00%  app      app            [.] outer\n"
				"            |\n"
				"            ---outer\n"
				"               leaf\n") != NULL);
	free(out);
	hists_release(&h);
	fx_release(&fx);
}

TEST(hists_sort_keys_and_header)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	struct hists_print_opts po;
	static const int c1[] = { 3, -1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	fx_init(&fx);
	opts_default(&o, false);
	o.use_callchain = false;
	EXPECT_EQ(sort_key_parse("symbol"), SORT_SYM);
	EXPECT_EQ(sort_key_parse("dso"), SORT_DSO);
	EXPECT_EQ(sort_key_parse("nope"), -1);
	hists_init(&h, &o);
	for (int i = 0; i < 1500; i++)
		add(&fx, &h, 1000, c1);
	hists_sort(&h);
	memset(&po, 0, sizeof(po));
	po.event_name = "cpu-clock";
	fp = open_memstream(&buf, &len);
	hists_fprintf_event_header(&h, &po, fp);
	fclose(fp);
	EXPECT_STREQ(buf, "# Samples: 1K of event 'cpu-clock'\n"
			  "# Event count (approx.): 1500000\n#\n");
	free(buf);
	hists_release(&h);
	fx_release(&fx);
}

/* top's ageing: 7/8 of every number per refresh, entries at zero leave, lookups still work */
TEST(hists_decay_ages_and_removes)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	static const int c1[] = { 3, 2, 1, 0, -1 }, c2[] = { 4, 0, -1 };

	fx_init(&fx);
	opts_default(&o, false);
	hists_init(&h, &o);
	add(&fx, &h, 800, c1);
	add(&fx, &h, 1, c2);
	EXPECT_EQ(hists_decay(&h), 1); /* "other" (period 1) is gone */
	EXPECT_EQ(h.nr_entries, 1);
	EXPECT_EQ(h.entries[0]->period, 700);
	EXPECT_EQ(h.entries[0]->nr_events, 0);
	EXPECT_EQ(h.total_period, 700);
	hists_sort(&h); /* sums the chains' cumulative periods, as before output */
	EXPECT_EQ(hists_node(&h, h.entries[0]->chain)->cumul, 700);
	/* the same keys find the surviving entry, a removed one comes back new */
	add(&fx, &h, 100, c1);
	add(&fx, &h, 8, c2);
	EXPECT_EQ(h.nr_entries, 2);
	EXPECT_EQ(h.entries[0]->period, 800);
	EXPECT_EQ(h.entries[1]->period, 8);
	EXPECT_EQ(h.total_period, 808);
	for (int i = 0; i < 60; i++)
		hists_decay(&h);
	EXPECT_EQ(h.nr_entries, 0);
	EXPECT_EQ(h.total_period, 0);
	hists_release(&h);
	fx_release(&fx);
}

static const struct frame *remap_to(void *arg, const struct frame *f)
{
	const struct frame *const *pair = arg;

	return f == pair[0] ? pair[1] : f;
}

/* top's lazy symbols: entries moved to another frame merge with the one there, lookups follow */
TEST(hists_remap_frames_merges)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	const struct frame *pair[2];
	static const int c0[] = { 0, -1 }, c1[] = { 1, -1 }, c2[] = { 2, -1 };

	fx_init(&fx);
	opts_default(&o, false);
	hists_init(&h, &o);
	add(&fx, &h, 100, c0);
	add(&fx, &h, 50, c1);
	add(&fx, &h, 7, c2);
	EXPECT_EQ(h.nr_entries, 3);
	EXPECT_EQ(fx.t->nr_entries, 3);
	pair[0] = fr(&fx, 0);
	pair[1] = fr(&fx, 1);
	EXPECT_EQ(hists_remap_frames(&h, remap_to, pair), 1);
	EXPECT_EQ(h.nr_entries, 2);
	EXPECT_EQ(fx.t->nr_entries, 2);
	hists_sort(&h);
	EXPECT_TRUE(h.entries[0]->frame == pair[1]);
	EXPECT_EQ(h.entries[0]->period, 150);
	EXPECT_EQ(h.entries[0]->nr_events, 2);
	/* the table knows the merged entry: a new sample there finds it */
	add(&fx, &h, 10, c1);
	EXPECT_EQ(h.nr_entries, 2);
	EXPECT_EQ(h.entries[0]->period, 160);
	/* nothing to move: nothing changes */
	EXPECT_EQ(hists_remap_frames(&h, remap_to, pair), 0);
	EXPECT_EQ(h.nr_entries, 2);
	hists_release_live(&h);
	EXPECT_EQ(fx.t->nr_entries, 0);
	fx_release(&fx);
}

static void task_event(struct machine *m, u32 type, u32 pid, u32 ppid, u64 time)
{
	union perf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.header.type = type;
	ev.header.size = sizeof(ev.fork);
	ev.fork.pid = ev.fork.tid = pid;
	ev.fork.ppid = ev.fork.ptid = ppid;
	ev.fork.time = time;
	machine_process_event(m, &ev);
}

static size_t nr_threads(const struct machine *m)
{
	size_t n = 0;

	for (const struct thread *t = m->all_threads; t; t = t->next_all)
		n++;
	return n;
}

/* top's bounded memory: an exited process goes at the second reaping, unless an entry holds its thread */
TEST(machine_reap_frees_exited_processes)
{
	struct fixture fx;
	struct hists h;
	struct hists_opts o;
	struct thread *held;
	size_t sets;
	static const int c0[] = { 0, -1 };

	fx_init(&fx);
	sets = fx.m.nr_maps_sets;
	task_event(&fx.m, PERF_RECORD_FORK, 7, 5, 10);
	machine_add_map(&fx.m, 7, 7, 0x40000, 0x1000, 0, "/bin/child", NULL, 0, 5, 0);
	task_event(&fx.m, PERF_RECORD_FORK, 8, 5, 11);
	EXPECT_EQ(fx.m.nr_maps_sets, sets + 2);
	/* an entry holds process 8's thread */
	held = machine_find_thread(&fx.m, 8);
	opts_default(&o, false);
	o.keys[0] = SORT_PID;
	hists_init(&h, &o);
	fx.t = held;
	add(&fx, &h, 10, c0);
	fx.t = machine_find_thread(&fx.m, 5);
	task_event(&fx.m, PERF_RECORD_EXIT, 7, 5, 20);
	task_event(&fx.m, PERF_RECORD_EXIT, 8, 5, 21);
	/* an EXIT read before its FORK: that task is gone at once */
	task_event(&fx.m, PERF_RECORD_EXIT, 9, 5, 30);
	task_event(&fx.m, PERF_RECORD_FORK, 9, 5, 29);
	EXPECT_EQ(nr_threads(&fx.m), 4);
	EXPECT_EQ(machine_reap(&fx.m, NULL, NULL), 0); /* samples may still come */
	EXPECT_TRUE(machine_find_thread(&fx.m, 7) != NULL);
	EXPECT_EQ(machine_reap(&fx.m, NULL, NULL), 3);
	EXPECT_TRUE(machine_find_thread(&fx.m, 7) == NULL);
	EXPECT_TRUE(machine_find_thread(&fx.m, 9) == NULL);
	EXPECT_TRUE(machine_find_thread(&fx.m, 5) != NULL);
	EXPECT_EQ(fx.m.nr_maps_sets, sets);
	/* 5 stays, 8 stays for its entry, 7 and 9 are freed */
	EXPECT_EQ(nr_threads(&fx.m), 2);
	/* a late sample of 7 makes a new task, resolved in a new, empty space */
	EXPECT_TRUE(machine_findnew_thread(&fx.m, 7, 7)->maps->nr == 0);
	/* process 5 still resolves */
	EXPECT_TRUE(fr(&fx, 0)->sym != NULL);
	hists_release_live(&h);
	EXPECT_EQ(held->nr_entries, 0);
	fx_release(&fx);
}

static int gapped_loader(struct machine *m, struct dso *dso, void *arg)
{
	static const char *const names[] = { "a", "b", "c", "d" };

	(void)arg;
	return load_syms(m, dso, names, 4, 0x80);
}

/*
 * The chain memo and the walk hints are shortcuts: a trie built with them
 * is the trie built by walking every chain from the root. Random chains
 * over frames that compare by symbol and frames without a symbol (compared
 * by raw ip, perf's order that is not total), in both orders and modes.
 * The symbols' frames come with varying raw ips, as return addresses do.
 */
TEST(hists_chain_shortcuts_build_the_same_trie)
{
	struct fixture fx;
	const struct frame *pool[16];
	u32 seed = 12345;

	/* symbols of 0x80 bytes every 0x100: addresses with and without one interleave */
	static const u64 at[16] = { 0x108, 0x170, 0x190, 0x1f0, 0x118, 0x208, 0x248, 0x2c0,
				    0x0f0, 0x308, 0x390, 0x278, 0x408, 0x4f8, 0x440, 0x480 };

	fx_init(&fx);
	fx.m.loader = gapped_loader;
	for (int i = 0; i < 16; i++)
		pool[i] = machine_resolve_ip(&fx.m, fx.t, PERF_RECORD_MISC_USER, 0x10000 + at[i]);
	/* a symbol's frame is one for all its addresses; one without a symbol is its address's */
	ASSERT_TRUE(pool[0]->sym && pool[0] == pool[4] && !pool[2]->sym && pool[2] != pool[3]);
	for (int mode = 0; mode < 4; mode++) {
		struct hists h[2];
		struct hists_opts o;

		opts_default(&o, mode & 1);
		o.cc.order = mode & 2 ? ORDER_CALLER : ORDER_CALLEE;
		for (int k = 0; k < 2; k++) {
			o.chain_walk_all = k == 1;
			hists_init(&h[k], &o);
		}
		for (int s = 0; s < 3000; s++) {
			struct resolved_frame frames[6];
			struct hist_sample hs;
			u32 n, k;

			seed = seed * 1103515245 + 12345;
			n = 1 + (seed >> 16) % 6;
			memset(frames, 0, sizeof(frames));
			for (u32 j = 0; j < n; j++) {
				seed = seed * 1103515245 + 12345;
				/* a few hot chains repeat, as in a real profile */
				k = (seed >> 16) % (s % 3 ? 6 : 16);
				frames[j].frame = pool[k];
				/*
				 * the raw ips of a symbol's frame vary: return addresses in
				 * it, or just past its end after a call that never returns
				 */
				seed = seed * 1103515245 + 12345;
				frames[j].ip = pool[k]->sym ? 0x10000 + (at[k] & ~0xffull) + (seed >> 16) % 0xc0
							  : pool[k]->ip;
			}
			memset(&hs, 0, sizeof(hs));
			hs.thread = fx.t;
			hs.frame = frames[0].frame;
			hs.chain = frames;
			hs.nr_chain = n;
			hs.period = 1 + s % 7;
			hs.cpu = hs.socket = -1;
			hists_add(&h[0], &hs);
			hists_add(&h[1], &hs);
		}
		EXPECT_EQ(h[0].nr_entries, h[1].nr_entries);
		EXPECT_EQ(h[0].nr_nodes, h[1].nr_nodes);
		for (size_t i = 0; i < h[0].nr_entries && i < h[1].nr_entries; i++)
			EXPECT_EQ(h[0].entries[i]->chain, h[1].entries[i]->chain);
		for (u32 i = 1; i < h[0].nr_nodes && i < h[1].nr_nodes; i++) {
			const struct cc_node *a = &h[0].nodes[i], *b = &h[1].nodes[i];

			EXPECT_TRUE(a->frame == b->frame);
			EXPECT_EQ(a->first_child, b->first_child);
			EXPECT_EQ(a->next_sibling, b->next_sibling);
			EXPECT_EQ(a->hit, b->hit);
			EXPECT_EQ(a->count, b->count);
		}
		hists_release(&h[0]);
		hists_release(&h[1]);
	}
	fx_release(&fx);
}
