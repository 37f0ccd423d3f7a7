/* SPDX-License-Identifier: MIT */
/*
 * Unit test: a stripped binary whose debug file is only on a debuginfod
 * server (the Debian "debuginfod" package, run on 127.0.0.1 for the test).
 */
#include "test.h"

#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "symbol/elf.h"
#include "symbol/symtab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char src[] =
	"static int __attribute__((noinline)) hidden_helper(int x) { return x * 3; }\n"
	"int main(int argc, char **argv) { return hidden_helper(argc) > 100; }\n";

TEST(debuginfod_fetches_missing_debug_file)
{
	struct strpool pool = STRPOOL_INIT;
	struct strbuf cmd = STRBUF_INIT, path = STRBUF_INIT;
	const char *dir = test_tmpdir();
	struct symsrc *ss;
	char url[64], buf[64];
	FILE *f;
	int port = 20000 + (int)(getpid() % 20000), server = 0, i;
	u8 bid[BUILD_ID_SIZE];
	int bl;

	if (system("debuginfod --version >/dev/null 2>&1"))
		test_skip("debuginfod server not installed (Debian package debuginfod)");
	if (system("cc --version >/dev/null 2>&1 && objcopy --version >/dev/null 2>&1"))
		test_skip("cc or objcopy not installed");
	strbuf_addf(&cmd, "%s/p.c", dir);
	f = fopen(cmd.buf, "w");
	ASSERT_TRUE(f);
	fputs(src, f);
	fclose(f);
	strbuf_reset(&cmd);
	/* no .gnu_debuglink: only the build-id leads to the debug file */
	strbuf_addf(&cmd,
		    "cd '%s' && mkdir -p srv && cc -O1 -g -Wl,--build-id -o p p.c && "
		    "objcopy --only-keep-debug p srv/p.debug && strip --strip-all p && "
		    "(debuginfod -p %d -F srv -d db.sqlite -t 1 >server.log 2>&1 & echo $! > server.pid)",
		    dir, port);
	ASSERT_TRUE(system(cmd.buf) == 0);
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "%s/server.pid", dir);
	f = fopen(cmd.buf, "r");
	if (f && fgets(buf, sizeof(buf), f))
		server = atoi(buf);
	if (f)
		fclose(f);
	ASSERT_TRUE(server > 0);

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/p", dir);
	bl = buildid_read_path(path.buf, bid, sizeof(bid));
	ASSERT_TRUE(bl == 20);

	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	setenv("DEBUGINFOD_URLS", url, 1);
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "%s/client-cache", dir);
	setenv("DEBUGINFOD_CACHE_PATH", cmd.buf, 1);
	setenv("DEBUGINFOD_TIMEOUT", "5", 1);
	/* wait (bounded) for the server to index srv/ */
	for (i = 0; i < 60; i++) {
		struct strbuf got = STRBUF_INIT;

		if (!debuginfod_find(&got, bid, bl, false)) {
			strbuf_release(&got);
			break;
		}
		strbuf_release(&got);
		/* the client caches a miss for minutes: forget it before asking again */
		strbuf_reset(&cmd);
		strbuf_addf(&cmd, "rm -rf '%s/client-cache'", dir);
		if (system(cmd.buf))
			break;
		usleep(250 * 1000);
	}
	if (i == 60) {
		kill(server, SIGTERM);
		test_skip("the debuginfod server did not answer on 127.0.0.1");
	}

	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, path.buf, NULL), 0);
	EXPECT_TRUE(ss->has_symtab);
	EXPECT_TRUE(ss->symbol_path && strstr(ss->symbol_path, "client-cache"));
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "hidden_helper") != NULL);
	symsrc_free(ss);

	/* without DEBUGINFOD_URLS (or with no_debuginfod): only .dynsym */
	unsetenv("DEBUGINFOD_URLS");
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "rm -rf '%s/client-cache'", dir);
	EXPECT_EQ(system(cmd.buf), 0);
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, path.buf, NULL), 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "hidden_helper") == NULL);
	symsrc_free(ss);
	{
		struct strbuf got = STRBUF_INIT;

		EXPECT_EQ(debuginfod_find(&got, bid, bl, false), -ENOSYS);
		strbuf_release(&got);
	}
	kill(server, SIGTERM);
	strbuf_release(&cmd);
	strbuf_release(&path);
	strpool_release(&pool);
}
