#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Turn some samples of a perf.data file (the non-pipe layout) into guest samples, in place.
"""Usage: guest-samples.py FILE

The machine may run no KVM guest that perf can sample (t9631), so a host
recording stands in: every third sample of FILE becomes a guest-kernel one
and every third after it a guest-user one (the cpumode bits of the record
header's misc), the rest stay host samples. The addresses are left as they
are: what the tests check is which side each sample is shown on.
Prints the number of samples of each kind: "host N guest-kernel N guest-user N".
"""
import struct
import sys

SAMPLE = 9
CPUMODE_MASK = 7
GUEST_KERNEL = 4
GUEST_USER = 5


def main(path):
    with open(path, "r+b") as f:
        head = f.read(104)
        if head[:8] != b"PERFILE2":
            sys.exit("%s: not a perf.data file" % path)
        # magic, header size, attr size, attrs section, data section
        data_off, data_size = struct.unpack_from("<QQ", head, 40)
        f.seek(data_off)
        data = bytearray(f.read(data_size))
        pos = 0
        nr = 0
        counts = {"host": 0, "guest-kernel": 0, "guest-user": 0}
        while pos + 8 <= len(data):
            typ, misc, size = struct.unpack_from("<IHH", data, pos)
            if size < 8:
                break
            if typ == SAMPLE:
                kind = nr % 3
                nr += 1
                if kind:
                    mode = GUEST_KERNEL if kind == 1 else GUEST_USER
                    misc = (misc & ~CPUMODE_MASK) | mode
                    struct.pack_into("<H", data, pos + 4, misc)
                    counts["guest-kernel" if kind == 1 else "guest-user"] += 1
                else:
                    counts["host"] += 1
            pos += size
        f.seek(data_off)
        f.write(data)
    print(" ".join("%s %d" % kv for kv in counts.items()))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
