/* Per-DSO symbol loading: choose the best source, translate addresses. */
#define PR_PREFIX "symsrc"
#include "symbol/symtab.h"

#include "lib/debug.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct symsrc *symsrc_new(struct strpool *pool)
{
	struct symsrc *ss = xzalloc(sizeof(*ss));

	symtab_init(&ss->symtab, pool);
	return ss;
}

void symsrc_free(struct symsrc *ss)
{
	if (!ss)
		return;
	symtab_release(&ss->symtab);
	free(ss->segs);
	free(ss->path);
	free(ss->symbol_path);
	free(ss);
}

int symsrc_load(struct symsrc *ss, const char *name, const struct symsrc_args *args)
{
	if (ss->is_loaded)
		return ss->status;
	ss->is_loaded = true;
	ss->status = -ENOSYS;
	return ss->status;
}

int symsrc_load_kallsyms(struct symsrc *ss, const char *module, const struct symsrc_args *args)
{
	return -ENOSYS;
}

u64 symsrc_map_ip(const struct symsrc *ss, u64 map_start, u64 map_pgoff, u64 ip)
{
	return ip - map_start + map_pgoff;
}

u64 symsrc_unmap_ip(const struct symsrc *ss, u64 map_start, u64 map_pgoff, u64 addr)
{
	return addr + map_start - map_pgoff;
}

const struct symbol *symsrc_find(const struct symsrc *ss, u64 addr)
{
	return symtab_find(&ss->symtab, addr);
}

const char *symsrc_strerror(const struct symsrc *ss, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s: %s", name, strerror(-ss->status));
	return buf;
}
