/* SPDX-License-Identifier: MIT */
/* Symbol name demangling: C++ (Itanium ABI), Rust legacy and Rust v0. */
#ifndef SONDE_SYMBOL_DEMANGLE_H
#define SONDE_SYMBOL_DEMANGLE_H

#include <stdbool.h>

enum demangle_flags {
	/*
	 * Keep parameters and return types ("int ns::f<int>(int)"). Without it
	 * the result is what perf report prints by default: "ns::f<int>".
	 */
	DEMANGLE_PARAMS = (1 << 0),
};

/*
 * demangle - the human name for @mangled ("_Z...", "_R...", "_ZN...17h<hash>E"),
 * or NULL when it is not a mangled name we can decode. Rust legacy names
 * lose their "::h<hash>" suffix, as perf prints them. Returns a malloc'ed
 * string owned by the caller.
 */
char *demangle(const char *mangled, int flags);

/* demangle_is_mangled - cheap check: could @name be a C++ or Rust mangled name? */
bool demangle_is_mangled(const char *name);

/*
 * rust_demangle_v0 - decode a Rust v0 symbol ("_R..."); @verbose keeps the
 * crate disambiguators and generic args as rustc-demangle's "{:#}" does not.
 * Returns a malloc'ed string or NULL when malformed.
 */
char *rust_demangle_v0(const char *mangled, bool verbose);

#endif
