/* SPDX-License-Identifier: MIT */
/* Whether the libraries sonde loads on first use (src/lib/lazy-libs.c) load on this machine. */
#ifndef SONDE_LIB_LAZY_LIBS_H
#define SONDE_LIB_LAZY_LIBS_H

#include <stdbool.h>

/* lazy_debuginfod_loadable - libdebuginfod.so.1 loads and has debuginfod_begin. */
bool lazy_debuginfod_loadable(void);
/* lazy_capstone_loadable - libcapstone.so.4 loads and has cs_disasm. */
bool lazy_capstone_loadable(void);
/* lazy_demangler_loadable - libstdc++.so.6 loads and has __cxa_demangle. */
bool lazy_demangler_loadable(void);

#endif
