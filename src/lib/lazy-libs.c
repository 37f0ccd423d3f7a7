/* SPDX-License-Identifier: MIT */
/*
 * Libraries loaded on first use instead of at start-up: libdebuginfod
 * (its libcurl/gnutls/krb5/ldap dependencies cost 10-20 ms per run),
 * libcapstone (80,000 relocations: ~1.2 ms per run) and libstdc++ (only
 * for __cxa_demangle: ~0.5 ms). sonde's commands start in well under a
 * millisecond that way; elfutils' libdw loads libdebuginfod the same lazy
 * way. These definitions stand in for the entry points sonde calls and
 * forward to the real library through dlopen/dlsym. When a library is
 * missing the calls fail cleanly (NULL client, CS_ERR_MEM, NULL name).
 */
#include "lib/lazy-libs.h"

#include <capstone/capstone.h>
#include <elfutils/debuginfod.h>

#include <dlfcn.h>
#include <pthread.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

/*
 * lazy_sym - the symbol @name of library @soname (dlopen'ed once), or NULL.
 * Safe from two threads (annotate opens a disassembler on a second one).
 */
static void *lazy_sym(void **handle, int *state, const char *soname, const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int st = __atomic_load_n(state, __ATOMIC_ACQUIRE);

	if (st == 0) {
		pthread_mutex_lock(&lock);
		st = __atomic_load_n(state, __ATOMIC_ACQUIRE);
		if (st == 0) {
			*handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
			st = *handle ? 1 : -1;
			__atomic_store_n(state, st, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&lock);
	}
	return st > 0 ? dlsym(*handle, name) : NULL;
}

/* ---- libdebuginfod ---- */
static void *dinfod;
static int dinfod_state;
#define DINFOD(type, name) ((type)lazy_sym(&dinfod, &dinfod_state, "libdebuginfod.so.1", name))

debuginfod_client *debuginfod_begin(void)
{
	debuginfod_client *(*fn)(void) = DINFOD(debuginfod_client * (*)(void), "debuginfod_begin");

	return fn ? fn() : NULL;
}

void debuginfod_end(debuginfod_client *client)
{
	void (*fn)(debuginfod_client *) = DINFOD(void (*)(debuginfod_client *), "debuginfod_end");

	if (client && fn)
		fn(client);
}

typedef int (*dinfod_find_fn)(debuginfod_client *, const unsigned char *, int, char **);

int debuginfod_find_debuginfo(debuginfod_client *client, const unsigned char *build_id,
			      int build_id_len, char **path)
{
	dinfod_find_fn fn = DINFOD(dinfod_find_fn, "debuginfod_find_debuginfo");

	return client && fn ? fn(client, build_id, build_id_len, path) : -ENOSYS;
}

int debuginfod_find_executable(debuginfod_client *client, const unsigned char *build_id,
			       int build_id_len, char **path)
{
	dinfod_find_fn fn = DINFOD(dinfod_find_fn, "debuginfod_find_executable");

	return client && fn ? fn(client, build_id, build_id_len, path) : -ENOSYS;
}

bool lazy_debuginfod_loadable(void)
{
	return DINFOD(void *, "debuginfod_begin") != NULL;
}

/* ---- libcapstone ---- */
static void *capstone;
static int capstone_state;
#define CAPSTONE(type, name) ((type)lazy_sym(&capstone, &capstone_state, "libcapstone.so.4", name))

cs_err cs_open(cs_arch arch, cs_mode mode, csh *handle)
{
	cs_err (*fn)(cs_arch, cs_mode, csh *) = CAPSTONE(cs_err(*)(cs_arch, cs_mode, csh *), "cs_open");

	return fn ? fn(arch, mode, handle) : CS_ERR_MEM;
}

cs_err cs_close(csh *handle)
{
	cs_err (*fn)(csh *) = CAPSTONE(cs_err(*)(csh *), "cs_close");

	return fn ? fn(handle) : CS_ERR_HANDLE;
}

size_t cs_disasm(csh handle, const uint8_t *code, size_t code_size, uint64_t address,
		 size_t count, cs_insn **insn)
{
	size_t (*fn)(csh, const uint8_t *, size_t, uint64_t, size_t, cs_insn **) =
		CAPSTONE(size_t(*)(csh, const uint8_t *, size_t, uint64_t, size_t, cs_insn **),
			 "cs_disasm");

	return fn ? fn(handle, code, code_size, address, count, insn) : 0;
}

void cs_free(cs_insn *insn, size_t count)
{
	void (*fn)(cs_insn *, size_t) = CAPSTONE(void (*)(cs_insn *, size_t), "cs_free");

	if (fn)
		fn(insn, count);
}

cs_err cs_option(csh handle, cs_opt_type type, size_t value)
{
	cs_err (*fn)(csh, cs_opt_type, size_t) =
		CAPSTONE(cs_err(*)(csh, cs_opt_type, size_t), "cs_option");

	return fn ? fn(handle, type, value) : CS_ERR_HANDLE;
}

const char *cs_reg_name(csh handle, unsigned int reg_id)
{
	const char *(*fn)(csh, unsigned int) =
		CAPSTONE(const char *(*)(csh, unsigned int), "cs_reg_name");

	return fn ? fn(handle, reg_id) : NULL;
}

const char *cs_insn_name(csh handle, unsigned int insn_id)
{
	const char *(*fn)(csh, unsigned int) =
		CAPSTONE(const char *(*)(csh, unsigned int), "cs_insn_name");

	return fn ? fn(handle, insn_id) : NULL;
}

cs_insn *cs_malloc(csh handle)
{
	cs_insn *(*fn)(csh) = CAPSTONE(cs_insn * (*)(csh), "cs_malloc");

	return fn ? fn(handle) : NULL;
}

bool cs_disasm_iter(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
		    cs_insn *insn)
{
	bool (*fn)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *) =
		CAPSTONE(bool (*)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *),
			 "cs_disasm_iter");

	return fn ? fn(handle, code, size, address, insn) : false;
}

bool lazy_capstone_loadable(void)
{
	return CAPSTONE(void *, "cs_disasm") != NULL;
}

/* ---- libstdc++: the demangler ---- */
static void *stdcxx;
static int stdcxx_state;

bool lazy_demangler_loadable(void)
{
	return lazy_sym(&stdcxx, &stdcxx_state, "libstdc++.so.6", "__cxa_demangle") != NULL;
}

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status)
{
	char *(*fn)(const char *, char *, size_t *, int *) =
		(char *(*)(const char *, char *, size_t *, int *))lazy_sym(
			&stdcxx, &stdcxx_state, "libstdc++.so.6", "__cxa_demangle");

	if (!fn) {
		if (status)
			*status = -1; /* as the runtime reports a failed allocation */
		return NULL;
	}
	return fn(mangled, buf, len, status);
}
