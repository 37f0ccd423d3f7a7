/* SPDX-License-Identifier: MIT */
/*
 * /proc/kallsyms and /proc/modules: read in one go, parsed in place without
 * per-line allocation (names are interned once in the caller's pool).
 */
#define PR_PREFIX "kallsyms"
#include "symbol/kallsyms.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool kernel_addr_is_kernel(u64 addr)
{
	return addr >= 0xffff800000000000ULL;
}

/* perf keeps text ('T', 'W') and data ('D', 'B') symbols, either case */
static bool keep_type(char t)
{
	switch (t) {
	case 'T': case 't': case 'W': case 'w': case 'D': case 'd': case 'B': case 'b':
		return true;
	default:
		return false;
	}
}

static int type_binding(char t)
{
	if (t == 'W' || t == 'w' || t == 'V' || t == 'v')
		return STB_WEAK;
	return isupper((unsigned char)t) ? STB_GLOBAL : STB_LOCAL;
}

static struct kmodule *module_findnew(struct kallsyms *ks, const char *name, size_t len,
				      struct strpool *pool, size_t *alloc)
{
	size_t i;

	for (i = ks->nr_modules; i-- > 0;) {
		const char *n = ks->modules[i].name;

		if (strlen(n) == len && !memcmp(n, name, len))
			return &ks->modules[i];
	}
	ks->modules = xgrow(ks->modules, ks->nr_modules + 1, alloc, sizeof(*ks->modules));
	memset(&ks->modules[ks->nr_modules], 0, sizeof(ks->modules[0]));
	ks->modules[ks->nr_modules].name = strpool_intern_len(pool, name, len);
	symtab_init(&ks->modules[ks->nr_modules].symtab, pool);
	return &ks->modules[ks->nr_modules++];
}

static int cmp_first_start(const void *a, const void *b)
{
	const struct kmodule *x = *(const struct kmodule *const *)a;
	const struct kmodule *y = *(const struct kmodule *const *)b;
	u64 sx = x->symtab.syms[0].start, sy = y->symtab.syms[0].start;

	return sx < sy ? -1 : sx > sy;
}

/*
 * perf fixes ends on one table of kernel and module symbols: the last
 * symbol of a module, when it has no size, runs up to the next module's
 * first symbol (only the very last one gets the page rule). Our tables
 * are per module, so stretch those ends the same way afterwards.
 */
static void stretch_module_ends(struct kallsyms *ks)
{
	struct kmodule **order;
	size_t i, n = 0;

	order = xmalloc((ks->nr_modules ? ks->nr_modules : 1) * sizeof(*order));
	for (i = 0; i < ks->nr_modules; i++)
		if (ks->modules[i].symtab.nr_syms)
			order[n++] = &ks->modules[i];
	qsort(order, n, sizeof(*order), cmp_first_start);
	for (i = 0; i + 1 < n; i++) {
		struct symtab *st = &order[i]->symtab;
		struct symbol *last = &st->syms[st->nr_syms - 1];
		u64 next = order[i + 1]->symtab.syms[0].start;

		if ((last->flags & SYMBOL_SIZE_FIXED) && next > last->start) {
			last->end = next;
			if (st->max_end[st->nr_syms - 1] < next)
				st->max_end[st->nr_syms - 1] = next;
		}
	}
	free(order);
}

int kallsyms_parse(struct kallsyms *ks, const char *buf, size_t len, struct strpool *pool)
{
	const char *p = buf, *end = buf + len;
	size_t alloc_mods = 0, nonzero = 0, kept = 0, i;
	struct kmodule *last_mod = NULL;

	memset(ks, 0, sizeof(*ks));
	symtab_init(&ks->kernel, pool);
	/* ~half the lines are kept: size the kernel table once */
	ks->kernel.alloc_syms = len / 40 + 16;
	ks->kernel.syms = xmalloc(ks->kernel.alloc_syms * sizeof(struct symbol));

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p), *name, *ne, *mod = NULL;
		size_t modlen = 0;
		struct symtab *st;
		struct symbol *sym;
		u64 addr = 0;
		int nd = 0, d;
		char type;

		if (!eol)
			eol = end;
		for (; p < eol && (d = hex_digit(*p)) >= 0; p++, nd++)
			addr = addr << 4 | (u64)d;
		if (!nd || nd > 16 || p + 3 > eol || p[0] != ' ' || p[2] != ' ')
			goto next;
		type = p[1];
		name = p + 3;
		ne = memchr(name, '\t', eol - name);
		if (ne) {
			const char *m = ne + 1;

			if (m < eol && *m == '[') {
				const char *me = memchr(m, ']', eol - m);

				if (me) {
					mod = m + 1;
					modlen = me - mod;
				}
			}
		} else {
			ne = eol;
			while (ne > name && (ne[-1] == ' ' || ne[-1] == '\r'))
				ne--;
		}
		if (ne == name)
			goto next;
		ks->nr_lines++;
		if (addr)
			nonzero++;
		if (!mod) {
			/* the image bounds, whatever their type letter */
			size_t nl = ne - name;

			if (nl == 5 && !memcmp(name, "_text", 5))
				ks->text_start = addr;
			else if (nl == 6 && !memcmp(name, "_stext", 6))
				ks->stext = addr;
			else if (nl == 6 && !memcmp(name, "_etext", 6))
				ks->etext = addr;
		}
		if (!keep_type(type))
			goto next;
		if (mod) {
			if (!last_mod || strlen(last_mod->name) != modlen ||
			    memcmp(last_mod->name, mod, modlen))
				last_mod = module_findnew(ks, mod, modlen, pool, &alloc_mods);
			st = &last_mod->symtab;
		} else {
			st = &ks->kernel;
		}
		st->syms = xgrow(st->syms, st->nr_syms + 1, &st->alloc_syms, sizeof(*st->syms));
		sym = &st->syms[st->nr_syms++];
		memset(sym, 0, sizeof(*sym));
		sym->start = sym->end = addr;
		sym->name = strpool_intern_len(pool, name, ne - name);
		sym->binding = type_binding(type);
		sym->type = (type == 'D' || type == 'd' || type == 'B' || type == 'b') ? STT_OBJECT
										      : STT_FUNC;
		sym->ktype = type;
		sym->flags = SYMBOL_KERNEL;
		kept++;
next:
		p = eol + 1;
	}
	pr_debug("%zu lines, %zu symbols kept, %zu modules\n", ks->nr_lines, kept, ks->nr_modules);
	symtab_finish(&ks->kernel, true);
	for (i = 0; i < ks->nr_modules; i++)
		symtab_finish(&ks->modules[i].symtab, true);
	stretch_module_ends(ks);
	if (!ks->nr_lines)
		return -EINVAL;
	if (!nonzero) {
		ks->is_restricted = true;
		return -EPERM;
	}
	return 0;
}

/* /proc files have no size: read until EOF into one growing buffer */
static long read_whole(const char *path, struct strbuf *sb, size_t hint)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return -errno;
	n = strbuf_read_fd(sb, fd, hint);
	close(fd);
	return n;
}

int kallsyms_load(struct kallsyms *ks, const char *path, struct strpool *pool)
{
	struct strbuf sb = STRBUF_INIT;
	long n;
	int err;

	if (!path)
		path = "/proc/kallsyms";
	n = read_whole(path, &sb, 8 << 20);
	if (n < 0) {
		memset(ks, 0, sizeof(*ks));
		symtab_init(&ks->kernel, pool);
		strbuf_release(&sb);
		return (int)n;
	}
	err = kallsyms_parse(ks, sb.buf, sb.len, pool);
	strbuf_release(&sb);
	return err;
}

void kallsyms_release(struct kallsyms *ks)
{
	size_t i;

	symtab_release(&ks->kernel);
	for (i = 0; i < ks->nr_modules; i++)
		symtab_release(&ks->modules[i].symtab);
	free(ks->modules);
	ks->modules = NULL;
	ks->nr_modules = 0;
}

struct kmodule *kallsyms_find_module(struct kallsyms *ks, const char *name)
{
	size_t i, len = strlen(name);

	if (len >= 2 && name[0] == '[' && name[len - 1] == ']') {
		name++;
		len -= 2;
	}
	for (i = 0; i < ks->nr_modules; i++)
		if (strlen(ks->modules[i].name) == len && !memcmp(ks->modules[i].name, name, len))
			return &ks->modules[i];
	return NULL;
}

const struct symbol *kallsyms_find(const struct kallsyms *ks, u64 addr,
				   const struct kmodule **modp)
{
	const struct symbol *sym;
	size_t i;

	if (modp)
		*modp = NULL;
	for (i = 0; i < ks->nr_modules; i++) {
		const struct kmodule *m = &ks->modules[i];

		if (m->size && (addr < m->start || addr >= m->start + m->size))
			continue;
		sym = symtab_find(&m->symtab, addr);
		if (sym) {
			if (modp)
				*modp = m;
			return sym;
		}
	}
	return symtab_find(&ks->kernel, addr);
}

int modules_parse(struct kallsyms *ks, const char *buf, size_t len, struct strpool *pool)
{
	const char *p = buf, *end = buf + len;
	size_t alloc = ks->nr_modules;
	int nr = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p), *f[6];
		size_t fl[6];
		int nf = 0;
		const char *q;

		if (!eol)
			eol = end;
		for (q = p; q < eol && nf < 6;) {
			while (q < eol && *q == ' ')
				q++;
			if (q >= eol)
				break;
			f[nf] = q;
			while (q < eol && *q != ' ')
				q++;
			fl[nf] = q - f[nf];
			nf++;
		}
		if (nf == 6 && fl[0]) {
			char num[32];
			u64 size, start;

			if (fl[1] < sizeof(num) && fl[5] < sizeof(num)) {
				struct kmodule *m;

				memcpy(num, f[1], fl[1]);
				num[fl[1]] = 0;
				size = strtoull(num, NULL, 10);
				memcpy(num, f[5], fl[5]);
				num[fl[5]] = 0;
				start = strtoull(num, NULL, 16);
				m = module_findnew(ks, f[0], fl[0], pool, &alloc);
				if (!m->symtab.is_finished)
					symtab_finish(&m->symtab, true);
				m->start = start;
				m->size = size;
				nr++;
			}
		}
		p = eol + 1;
	}
	return nr;
}

int modules_load(struct kallsyms *ks, const char *path, struct strpool *pool)
{
	struct strbuf sb = STRBUF_INIT;
	long n = read_whole(path ? path : "/proc/modules", &sb, 64 << 10);
	int nr;

	if (n < 0) {
		strbuf_release(&sb);
		return (int)n;
	}
	nr = modules_parse(ks, sb.buf, sb.len, pool);
	strbuf_release(&sb);
	return nr;
}
