/* SPDX-License-Identifier: MIT */
/*
 * DWARF for sonde probe (libdw): functions and their inlined copies by
 * name, the probe-able lines of a function or a source file, the
 * addresses of a source line, the variables live at an address and the
 * uprobe fetch argument that reads a variable (registers, frame-base and
 * stack slots, globals, struct members, array elements).
 */
#ifndef SONDE_SYMBOL_PROBE_DWARF_H
#define SONDE_SYMBOL_PROBE_DWARF_H

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "symbol/probe-binary.h"

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>

/* struct probe_dwarf_func - one function DWARF knows by a name, or one inlined copy of it. */
struct probe_dwarf_func {
	Dwarf_Die die;	    /* the subprogram, or the inlined_subroutine */
	Dwarf_Die cu;
	const char *name;   /* the function's name */
	const char *file;   /* its declaring file, as the line table names it */
	int decl_line;
	u64 entry;	    /* entry address */
	bool is_inlined;    /* @die is an inlined copy inside @caller */
	Dwarf_Die caller;   /* the concrete subprogram around the point (itself if not inlined) */
	const char *caller_name;
	u64 caller_entry;
	bool is_optimized;  /* the CU's producer names an -O level other than -O0 */
};

/*
 * probe_dwarf_find_funcs - the concrete functions named @name (declared in
 * a file ending in @file when not NULL), and with @inlines their inlined
 * copies, in DWARF order. *@out is malloc'ed; returns how many or -errno.
 */
int probe_dwarf_find_funcs(struct probe_binary *pb, const char *name, const char *file,
			   bool inlines, struct probe_dwarf_func **out);

/*
 * probe_dwarf_func_at - the concrete function around @addr into @fn (with
 * the inlined copy @addr is in, when one is). Returns 0 or -ENOENT.
 */
int probe_dwarf_func_at(struct probe_binary *pb, u64 addr, struct probe_dwarf_func *fn);

/* struct probe_lines - the lines probe-able in a listing range (1-based, absolute). */
struct probe_lines {
	char *path;	/* owned: the source file */
	bool *is_probe; /* owned: indexed by line, up to @nr_lines */
	int nr_lines;
	int last;	/* the highest probe-able line, 0 for none */
};

/*
 * probe_dwarf_func_lines - the probe-able lines of @fn: the line-table
 * statements inside it, an entry counted on the declaration line and code
 * of an inlined call on the call's line. Returns 0 or -errno.
 */
int probe_dwarf_func_lines(struct probe_binary *pb, const struct probe_dwarf_func *fn,
			   struct probe_lines *pl);
/*
 * probe_dwarf_inlined_lines - a function that exists only inlined, as perf
 * lists it: for each copy in @fns, the line of the first statement at the
 * copy's lowest address. Returns 0 or -ENOENT.
 */
int probe_dwarf_inlined_lines(struct probe_binary *pb, const struct probe_dwarf_func *fns,
			      size_t nr, struct probe_lines *pl);
/*
 * probe_dwarf_file_lines - the same for every function in the source file
 * ending in @file. Returns 0, or -ENOENT (no such file in the DWARF).
 */
int probe_dwarf_file_lines(struct probe_binary *pb, const char *file, struct probe_lines *pl);
void probe_lines_release(struct probe_lines *pl);

/*
 * probe_dwarf_stmt_line_at - the line of the first line-table statement at
 * @addr in @fn's CU (the line perf names when several share it), or 0.
 */
int probe_dwarf_stmt_line_at(const struct probe_dwarf_func *fn, u64 addr);

/*
 * probe_dwarf_line_addrs - the distinct addresses of line-table statements
 * of @line in the file @path (full name, as the line table gives it),
 * restricted to @fn's code when not NULL, ascending. *@addrs is malloc'ed;
 * returns how many or -errno.
 */
int probe_dwarf_line_addrs(struct probe_binary *pb, const char *path, int line,
			   const struct probe_dwarf_func *fn, u64 **addrs);

/*
 * probe_dwarf_lazy_addrs - perf's lazy pattern (;PTN): the addresses of the
 * line-table statements whose source line in @path, blanks removed,
 * matches the glob @pattern (blanks removed). Inside @fn, code inlined into
 * it does not count; in a whole file, functions declared on a matching
 * line follow with their entries. *@addrs malloc'ed; returns how many or
 * -errno (the source file cannot be read).
 */
int probe_dwarf_lazy_addrs(struct probe_binary *pb, const char *path, const char *pattern,
			   const struct probe_dwarf_func *fn, u64 **addrs);

/*
 * probe_dwarf_find_file - the full name of the first source file in the
 * line tables that ends in @file (at a '/' boundary). Returns a string
 * owned by libdw or NULL.
 */
const char *probe_dwarf_find_file(struct probe_binary *pb, const char *file);

/*
 * probe_dwarf_after_prologue - the address of the first line-table row
 * after @fn's entry (perf's prologue skip for unoptimized code), or the
 * entry when there is none.
 */
u64 probe_dwarf_after_prologue(struct probe_binary *pb, const struct probe_dwarf_func *fn);

/*
 * probe_dwarf_vars - the variables and parameters live at @addr in the
 * scopes of @fn (and with @externs the CU's globals), each as
 * "TYPE\tNAME" in perf's type-name style, sorted. @flags: PROBE_VARS_EXTERN
 * for the globals, PROBE_VARS_RANGE for --range's "[VAL]\tTYPE\tNAME\t@<F+[..]>"
 * ("[INV]" for variables whose location list misses @addr, "[EXT]\tTYPE\tNAME"
 * for globals).
 * Returns 0 or -errno.
 */
#define PROBE_VARS_EXTERN 1u
#define PROBE_VARS_RANGE 2u
int probe_dwarf_vars(struct probe_binary *pb, const struct probe_dwarf_func *fn, u64 addr,
		     unsigned int flags, struct strvec *out);

/* struct probe_dwarf_error - why an argument could not be located (perf's text, no newline). */
struct probe_dwarf_error {
	char msg[320];
	char warn[480]; /* warnings perf prints even on success, one a line ("" for none) */
};

/*
 * probe_dwarf_arg - the uprobe fetch argument "NAME=FETCH[:TYPE]" for the
 * variable expression @expr (VAR, VAR->F, VAR.F, VAR[N] chained) with the
 * optional @type and @name, at @addr inside @fn. "$params" and "$vars"
 * expand to every live parameter / variable, space separated. With
 * @multi (one of several points of a spec) a variable without a location
 * at @addr reads perf's marker "\\deade12d", one out of scope is refused.
 * Returns 0 or -errno with @err set (-ENOENT: not live, -EINVAL: bad
 * member access, -EOPNOTSUPP: a struct in a register).
 */
int probe_dwarf_arg(struct probe_binary *pb, const struct probe_dwarf_func *fn, u64 addr,
		    bool multi, const char *expr, const char *type, const char *name, struct strbuf *out,
		    struct probe_dwarf_error *err);

#endif
