#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Small stand-in of an ELF file for a symfs: symbol tables, notes, relocations and PLT kept, other contents dropped.
# Usage: elf-compact.py SRC DST. Dropped sections become NOBITS at their
# original offsets; the file ends after the last kept allocated section, then
# the kept non-allocated sections (.symtab, .strtab, ...) and the section headers.
import sys, struct
src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
SH = '<IIQQQQIIQQ'
shdrs = [list(struct.unpack_from(SH, b, shoff + i * shentsize)) for i in range(shnum)]
strtab = shdrs[shstrndx]
def name(off):
    s = strtab[4] + off
    return bytes(b[s:b.index(0, s)]).decode()
KEEP_TYPES = (2, 3, 7, 9, 11, 0x6ffffff6, 0x6ffffffd, 0x6ffffffe, 0x6fffffff)  # symtab strtab note rel dynsym gnu_hash verdef verneed versym
end = 0
for s in shdrs[1:]:
    n, t, fl = s[0], s[1], s[2]
    nm = name(n)
    keep = t in KEEP_TYPES or nm.startswith('.plt') or nm in ('.rela.plt', '.gnu_debuglink', '.gnu_debugaltlink')
    if t == 8:
        continue
    if not keep:
        s[1] = 8  # NOBITS
    elif fl & 2:
        end = max(end, s[4] + s[5])
# non-allocated kept sections and the section headers go after `end`
out = bytearray(b[:end])
for i, s in enumerate(shdrs):
    if i and s[1] != 8 and not (s[2] & 2):
        while len(out) % 8: out.append(0)
        data = b[s[4]:s[4] + s[5]]
        s[4] = len(out)
        out += data
while len(out) % 8: out.append(0)
newshoff = len(out)
for s in shdrs:
    out += struct.pack(SH, *s)
struct.pack_into('<Q', out, 0x28, newshoff)
open(dst, 'wb').write(out)
