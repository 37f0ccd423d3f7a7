#!/bin/sh
# SPDX-License-Identifier: MIT
# Mask what depends on the running kernel rather than on the fixture:
# kernel symbol names (KASLR, kernel updates) become KSYM.
exec sed -E 's/ [^ ]+ \(\[kernel\.kallsyms\]\)/ KSYM ([kernel.kallsyms])/'
