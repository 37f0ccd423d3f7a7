/* SPDX-License-Identifier: MIT */
/*
 * ELF access through libelf: build-ids, PT_LOAD segments, symbol tables
 * (.symtab/.dynsym, PLT entries, MiniDebugInfo), debug files and the
 * build-id cache layout.
 */
#ifndef SONDE_SYMBOL_ELF_H
#define SONDE_SYMBOL_ELF_H

#include "lib/strbuf.h"
#include "lib/util.h"
#include "symbol/symtab.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * buildid_read_path - the build-id of the ELF file at @path, from its
 * .note.gnu.build-id (via the program headers' PT_NOTE, so it does not
 * load any symbol table). Copies up to @size bytes into @bid.
 * Returns the build-id length, or -errno (-ENOENT no file, -ENOTSUP not
 * ELF, -ENODATA no build-id note).
 */
int buildid_read_path(const char *path, u8 *bid, size_t size);
/* buildid_read_mem - the same for an ELF image in memory (the vdso). */
int buildid_read_mem(const void *image, size_t len, u8 *bid, size_t size);
/*
 * buildid_parse_notes - the GNU build-id from a raw notes blob (the format
 * of /sys/kernel/notes and /sys/module/NAME/notes/.note.gnu.build-id).
 * Returns the length or -ENODATA.
 */
int buildid_parse_notes(const void *notes, size_t len, u8 *bid, size_t size);
/* buildid_read_kernel - the running kernel's build-id from /sys/kernel/notes. */
int buildid_read_kernel(u8 *bid, size_t size);
/* buildid_read_module - a loaded module's build-id from /sys/module/@name/notes. */
int buildid_read_module(const char *name, u8 *bid, size_t size);

/* buildid_to_hex - lower-case hex into @out (2*len+1 bytes). Returns @out. */
char *buildid_to_hex(const u8 *bid, size_t len, char *out);
/* buildid_from_hex - parse hex; returns the length in bytes or -EINVAL. */
int buildid_from_hex(const char *hex, u8 *bid, size_t size);

/*
 * buildid_dir - the build-id cache root: @opts->buildid_dir, else
 * $PERF_BUILDID_DIR, else $HOME/.debug. Returns a malloc'ed string.
 */
char *buildid_dir(const struct symbol_opts *opts);
/*
 * buildid_cache_link - append perf's cache link path for @bid to @out:
 * <dir>/.build-id/<first 2 hex>/<the other hex>. perf 6.1 points it to
 * ../../<path>/<hex>, a directory holding "elf" ("kallsyms" for the
 * kernel, "vdso") and maybe "debug". Returns 0 or -EINVAL (empty build-id).
 */
int buildid_cache_link(struct strbuf *out, const char *dir, const u8 *bid, size_t len);
/*
 * buildid_cache_find - an existing cached file for @bid: the "elf" (or
 * "kallsyms", "vdso") file of its cache directory, or with @want_debug
 * the "debug" file. Links straight to a file (older perfs) work too.
 * Returns 0 with the path appended to @out, or -ENOENT.
 */
int buildid_cache_find(struct strbuf *out, const char *dir, const u8 *bid, size_t len,
		       bool want_debug);

/*
 * buildid_cache_add - store @src (NULL: the file @name itself) in the cache
 * at @dir under its recorded name @name ("/usr/bin/ls", "[kernel.kallsyms]",
 * "[vdso]") and build-id @bid, in perf 6.1's layout:
 * <dir>/<name>/<hex>/{elf|kallsyms|vdso}, an empty "probes" file, "debug"
 * when /usr/lib/debug/.build-id has the distribution's debug file, and the
 * link <dir>/.build-id/<xx>/<rest> -> ../../<name>/<hex>. Files are hard
 * linked when possible, else copied; existing entries are kept.
 * Returns 0 or -errno.
 */
int buildid_cache_add(const char *dir, const char *name, const char *src, const u8 *bid,
		      size_t len);

/* gnu_debuglink_crc32 - the CRC of .gnu_debuglink (zlib's crc32, seed 0) over @len bytes. */
u32 gnu_debuglink_crc32(u32 crc, const void *buf, size_t len);

/*
 * debugfile_find - a separate debug file for the binary @path whose
 * build-id is @bid (may be NULL): /usr/lib/debug/.build-id/xx/yyy.debug,
 * the cache's debug entry, .gnu_debuglink (CRC checked) next to the
 * binary, in .debug/ and in /usr/lib/debug/<dir>, /usr/lib/debug/<path>,
 * then debuginfod when DEBUGINFOD_URLS is set (and opts allow).
 * @root prefixes every absolute path (symfs or /proc/PID/root), may be NULL.
 * Returns 0 with the path appended to @out, or -ENOENT.
 */
int debugfile_find(struct strbuf *out, const char *path, const char *root, const u8 *bid,
		   size_t bid_len, const struct symbol_opts *opts);

/*
 * debuginfod_find - fetch the debug file (or the executable with
 * @executable) for @bid through libdebuginfod when DEBUGINFOD_URLS is set.
 * Returns 0 with the local cached path appended to @out, or -errno
 * (-ENOSYS when DEBUGINFOD_URLS is unset).
 */
int debuginfod_find(struct strbuf *out, const u8 *bid, size_t len, bool executable);

/*
 * struct elf_syms_info - facts about the ELF file that was read.
 */
struct elf_syms_info {
	int e_type;		    /* ET_EXEC / ET_DYN / ET_REL */
	struct load_segment *segs;  /* owned by the caller after the call (free()) */
	size_t nr_segs;
	u8 build_id[BUILD_ID_SIZE];
	size_t build_id_size;
	bool has_symtab;	    /* .symtab present (not only .dynsym) */
	bool has_debuglink;	    /* .gnu_debuglink present */
	bool has_minidebuginfo;	    /* .gnu_debugdata present */
	bool has_debug_info;	    /* .debug_info present (for srcline) */
};

/*
 * elf_read_info - PT_LOAD headers and e_type of @path (no symbols).
 * @info->segs is allocated. Returns 0 or -errno.
 */
int elf_read_info(const char *path, struct elf_syms_info *info);

/*
 * elf_load_symbols - add the symbols perf keeps from the ELF file at @path
 * to @st (not finished: the caller may add more, then symtab_finish()):
 * .symtab if present, else .dynsym; FUNC and GNU_IFUNC with a name and a
 * section, OBJECT symbols, NOTYPE labels in executable sections; "name@plt"
 * for each .rela.plt entry (.plt / .plt.sec); MiniDebugInfo's symbols when
 * .gnu_debugdata is there and .symtab is not. Names are demangled per
 * @opts. Fills @info when not NULL (segs allocated). Returns the number of
 * symbols added, or -errno.
 */
int elf_load_symbols(struct symtab *st, const char *path, const struct symbol_opts *opts,
		     struct elf_syms_info *info);
/* elf_load_symbols_mem - the same for an in-memory image (vdso, MiniDebugInfo). */
int elf_load_symbols_mem(struct symtab *st, const void *image, size_t len,
			 const struct symbol_opts *opts, struct elf_syms_info *info);
/*
 * elf_load_plt - only the "name@plt" symbols of @path (used when the
 * symbols came from a debug file, which has no usable .plt contents).
 */
int elf_load_plt(struct symtab *st, const char *path, const struct symbol_opts *opts);

/*
 * elf_offset_to_vaddr - translate a file offset to a virtual address
 * through PT_LOAD segments. Returns true and sets *vaddr when @off falls in a
 * segment's file image (executable segments first), false otherwise.
 */
bool elf_offset_to_vaddr(const struct load_segment *segs, size_t nr, u64 off, u64 *vaddr);
/* elf_vaddr_to_offset - the inverse. */
bool elf_vaddr_to_offset(const struct load_segment *segs, size_t nr, u64 vaddr, u64 *off);

/*
 * vdso_read_self - copy this process's [vdso] (from /proc/self/maps) into
 * a malloc'ed buffer. Returns 0 with @image and @len set (caller frees), or -errno.
 */
int vdso_read_self(void **image, size_t *len);

#endif
