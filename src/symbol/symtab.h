/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables: sorted arrays of [start, end) symbols with interned names,
 * and the per-DSO loader (struct symsrc) that fills one from the best source
 * it finds (ELF + debug files, the vdso, a perf-PID.map, kallsyms).
 *
 * Typical use by the session layer (one struct symsrc per dso, loaded lazily):
 *
 *	struct symsrc *ss = symsrc_new(&session->names);
 *	int err = symsrc_load(ss, dso_long_name, &args);   (once, on first lookup)
 *	if (err == -ESTALE) warn once: build-id mismatch
 *	u64 addr = symsrc_map_ip(ss, map->start, map->pgoff, sample_ip);
 *	const struct symbol *sym = symsrc_find(ss, addr);  (NULL: print "[unknown]")
 *	symoff = addr - sym->start;
 */
#ifndef SONDE_SYMBOL_SYMTAB_H
#define SONDE_SYMBOL_SYMTAB_H

#include "lib/hashmap.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define BUILD_ID_SIZE 20 /* largest build-id perf stores (sha1); md5/uuid ones are 16 */

enum symbol_flags {
	SYMBOL_PLT = (1 << 0),	     /* synthesized "name@plt" entry */
	SYMBOL_KERNEL = (1 << 1),    /* from kallsyms / a kernel image */
	SYMBOL_SIZE_FIXED = (1 << 2), /* size was 0 in the table: end extended to the next symbol */
	SYMBOL_TANGLED = (1 << 3),   /* overlaps another symbol: lookups ask perf's tree */
};

/*
 * struct symbol - one function (or text label / object) of a binary.
 * Addresses are in the symbol space of the source: ELF virtual addresses for
 * user binaries (see symsrc_map_ip()), absolute addresses for the kernel.
 */
struct symbol {
	u64 start;	  /* first byte */
	u64 end;	  /* one past the last byte; > start after symtab_finish() except in
			     perf maps and with allow_aliases, where a zero-sized symbol
			     names just the address of its start (as perf) */
	const char *name; /* interned in the symtab's strpool: compare pointers; demangled
			     unless the loader was told not to */
	u8 binding;	  /* STB_LOCAL / STB_GLOBAL / STB_WEAK (kallsyms: lower case = local,
			     'W'/'V' = weak) */
	u8 type;	  /* STT_FUNC, STT_GNU_IFUNC, STT_NOTYPE, STT_OBJECT */
	u8 flags;	  /* enum symbol_flags */
	char ktype;	  /* kallsyms type letter ('T', 't', ...), 0 for ELF symbols */
};

/*
 * struct symtab - a sorted array of symbols. Build it with symtab_add() then
 * symtab_finish(); look up with symtab_find(). Names live in @pool, which is
 * borrowed (the session's pool, so equal names from different DSOs are the
 * same pointer).
 */
struct symtab {
	struct symbol *syms; /* owned; sorted by start after symtab_finish() */
	size_t nr_syms;
	size_t alloc_syms;
	u64 *max_end;	     /* owned: max_end[i] = max(syms[0..i].end), for nested symbols */
	u64 *starts;	     /* owned: starts[i] = syms[i].start, dense for the binary search */
	struct symtab_tree *tree; /* owned, NULL when no symbols overlap: perf's search tree */
	struct strpool *pool; /* borrowed */
	bool is_finished;
	bool allow_aliases;  /* keep every symbol at one address (perf record's mode) */
	bool keep_sizes;     /* no end fix-up: zero-sized symbols keep no size (perf maps) */
};

void symtab_init(struct symtab *st, struct strpool *pool);
void symtab_release(struct symtab *st);

/*
 * symtab_add - append a symbol; @name is interned (copied). @size 0 means
 * unknown: symtab_finish() extends it to the next symbol, as perf does.
 * Symbols flagged SYMBOL_PLT after the call are "late": like perf's
 * synthesized PLT entries they take no part in end fix-up and alias removal.
 * Returns the new symbol, valid until the next symtab_add().
 */
struct symbol *symtab_add(struct symtab *st, u64 start, u64 size, int binding, int type,
			  const char *name);

/*
 * symtab_finish - sort by address, give zero-sized symbols an end (the next
 * symbol's start, or the end of the page after the last one), then resolve
 * aliases (several names at one address) the way perf does: a sized symbol
 * over a zero-sized one, then non-weak over weak, global over local, fewer
 * leading underscores, longer name, then the first added. Ends are fixed
 * before aliases are dropped, as in perf, so of several zero-sized aliases
 * the last one wins. @is_kallsyms applies perf's kallsyms rule (no
 * extension from kernel into module space).
 */
void symtab_finish(struct symtab *st, bool is_kallsyms);

/*
 * symtab_find - the symbol containing @addr, or NULL. O(log n). Where
 * symbols overlap (nested symbols, a zero-sized symbol stretched over the
 * PLT entries added after it, allow_aliases) the answer is perf's: the
 * first symbol containing @addr on the search path of the red-black tree
 * perf would have built from the same insertions and removals, which may
 * also be none ("[unknown]") though some symbol covers @addr.
 */
const struct symbol *symtab_find(const struct symtab *st, u64 addr);
/*
 * symtab_check_tree - for tests: 0 when the table has no search tree or a
 * valid one (search order, red-black rules, every kept symbol in it once),
 * -EINVAL otherwise.
 */
int symtab_check_tree(const struct symtab *st);
/* symtab_find_by_name - linear search by (raw or demangled) name; NULL if absent. */
const struct symbol *symtab_find_by_name(const struct symtab *st, const char *name);

/* ------------------------------------------------------------------ */

/* struct symbol_opts - the user's choices for symbolization (perf's symbol_conf subset). */
struct symbol_opts {
	bool no_demangle;	/* --no-demangle: keep mangled names */
	bool demangle_params;	/* -v in report/script: "int ns::f<int>(int)" (else "ns::f<int>") */
	bool demangle_kernel;	/* --demangle-kernel */
	bool allow_aliases;	/* keep every alias (perf record / annotate use) */
	bool no_buildid_cache;	/* do not look in ~/.debug */
	bool no_debuginfod;	/* never ask debuginfod even when DEBUGINFOD_URLS is set */
	const char *symfs;	/* --symfs prefix, or NULL */
	const char *buildid_dir; /* build-id cache root; NULL: $PERF_BUILDID_DIR or ~/.debug */
	const char *kallsyms;	/* --kallsyms file, or NULL for /proc/kallsyms */
	const char *vmlinux;	/* -k/--vmlinux: the kernel image, or NULL (searched for) */
	bool ignore_vmlinux;	/* --ignore-vmlinux: neither -k's file nor a searched one */
	const char *kcore_dir;	/* perf.data's kcore_dir (record --kcore), or NULL */
};

/*
 * symbol_opts_foreign_root - --symfs names a root other than "/": another
 * machine's files. perf then uses neither this host's /proc/kallsyms nor
 * its build-id cache (observed: not even for the same kernel or binary).
 */
static inline bool symbol_opts_foreign_root(const struct symbol_opts *o)
{
	return o && o->symfs && o->symfs[strspn(o->symfs, "/")];
}

/* symbol_opts_use_cache - the build-id cache may be searched */
static inline bool symbol_opts_use_cache(const struct symbol_opts *o)
{
	return !o || (!o->no_buildid_cache && !symbol_opts_foreign_root(o));
}

enum symsrc_kind {
	SYMSRC_NONE = 0,     /* nothing loaded (yet, or nothing found) */
	SYMSRC_ELF,	     /* an ELF file (the binary, a debug file, a cache copy) */
	SYMSRC_VDSO,	     /* the vdso image */
	SYMSRC_PERF_MAP,     /* /tmp/perf-PID.map */
	SYMSRC_KALLSYMS,     /* /proc/kallsyms (kernel or one module) */
};

/* struct load_segment - one PT_LOAD program header. */
struct load_segment {
	u64 offset; /* p_offset */
	u64 vaddr;  /* p_vaddr */
	u64 filesz; /* p_filesz */
	u64 memsz;  /* p_memsz */
	bool is_exec; /* PF_X */
};

/*
 * struct symsrc_args - what the caller knows about the DSO to load.
 * Every field may be zero/NULL.
 */
struct symsrc_args {
	const struct symbol_opts *opts; /* NULL: defaults (demangle, no params) */
	const u8 *build_id;	/* the build-id recorded in perf.data (HEADER_BUILD_ID), or NULL */
	size_t build_id_size;
	int pid;		/* the process: for /proc/PID/root/<path> (containers),
				   perf-PID.map names; 0 when unknown */
	bool is_kernel;		/* [kernel.kallsyms] or a [module] */
};

/*
 * struct symsrc - the symbols of one DSO and how to reach them from a
 * sample address. Owned by the session's dso; freed with symsrc_free().
 */
struct symsrc {
	struct symtab symtab;
	enum symsrc_kind kind;
	int e_type;		/* ET_EXEC, ET_DYN, ET_REL (module .ko); 0 when not ELF */
	struct load_segment *segs; /* owned: PT_LOAD headers of the runtime binary */
	size_t nr_segs;
	u8 build_id[BUILD_ID_SIZE]; /* of the file found (0 size when none) */
	size_t build_id_size;
	char *path;		/* owned: the runtime file that was opened, or NULL */
	char *symbol_path;	/* owned: the file the symbols came from (may be a .debug file) */
	int status;		/* the result of the load: 0, -ENOENT (no file), -ESTALE
				   (build-id differs from the recorded one), -ENOTSUP (not ELF) */
	char *kcore_path;	/* owned: the kcore holding a kernel's code (kcore_dir's,
				   /proc/kcore), for annotate; NULL when none */
	bool kernel_image;	/* a vmlinux: ELF symbols, absolute addresses */
	bool is_loaded;		/* symsrc_load() ran (whatever its result) */
	bool has_symtab;	/* the symbols came from .symtab (not only .dynsym) */
};

/* symsrc_new - an empty source whose names go into @pool (borrowed). Never NULL. */
struct symsrc *symsrc_new(struct strpool *pool);
/* symsrc_free - free everything; NULL is fine. */
void symsrc_free(struct symsrc *ss);

/*
 * symsrc_load - load the symbols of the DSO named @name, once.
 * @name is what the MMAP record said: an absolute path, "[vdso]",
 * "[kernel.kallsyms]", "[module]", "/tmp/perf-PID.map", "//anon"...
 *
 * For a path it tries, in order: the build-id cache (when a build-id is
 * known), /proc/PID/root/<path> when that exists, <symfs>/<path>; then for
 * symbols it prefers a debug file (build-id: /usr/lib/debug/.build-id/xx/
 * yyy.debug, the cache's debug entry, .gnu_debuglink with CRC check in the
 * same dir, .debug/ and /usr/lib/debug/<dir>; debuginfod when
 * DEBUGINFOD_URLS is set) and adds MiniDebugInfo (.gnu_debugdata) symbols.
 * Returns 0, or -errno (also left in ss->status): -ENOENT nothing found,
 * -ESTALE the file on disk has another build-id than @args->build_id (the
 * symbols are not loaded then), -ENOTSUP not a DSO we can read. A second
 * call returns the first result without doing anything.
 */
int symsrc_load(struct symsrc *ss, const char *name, const struct symsrc_args *args);

/*
 * symsrc_load_kallsyms - fill @ss with the kernel's symbols, or with those of
 * module @module (NULL or "" for the kernel itself), from a kallsyms file
 * (args->opts->kallsyms or /proc/kallsyms). Parsed once per call; use
 * struct kallsyms (symbol/kallsyms.h) directly to split one parse between
 * many modules. Returns 0 or -errno (-EPERM: addresses are all zero,
 * kptr_restrict).
 */
int symsrc_load_kallsyms(struct symsrc *ss, const char *module, const struct symsrc_args *args);

/*
 * symsrc_load_kernel - fill @ss with the kernel image's symbols, from the
 * first of: -k's vmlinux (args->opts->vmlinux; nothing else is tried),
 * kcore_dir's kallsyms (its kcore in ss->kcore_path when it has one and a
 * modules file), a vmlinux with the recorded build-id (symbol/vmlinux.h),
 * kallsyms (symsrc_load_kallsyms(); then /proc/kcore in ss->kcore_path
 * when it is the running kernel's and readable). -k with --ignore-vmlinux:
 * kallsyms and no kcore, as perf. Returns 0 or -errno (-ESTALE: -k's file
 * has another build-id).
 */
int symsrc_load_kernel(struct symsrc *ss, const struct symsrc_args *args);

struct kallsyms;
/*
 * symsrc_take_kallsyms - fill @ss from an already parsed kallsyms (see
 * symbol/kallsyms.h): the kernel's table (@module NULL or "") or module
 * @module's ("ext4" or "[ext4]"). The table moves into @ss (its slot in
 * @ks is left empty), so a session parses kallsyms once for the kernel
 * and every module. Returns 0, or -ENOENT when @ks has no such module
 * (@ss is then loaded and empty).
 */
int symsrc_take_kallsyms(struct symsrc *ss, struct kallsyms *ks, const char *module);

/*
 * symsrc_map_ip - the address to look up for sample address @ip in a
 * mapping of this DSO at [@map_start, ...) with file offset @map_pgoff:
 * the file offset ip - map_start + map_pgoff translated to an ELF virtual
 * address through the PT_LOAD headers (ET_EXEC, PIE/ET_DYN and prelinked
 * binaries alike). Kernel and kallsyms sources use absolute addresses:
 * returns @ip. Without segments (perf-map, nothing loaded) returns the
 * file offset for DSOs, @ip for anonymous JIT maps.
 */
u64 symsrc_map_ip(const struct symsrc *ss, u64 map_start, u64 map_pgoff, u64 ip);
/* symsrc_unmap_ip - the inverse: a symbol address back to a runtime address. */
u64 symsrc_unmap_ip(const struct symsrc *ss, u64 map_start, u64 map_pgoff, u64 addr);

/* symsrc_find - the symbol containing @addr (a symsrc_map_ip() result), or NULL. */
const struct symbol *symsrc_find(const struct symsrc *ss, u64 addr);

/*
 * symsrc_strerror - a one-line reason for ss->status, for the caller's
 * single warning ("build-id mismatch for /usr/lib/libc.so.6", ...).
 * Writes into @buf and returns it.
 */
const char *symsrc_strerror(const struct symsrc *ss, const char *name, char *buf, size_t size);

/*
 * symbol_format_unknown - perf's text for an address without a symbol:
 * "[unknown]" when @raw_hex is false (perf script, callchains), else
 * "0x%016llx" as perf report's symbol column shows it. Returns @buf.
 */
const char *symbol_format_unknown(char *buf, size_t size, u64 addr, bool raw_hex);

/*
 * perf_map_load - parse a JIT map (/tmp/perf-PID.map: "START SIZE name" in
 * hex, with or without 0x; names may contain spaces; bad lines are skipped)
 * into @st (finished). As in perf, every entry is kept (re-JITted code at
 * a reused address included) and sizes are not fixed up, so a zero-sized
 * entry names only its own start address. Returns the number of symbols,
 * or -errno.
 */
int perf_map_load(struct symtab *st, const char *path);
/* perf_map_parse - the same from a buffer. Returns the number of symbols added. */
int perf_map_parse(struct symtab *st, const char *buf, size_t len);

/*
 * dso_name_is_perf_map - true for "/tmp/perf-1234.map" (sets *pid when
 * not NULL). perf report shows such a DSO as "[JIT] tid 1234".
 */
bool dso_name_is_perf_map(const char *name, int *pid);
/*
 * mmap_dso_name - the DSO perf makes of a mapping: executable anonymous
 * memory ("//anon", "/dev/zero", "/anon_hugepage", MAP_HUGETLB in @flags,
 * "[stack...", "/SYSV...", "[heap]") of process @pid is its JIT map
 * "/tmp/perf-PID.map"; anything else keeps @filename. @prot uses PROT_*
 * (an MMAP record without prot: pass PROT_EXEC unless it is a data mmap).
 * Returns @filename or @buf.
 */
const char *mmap_dso_name(const char *filename, int pid, u32 prot, u32 flags, char *buf,
			  size_t size);
/*
 * perf_map_short_name - perf report's short name for a perf-PID.map DSO:
 * "[JIT] tid PID" (the long name, shown by perf script and with -v, stays
 * "/tmp/perf-PID.map"). Returns @buf, or NULL when @name is not a perf map.
 */
const char *perf_map_short_name(const char *name, char *buf, size_t size);
/* dso_name_is_kernel - "[kernel.kallsyms]", "[guest.kernel.kallsyms...]", or a "[module]" (not [vdso] etc). */
bool dso_name_is_kernel(const char *name);
/* dso_name_is_special - names that are not files: "[vdso]", "[vsyscall]", "[heap]", "//anon", ... */
bool dso_name_is_special(const char *name);

#endif
