/* SPDX-License-Identifier: MIT */
/* libpython3 loaded with dlopen on first use: the C API table (see python-lib.h). */
#include "ui/python-lib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>

struct pylib py;

#define PYLIB_SONAME "libpython3.11.so.1.0"

static int load_state; /* 0: not tried, 1: loaded, -1: failed */
static const char *load_error;

int pylib_load(const char **why)
{
	const char *soname = getenv("SONDE_LIBPYTHON");
	void *h;

	if (load_state) {
		*why = load_error;
		return load_state > 0 ? 0 : -ENOENT;
	}
	load_state = -1;
	/* global: the interpreter's own extension modules (lib-dynload) bind to it */
	h = dlopen(soname && *soname ? soname : PYLIB_SONAME, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		load_error = dlerror();
		*why = load_error;
		return -ENOENT;
	}
#define PYLIB_LOOKUP(name)                                               \
	py.name = (__typeof__(name) *)dlsym(h, #name);                     \
	if (!py.name) {                                                     \
		load_error = "a Python C API function is missing: " #name; \
		*why = load_error;                                          \
		return -ENOENT;                                             \
	}
	PYLIB_FUNCS(PYLIB_LOOKUP)
#undef PYLIB_LOOKUP
	py.none = dlsym(h, "_Py_NoneStruct");
	py.exc_runtime = *(PyObject **)dlsym(h, "PyExc_RuntimeError");
	py.exc_systemexit = *(PyObject **)dlsym(h, "PyExc_SystemExit");
	py.handle = h;
	load_state = 1;
	return 0;
}

PyObject *pylib_none(void)
{
	py.Py_IncRef(py.none);
	return py.none;
}

#if defined(__SANITIZE_ADDRESS__)
/*
 * The interpreter keeps memory to the end of the process by design (interned
 * objects, module state, what Py_FinalizeEx leaves): not sonde's leaks.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libpython3\n";
}

/* ... and no table of the suppressions used at exit (the test runner counts any output) */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif
