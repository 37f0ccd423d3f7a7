/* SPDX-License-Identifier: MIT */
/* Unit tests for src/session/machine.c and the callchain resolver: hand-built records. */
#include "test.h"
#include "session/machine.h"
#include "session/resolve.h"
#include "session/session.h"
#include "lib/xalloc.h"

#include <linux/perf_event.h>

/* a loader that gives every dso three functions, at file offsets 0x100, 0x200 and 0x300 */
static int fake_loader(struct machine *m, struct dso *dso, void *arg)
{
	(void)arg;
	dso->ss = symsrc_new(m->names);
	symtab_add(&dso->ss->symtab, 0x100, 0x100, 1, 2, "alpha");
	symtab_add(&dso->ss->symtab, 0x200, 0x100, 1, 2, "beta");
	symtab_add(&dso->ss->symtab, 0x300, 0x100, 1, 2, "gamma");
	symtab_finish(&dso->ss->symtab, false);
	dso->ss->is_loaded = true;
	dso->ss->status = 0;
	dso->ss->kind = SYMSRC_ELF;
	return 0;
}

static void setup(struct machine *m, struct strpool *pool)
{
	strpool_init(pool);
	machine_init(m, pool, NULL);
	m->loader = fake_loader;
}

static void teardown(struct machine *m, struct strpool *pool)
{
	machine_release(m);
	strpool_release(pool);
}

/* build a COMM record */
static union perf_event *comm_event(u32 pid, u32 tid, const char *comm)
{
	size_t len = sizeof(struct perf_record_comm) + 16;
	union perf_event *ev = xzalloc(len);

	ev->header.type = PERF_RECORD_COMM;
	ev->header.size = (u16)len;
	ev->comm.pid = pid;
	ev->comm.tid = tid;
	snprintf(ev->comm.comm, 16, "%s", comm);
	return ev;
}

static union perf_event *fork_event(u32 type, u32 pid, u32 ppid, u32 tid, u32 ptid)
{
	union perf_event *ev = xzalloc(sizeof(struct perf_record_fork));

	ev->header.type = type;
	ev->header.size = sizeof(struct perf_record_fork);
	ev->fork.pid = pid;
	ev->fork.ppid = ppid;
	ev->fork.tid = tid;
	ev->fork.ptid = ptid;
	return ev;
}

TEST(session_thread_comm_fork_exit)
{
	struct machine m;
	struct strpool pool;
	union perf_event *ev;
	struct thread *t, *child, *thr;

	setup(&m, &pool);
	t = machine_findnew_thread(&m, 100, 100);
	EXPECT_STREQ(t->comm, ":100");
	EXPECT_STREQ(machine_findnew_thread(&m, 0, 0)->comm, "swapper");

	ev = comm_event(100, 100, "parent");
	machine_process_comm(&m, ev);
	free(ev);
	EXPECT_STREQ(t->comm, "parent");
	machine_add_map(&m, 100, 100, 0x400000, 0x1000, 0, "/bin/parent", NULL, 0, 5, 0);

	/* a new process inherits the comm and a copy of the maps */
	ev = fork_event(PERF_RECORD_FORK, 200, 100, 200, 100);
	machine_process_fork(&m, ev);
	free(ev);
	child = machine_find_thread(&m, 200);
	ASSERT_TRUE(child);
	EXPECT_STREQ(child->comm, "parent");
	EXPECT_TRUE(child->maps != t->maps);
	EXPECT_TRUE(maps_find(child->maps, 0x400800) != NULL);

	/* a thread shares its process's maps */
	ev = fork_event(PERF_RECORD_FORK, 100, 100, 101, 100);
	machine_process_fork(&m, ev);
	free(ev);
	thr = machine_find_thread(&m, 101);
	ASSERT_TRUE(thr);
	EXPECT_TRUE(thr->maps == t->maps);

	/* comm changes after exec; the comm pointer is interned */
	ev = comm_event(200, 200, "child");
	machine_process_comm(&m, ev);
	free(ev);
	EXPECT_STREQ(child->comm, "child");
	EXPECT_TRUE(child->comm == strpool_intern(&pool, "child"));

	ev = fork_event(PERF_RECORD_EXIT, 200, 100, 200, 100);
	machine_process_exit(&m, ev);
	free(ev);
	EXPECT_TRUE(child->is_dead);
	teardown(&m, &pool);
}

/* a FORK record synthesized from /proc (FORK_EXEC): the child has exec'd, no maps of the parent's */
TEST(session_fork_exec_no_parent_maps)
{
	struct machine m;
	struct strpool pool;
	union perf_event *ev;
	struct thread *t, *child, *thr, *live;

	setup(&m, &pool);
	t = machine_findnew_thread(&m, 100, 100);
	ev = comm_event(100, 100, "driver");
	machine_process_comm(&m, ev);
	free(ev);
	machine_add_map(&m, 100, 100, 0x403000, 0x99000, 0x3000, "/bin/driver", NULL, 0, 5, 2);

	ev = fork_event(PERF_RECORD_FORK, 200, 100, 200, 100);
	ev->header.misc = PERF_RECORD_MISC_FORK_EXEC;
	machine_process_fork(&m, ev);
	free(ev);
	child = machine_find_thread(&m, 200);
	ASSERT_TRUE(child);
	EXPECT_STREQ(child->comm, "driver"); /* the comm is still the parent's */
	EXPECT_TRUE(child->maps != t->maps);
	EXPECT_EQ(child->maps->nr, 0);
	EXPECT_TRUE(maps_find(child->maps, 0x455355) == NULL);
	EXPECT_TRUE(maps_find(t->maps, 0x455355) != NULL);
	machine_add_map(&m, 200, 200, 0x631000, 0x13c4000, 0x231000, "/bin/compiler", NULL, 0, 5, 2);
	EXPECT_TRUE(maps_find(child->maps, 0x49ba64) == NULL);
	EXPECT_TRUE(maps_find(child->maps, 0x700000) != NULL);

	/* a thread's synthesized FORK shares its process's maps */
	ev = fork_event(PERF_RECORD_FORK, 100, 100, 101, 100);
	ev->header.misc = PERF_RECORD_MISC_FORK_EXEC;
	machine_process_fork(&m, ev);
	free(ev);
	thr = machine_find_thread(&m, 101);
	ASSERT_TRUE(thr);
	EXPECT_TRUE(thr->maps == t->maps);

	/* a live fork copies them, and keeps them over an exec without MMAPs */
	ev = fork_event(PERF_RECORD_FORK, 300, 100, 300, 100);
	machine_process_fork(&m, ev);
	free(ev);
	ev = comm_event(300, 300, "compiler");
	ev->header.misc = PERF_RECORD_MISC_COMM_EXEC;
	machine_process_comm(&m, ev);
	free(ev);
	live = machine_find_thread(&m, 300);
	ASSERT_TRUE(live);
	EXPECT_TRUE(maps_find(live->maps, 0x455355) != NULL);
	teardown(&m, &pool);
}

TEST(session_maps_overlap_split)
{
	struct machine m;
	struct strpool pool;
	struct thread *t;
	struct map *a, *b, *head, *tail;

	setup(&m, &pool);
	t = machine_findnew_thread(&m, 1, 1);
	a = machine_add_map(&m, 1, 1, 0x1000, 0x4000, 0x10000, "/lib/a.so", NULL, 0, 5, 0);
	b = machine_add_map(&m, 1, 1, 0x2000, 0x1000, 0, "/lib/b.so", NULL, 0, 5, 0);
	ASSERT_TRUE(a && b);
	EXPECT_EQ(t->maps->nr, 3);
	head = maps_find(t->maps, 0x1800);
	tail = maps_find(t->maps, 0x3800);
	ASSERT_TRUE(head && tail);
	EXPECT_TRUE(maps_find(t->maps, 0x2800) == b);
	EXPECT_UEQ(head->start, 0x1000);
	EXPECT_UEQ(head->end, 0x2000);
	EXPECT_UEQ(head->pgoff, 0x10000);
	EXPECT_UEQ(tail->start, 0x3000);
	EXPECT_UEQ(tail->end, 0x5000);
	EXPECT_UEQ(tail->pgoff, 0x12000);
	EXPECT_TRUE(head->dso == a->dso && tail->dso == a->dso);
	EXPECT_TRUE(maps_find(t->maps, 0x5000) == NULL);
	EXPECT_TRUE(maps_find(t->maps, 0xfff) == NULL);

	/* a map covering everything retires all three */
	machine_add_map(&m, 1, 1, 0x0, 0x10000, 0, "/lib/c.so", NULL, 0, 5, 0);
	EXPECT_EQ(t->maps->nr, 1);
	/* retired maps stay valid for hist entries */
	EXPECT_UEQ(a->start, 0x1000);
	teardown(&m, &pool);
}

TEST(session_dso_unique_by_name_and_build_id)
{
	struct machine m;
	struct strpool pool;
	u8 bid1[20] = { 1 }, bid2[20] = { 2 };
	struct dso *d1, *d2, *d3, *d4;

	setup(&m, &pool);
	d1 = machine_findnew_dso(&m, "/usr/lib/libc.so.6", NULL, 0);
	d2 = machine_findnew_dso(&m, "/usr/lib/libc.so.6", NULL, 0);
	EXPECT_TRUE(d1 == d2);
	EXPECT_STREQ(d1->short_name, "libc.so.6");
	d3 = machine_findnew_dso(&m, "/opt/x", bid1, 20);
	d4 = machine_findnew_dso(&m, "/opt/x", bid2, 20);
	EXPECT_TRUE(d3 != d4);
	EXPECT_TRUE(machine_findnew_dso(&m, "/opt/x", bid2, 20) == d4);
	/* perf report's name for a JIT map */
	EXPECT_STREQ(machine_findnew_dso(&m, "/tmp/perf-42.map", NULL, 0)->short_name,
		     "[JIT] tid 42");
	teardown(&m, &pool);
}

TEST(session_resolve_frames_interned)
{
	struct machine m;
	struct strpool pool;
	struct thread *t;
	const struct frame *f1, *f2, *f3, *u1, *u2;

	setup(&m, &pool);
	t = machine_findnew_thread(&m, 7, 7);
	machine_add_map(&m, 7, 7, 0x10000, 0x1000, 0, "/bin/app", NULL, 0, 5, 0);
	f1 = machine_resolve_ip(&m, t, PERF_RECORD_MISC_USER, 0x10110);
	f2 = machine_resolve_ip(&m, t, PERF_RECORD_MISC_USER, 0x101f0);
	f3 = machine_resolve_ip(&m, t, PERF_RECORD_MISC_USER, 0x10210);
	ASSERT_TRUE(f1->sym && f3->sym);
	EXPECT_STREQ(f1->sym->name, "alpha");
	EXPECT_TRUE(f1 == f2); /* same symbol: same frame */
	EXPECT_STREQ(f3->sym->name, "beta");
	EXPECT_EQ(f1->level, '.');
	/* outside any symbol: one frame per address, map-relative address kept */
	u1 = machine_resolve_ip(&m, t, PERF_RECORD_MISC_USER, 0x10800);
	u2 = machine_resolve_ip(&m, t, PERF_RECORD_MISC_USER, 0x10808);
	EXPECT_TRUE(u1->sym == NULL && u1 != u2);
	EXPECT_UEQ(u1->addr, 0x800);
	EXPECT_STREQ(u1->dso->short_name, "app");
	/* no map at all */
	u1 = machine_resolve_ip(&m, t, PERF_RECORD_MISC_USER, 0x99999);
	EXPECT_TRUE(u1->dso == NULL && u1->sym == NULL);
	EXPECT_UEQ(u1->addr, 0x99999);
	teardown(&m, &pool);
}

TEST(session_callchain_context_and_max_stack)
{
	struct machine m;
	struct strpool pool;
	struct thread *t;
	struct perf_sample s;
	struct {
		u64 nr;
		u64 ips[8];
	} cc = { 7,
		 { PERF_CONTEXT_KERNEL, 0xffffffff81000110, 0xffffffff81000210, PERF_CONTEXT_USER,
		   0x10110, 0x10210, 0x10310 } };
	struct resolved_chain rc = { 0 };
	struct chain_opts copts = { .max_stack = 127 };
	struct resolver res;
	struct resolved_frame *fr;
	u32 n;

	setup(&m, &pool);
	t = machine_findnew_thread(&m, 7, 7);
	machine_add_map(&m, 7, 7, 0x10000, 0x1000, 0, "/bin/app", NULL, 0, 5, 0);
	machine_add_map(&m, -1, 0, 0xffffffff81000000, 0x1000, 0, "[kernel.kallsyms]_text", NULL,
			0, 5, 0);
	resolver_init(&res, &m, NULL);
	memset(&s, 0, sizeof(s));
	s.callchain = (const struct ip_callchain *)&cc;
	n = resolve_sample_callchain(&res, t, &s, 0, &copts, &rc);
	ASSERT_TRUE(n == 5);
	fr = rc.frames;
	EXPECT_EQ(fr[0].frame->level, 'k');
	EXPECT_STREQ(fr[0].frame->dso->short_name, "[kernel.kallsyms]");
	/* raw ips kept; perf script's address: raw in the kernel, map-relative in user dsos */
	EXPECT_UEQ(fr[0].ip, 0xffffffff81000110);
	EXPECT_UEQ(resolved_frame_map_ip(&fr[0]), 0xffffffff81000110);
	EXPECT_EQ(fr[2].frame->level, '.');
	EXPECT_UEQ(fr[2].ip, 0x10110);
	EXPECT_UEQ(resolved_frame_map_ip(&fr[2]), 0x110);
	EXPECT_STREQ(fr[4].frame->sym->name, "gamma");
	EXPECT_TRUE(resolved_frame_sym(&fr[4]) == fr[4].frame->sym);
	/* callee order keeps the innermost frames */
	copts.max_stack = 2;
	n = resolve_sample_callchain(&res, t, &s, 0, &copts, &rc);
	EXPECT_EQ(n, 2);
	EXPECT_EQ(rc.frames[0].frame->level, 'k');
	/* caller order keeps the outermost ones, still returned leaf first */
	copts.caller_order = true;
	n = resolve_sample_callchain(&res, t, &s, 0, &copts, &rc);
	ASSERT_TRUE(n == 2);
	EXPECT_STREQ(rc.frames[0].frame->sym->name, "beta");
	EXPECT_STREQ(rc.frames[1].frame->sym->name, "gamma");
	/* an unknown context marker: perf script drops the recorded frames, report skips it */
	cc.ips[3] = PERF_CONTEXT_MAX + 1;
	copts = (struct chain_opts){ .bad_context_empties = true };
	EXPECT_EQ(resolve_sample_callchain(&res, t, &s, 0, &copts, &rc), 0);
	copts.bad_context_empties = false;
	EXPECT_EQ(resolve_sample_callchain(&res, t, &s, 0, &copts, &rc), 5);
	resolved_chain_release(&rc);
	resolver_release(&res);
	teardown(&m, &pool);
}

TEST(session_resolver_address_spaces)
{
	struct machine m;
	struct strpool pool;
	struct thread *t;
	struct resolver res;
	const struct resolved_frame *a, *b;

	setup(&m, &pool);
	t = machine_findnew_thread(&m, 7, 7);
	machine_add_map(&m, 7, 7, 0x10000, 0x1000, 0, "/bin/app", NULL, 0, 5, 0);
	machine_add_map(&m, -1, 0, 0xffffffff81000000, 0x1000, 0, "[kernel.kallsyms]_text", NULL,
			0, 5, 0);
	resolver_init(&res, &m, NULL);
	a = resolver_frame(&res, t, PERF_RECORD_MISC_USER, 0x10210);
	ASSERT_TRUE(resolved_frame_sym(a) != NULL);
	EXPECT_STREQ(resolved_frame_sym(a)->name, "beta");
	EXPECT_UEQ(resolved_frame_map_ip(a), 0x210);
	EXPECT_TRUE(resolver_frame(&res, t, PERF_RECORD_MISC_USER, 0x10210) == a); /* cached */
	/* a kernel address seen as user: nothing shown from the user space, the fallback finds it */
	a = resolver_frame(&res, t, PERF_RECORD_MISC_USER, 0xffffffff81000110);
	EXPECT_TRUE(a->map == NULL && resolved_frame_sym(a) == NULL);
	EXPECT_TRUE(a->frame->dso && a->frame->dso->is_kernel); /* the machine looked there */
	b = resolver_frame_fb(&res, t, PERF_RECORD_MISC_USER, 0xffffffff81000110);
	ASSERT_TRUE(b->map != NULL);
	EXPECT_TRUE(resolved_frame_dso(b)->is_kernel);
	EXPECT_UEQ(resolved_frame_map_ip(b), 0xffffffff81000110);
	/* new maps: the space's cache is dropped */
	a = resolver_frame(&res, t, PERF_RECORD_MISC_USER, 0x20010);
	EXPECT_TRUE(a->map == NULL);
	machine_add_map(&m, 7, 7, 0x20000, 0x1000, 0, "/bin/other", NULL, 0, 5, 0);
	b = resolver_frame(&res, t, PERF_RECORD_MISC_USER, 0x20010);
	ASSERT_TRUE(b->map != NULL);
	EXPECT_STREQ(resolved_frame_dso(b)->short_name, "other");
	resolver_release(&res);
	teardown(&m, &pool);
}
