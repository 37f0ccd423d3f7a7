// SPDX-License-Identifier: MIT
// The source file perf probe --list shows after '@': the declaring file of the function at an address.
#include "symbol/probe-dwarf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int probe_dwarf_decl_file(struct strbuf *out, const char *path, u64 vaddr)
{
	Dwarf_Die cu, *scopes = NULL;
	const char *file = NULL;
	Dwarf *dw;
	int fd, n, ret = -ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw)
		goto out_close;
	if (!dwarf_addrdie(dw, vaddr, &cu))
		goto out_end;
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	/* the outermost function: inlined bodies belong to their caller */
	for (int i = n - 1; i >= 0 && !file; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			file = dwarf_decl_file(&scopes[i]);
	if (!file) {
		Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);

		if (line)
			file = dwarf_linesrc(line, NULL, NULL);
	}
	if (file) {
		strbuf_addstr(out, file);
		ret = 0;
	}
	free(scopes);
out_end:
	dwarf_end(dw);
out_close:
	close(fd);
	return ret;
}
