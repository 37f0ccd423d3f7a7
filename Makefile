# sonde: one non-recursive makefile. See README.md for the targets.
VERSION := 0.1.0
# Output directories: several builds can live side by side (make O=build-x check-fast).
O ?= build
AO ?= $(O)-asan
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libelf libdw libtraceevent capstone libzstd liblzma ncursesw libdebuginfod python3-embed zlib

# Evaluated once, when make reads this file: a target that installs the packages
# (demo) re-runs make afterwards, and a build without them stops at pkg-check.
# libbsd: only its header-only <sys/tree.h> is used (compile flags, no link).
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) libbsd 2>/dev/null || echo PKG-MISSING)
# libdebuginfod, capstone and libstdc++ are loaded on first use (src/lib/lazy-libs.c),
# not linked: loading them would cost every command 2-20 ms at start-up.
# python3-embed: headers only; libpython is dlopen'ed by script -s (src/ui/python-lib.c).
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(filter-out libdebuginfod capstone python3-embed,$(PKGS)) 2>/dev/null || echo PKG-MISSING)
PKG_MISSING := $(filter PKG-MISSING,$(PKG_CFLAGS) $(PKG_LIBS))
PKG_CFLAGS := $(filter-out PKG-MISSING,$(PKG_CFLAGS))
PKG_LIBS := $(filter-out PKG-MISSING,$(PKG_LIBS))
INSTALL_DEPS ?= tools/install-deps.sh
DEMO ?= tools/demo.sh

WARN := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wshadow=local
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -DSONDE_VERSION='"$(VERSION)"' -Isrc $(PKG_CFLAGS) $(WARN)
CFLAGS ?= -O2 -g
LDLIBS := $(PKG_LIBS) -lm -lpthread -ldl

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

SRCS := $(sort $(wildcard src/*.c src/*/*.c))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
TEST_SRCS := $(sort $(wildcard tests/unit/*.c))
WORKLOAD_SRCS := $(sort $(wildcard tests/workloads/*.c))

OBJS := $(SRCS:%.c=$(O)/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(O)/%.o)
AOBJS := $(SRCS:%.c=$(AO)/%.o)
ALIB_OBJS := $(LIB_SRCS:%.c=$(AO)/%.o)
ATEST_OBJS := $(TEST_SRCS:%.c=$(AO)/%.o)
WORKLOADS := $(WORKLOAD_SRCS:tests/workloads/%.c=$(O)/workloads/%)

all: $(O)/sonde $(O)/perf

$(O)/sonde: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(O)/perf: | $(O)/sonde
	ln -sf sonde $@

$(O)/%.o: %.c | pkg-check
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(O)/unit-tests: $(LIB_OBJS) $(TEST_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(AO)/sonde: $(AOBJS)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS)

$(AO)/perf: | $(AO)/sonde
	ln -sf sonde $@

$(AO)/unit-tests: $(ALIB_OBJS) $(ATEST_OBJS)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS)

$(AO)/%.o: %.c | pkg-check
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(ASAN_FLAGS) -MMD -MP -c -o $@ $<

# sonde trace's syscall, errno and flag tables: generated from the machine's uapi
# headers (linux-libc-dev) into the build dir, included by src/trace/syscall-tbl.c only.
TRACE_GEN_FLAGS = -I$(@D)/../../gen -DTRACE_GEN_TABLES='"trace-tables-gen.h"'
$(O)/gen/trace-tables-gen.h $(AO)/gen/trace-tables-gen.h: tools/gen-trace-tables.sh
	@mkdir -p $(dir $@)
	CC="$(CC)" tools/gen-trace-tables.sh $@
$(O)/src/trace/syscall-tbl.o: $(O)/gen/trace-tables-gen.h
$(AO)/src/trace/syscall-tbl.o: $(AO)/gen/trace-tables-gen.h
$(O)/src/trace/syscall-tbl.o $(AO)/src/trace/syscall-tbl.o: BASE_CFLAGS += $(TRACE_GEN_FLAGS)

# The fuzz target without libFuzzer: replays inputs (tests/fuzz/regressions) in make check.
$(O)/fuzz-replay: tests/fuzz/fuzz-reader.c $(LIB_OBJS) | pkg-check
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -DFUZZ_STANDALONE -o $@ $< $(LIB_OBJS) $(LDLIBS)

$(AO)/fuzz-replay: tests/fuzz/fuzz-reader.c $(ALIB_OBJS) | pkg-check
	$(CC) $(BASE_CFLAGS) $(ASAN_FLAGS) -DFUZZ_STANDALONE -o $@ $< $(ALIB_OBJS) $(LDLIBS)

# Small programs the live tests profile: frame pointers kept, symbols kept.
$(O)/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fno-omit-frame-pointer -fno-inline -o $@ $< -lm -lpthread

workloads: $(WORKLOADS)

asan: $(AO)/sonde $(AO)/perf $(AO)/unit-tests $(AO)/fuzz-replay

# check builds in a sub-make with a job per CPU unless -j was given (the README's
# and CI's `make check` has none: a serial build took twice as long)
CHECK_J = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

check:
	@$(MAKE) --no-print-directory $(CHECK_J) all $(O)/unit-tests $(O)/fuzz-replay asan workloads
	@O=$(O) AO=$(AO) tests/run.sh

# Quick loop for development: no ASan build.
check-fast:
	@$(MAKE) --no-print-directory $(CHECK_J) all $(O)/unit-tests $(O)/fuzz-replay workloads
	@SONDE_NO_ASAN=1 O=$(O) tests/run.sh

# Installs build dependencies (as root) when missing, builds, and profiles a workload.
# The build is a new make run: this one read pkg-config before the packages were there.
demo:
	@$(INSTALL_DEPS)
	@$(MAKE) --no-print-directory all workloads
	@O=$(O) $(DEMO)

deps:
	@$(INSTALL_DEPS)

# Compiling without the packages' flags fails later with puzzling errors: stop here.
pkg-check:
ifneq ($(PKG_MISSING),)
	@echo "error: $(PKG_CONFIG) does not find the libraries sonde builds with:" >&2
	@$(PKG_CONFIG) --print-errors --exists $(PKGS) 2>&1 | sed "s/^/  /" >&2
	@echo "Install them with 'make deps' (tools/install-deps.sh), then run make again." >&2
	@exit 1
endif

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(O)/sonde $(DESTDIR)$(PREFIX)/bin/sonde
	if [ -n "$(INSTALL_PERF_LINK)" ]; then ln -sf sonde $(DESTDIR)$(PREFIX)/bin/perf; fi
	install -d $(DESTDIR)$(PREFIX)/libexec/sonde/scripts/python/Perf-Trace-Util/lib/Perf/Trace
	install -m 644 scripts/python/*.py $(DESTDIR)$(PREFIX)/libexec/sonde/scripts/python/
	install -m 644 scripts/python/Perf-Trace-Util/lib/Perf/Trace/*.py \
		$(DESTDIR)$(PREFIX)/libexec/sonde/scripts/python/Perf-Trace-Util/lib/Perf/Trace/

fuzz:
	@tools/fuzz.sh

clean:
	rm -rf $(O) $(AO)

.PHONY: all check check-fast demo deps pkg-check install clean asan workloads fuzz
.DELETE_ON_ERROR:

-include $(OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(AOBJS:.o=.d) $(ATEST_OBJS:.o=.d)
