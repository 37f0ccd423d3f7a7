#!/bin/bash
# Adds the SPDX licence line to every source file of ours that lacks it (idempotent).
# C files: line 1 is /* SPDX-License-Identifier: MIT */, line 2 the purpose comment.
# Scripts: the SPDX comment follows the #! line.
cd "$(dirname "$0")/.." || exit 1
tag='SPDX-License-Identifier: MIT'
for f in $(git ls-files 'src/*.c' 'src/*.h' 'tests/unit/*.c' 'tests/unit/*.h' \
	'tests/workloads/*.c' 'tests/fuzz/*.c' 'bench/*.c'); do
	head -1 "$f" | grep -q "$tag" && continue
	sed -i "1i /* $tag */" "$f"
done
for f in $(git ls-files '*.sh' '*.py' '*.pl' '.ci/run'); do
	head -3 "$f" | grep -q "$tag" && continue
	if head -1 "$f" | grep -q '^#!'; then
		sed -i "1a # $tag" "$f"
	else
		sed -i "1i # $tag" "$f"
	fi
done
