#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Stand-ins for the kernel's code where /proc/kcore and vmlinux are missing.

kcore-fixture.py kcore KALLSYMS OUT
    an ELF core file like perf record --kcore's copy: one PT_LOAD over the
    kernel text (_stext to _etext of KALLSYMS) holding PATTERN repeated
kcore-fixture.py asm KALLSYMS OUT.s
    assembler text for a vmlinux of the same bytes at _stext, with the text
    symbols of KALLSYMS (link with ld -Ttext=<_stext>)

PATTERN is 64 bytes of whole instructions in 16-byte blocks, so that code
starting at any 16-byte aligned symbol decodes the same in objdump and sonde:
prologue and a short jump, a locked cmpxchg and a cs-prefixed call (the
kernel's thunk calls) and int3 padding, a rip-relative lea, a tail jump and
a two-byte nop, a call, arithmetic, a jump back, a return and a nop.
"""
import struct
import sys

PATTERN = bytes.fromhex(
    "55" "4889e5" "488b4710" "4885c0" "7403" "0f1f00"          # A: push, mov, mov, test, je, nopl
    "f0480fb10e" "2ee800f0ffff" "c3" "cccccccc"                 # B: lock cmpxchg, cs call back 4K, ret, int3
    "488d0500010000" "e900200000" "6690" "9090"                 # C: lea rip, jmp ahead 8K, xchg ax,ax, nops
    "e800100000" "31c0" "4883c408" "5d" "75f0" "c3" "90")       # D: call ahead 4K, xor, add, pop, jne back, ret, nop
assert len(PATTERN) == 64


def text_range(kallsyms):
    """(_stext, _etext) of a kallsyms file"""
    addr = {}
    with open(kallsyms) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[2] in ("_stext", "_etext"):
                addr[p[2]] = int(p[0], 16)
    return addr["_stext"], addr["_etext"]


def write_kcore(kallsyms, out):
    start, end = text_range(kallsyms)
    size = end - start
    off = 0x1000
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    eh += struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, 64, 0, 0, 64, 56, 1, 64, 0, 0)
    ph = struct.pack("<IIQQQQQQ", 1, 5, off, start, 0, size, size, 0x1000)
    body = PATTERN * (size // len(PATTERN) + 1)
    with open(out, "wb") as f:
        f.write(eh + ph + bytes(off - len(eh) - len(ph)))
        f.write(body[:size])


def write_asm(kallsyms, out):
    start, end = text_range(kallsyms)
    syms = []
    with open(kallsyms) as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and p[1] in "Tt":
                a = int(p[0], 16)
                if start <= a < end:
                    syms.append((a, p[1], p[2]))
    syms.sort()
    reps = (end - start) // len(PATTERN) + 1
    # each symbol's end: the next higher start (one pass from the end: no slices)
    ends = [end] * len(syms)
    nxt = end
    for i in range(len(syms) - 1, -1, -1):
        ends[i] = nxt
        if i and syms[i - 1][0] < syms[i][0]:
            nxt = syms[i][0]
    seen = set()
    with open(out, "w") as f:
        f.write('\t.section .text,"ax",@progbits\n_fixture_base:\n')
        f.write("\t.rept %d\n\t.byte %s\n\t.endr\n" % (reps, ",".join("0x%02x" % b for b in PATTERN)))
        for i, (a, t, n) in enumerate(syms):
            if n in seen or not n.replace("_", "a").replace(".", "a").isalnum():
                continue
            seen.add(n)
            nxt = ends[i]
            if t == "T":
                f.write("\t.globl %s\n" % n)
            f.write("\t.type %s,@function\n\t.set %s, _fixture_base + 0x%x\n\t.size %s, 0x%x\n"
                    % (n, n, a - start, n, nxt - a))


if __name__ == "__main__":
    what, kallsyms, out = sys.argv[1:4]
    {"kcore": write_kcore, "asm": write_asm}[what](kallsyms, out)
