/* SPDX-License-Identifier: MIT */
/* A cached copy of a debug file with its compressed sections stored inflated. */
#ifndef SONDE_SYMBOL_DEBUG_INFLATE_H
#define SONDE_SYMBOL_DEBUG_INFLATE_H

/*
 * debug_inflated_open - a read-only fd of a copy of the ELF file @path whose
 * SHF_COMPRESSED sections are stored inflated, so that libdw does not
 * inflate them again on every open. The copy lives in
 * $XDG_CACHE_HOME/sonde/inflated (~/.cache/...), keyed by the file's device,
 * inode, size and mtime, and is made on first use. Returns the fd, or
 * -ENOENT when @path has no compressed section or no copy can be made (the
 * caller then reads @path itself).
 */
int debug_inflated_open(const char *path);

#endif
