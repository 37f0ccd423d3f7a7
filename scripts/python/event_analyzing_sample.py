# SPDX-License-Identifier: MIT
# event_analyzing_sample: every sample into an SQLite table, then counts
# grouped by thread, symbol and dso with a log2 histogram.
# Record with: sonde script record event_analyzing_sample [cmd]

from __future__ import print_function

import math
import sqlite3

# perf keeps its table in /dev/shm/perf.db, and a second run adds to the
# first one's rows; this one starts empty every time
con = sqlite3.connect(":memory:")
con.isolation_level = None


def trace_begin():
    print("In trace_begin:\n")
    con.execute("""create table if not exists gen_events (
                   name text, symbol text, comm text, dso text)""")
    con.execute("""create table if not exists pebs_ll (
                   name text, symbol text, comm text, dso text, flags integer,
                   ip integer, status integer, dse integer, dla integer, lat integer)""")


def process_event(param_dict):
    name = param_dict["ev_name"]
    comm = param_dict["comm"]
    symbol = param_dict.get("symbol", "Unknown_symbol")
    dso = param_dict.get("dso", "Unknown_dso")
    con.execute("insert into gen_events values(?, ?, ?, ?)", (name, symbol, comm, dso))


def trace_unhandled(event_name, context, event_fields_dict):
    print(" ".join("%s=%s" % (k, str(v)) for k, v in sorted(event_fields_dict.items())))


def histogram(n):
    return "#" * (int(math.log(n, 2)) + 1)


def show_general():
    count = con.execute("select count(*) from gen_events").fetchone()[0]
    print("There is %d records in gen_events table" % count)
    if count == 0:
        return
    print("Statistics about the general events grouped by thread/symbol/dso: \n")
    for column, width, rule in (("comm", 16, 42), ("symbol", 32, 58), ("dso", 40, 74)):
        print("\n%*s %8s %16s\n%s" % (width, column, "number", "histogram", "=" * rule))
        rows = con.execute("select %s, count(*) as cnt from gen_events group by %s "
                           "order by cnt desc, %s" % (column, column, column))
        for value, n in rows:
            print("%*s %8d     %s" % (width, value, n, histogram(n)))


def show_pebs_ll():
    count = con.execute("select count(*) from pebs_ll").fetchone()[0]
    print("There is %d records in pebs_ll table" % count)


def trace_end():
    print("In trace_end:\n")
    show_general()
    show_pebs_ll()
    con.close()
