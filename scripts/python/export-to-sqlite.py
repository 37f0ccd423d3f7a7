# SPDX-License-Identifier: MIT
# export-to-sqlite: the samples of a perf.data into an SQLite database with
# the tables and views of perf's export-to-sqlite (selected_events, machines,
# threads, comms, comm_threads, dsos, symbols, branch_types, samples, and
# call_paths with "callchains"), so existing queries keep working.
# Python's own sqlite3 module does the writing (perf's needs PySide's QtSql).
# usage: sonde script report export-to-sqlite <database> [all|branches] [callchains]

from __future__ import print_function

import datetime
import os
import sqlite3
import sys

from perf_trace_context import *
import sonde_context


def usage():
    print("Usage is: export-to-sqlite.py <database name> [<columns>] [<calls>] [<callchains>]",
          file=sys.stderr)
    print("where:  columns            'all' or 'branches'", file=sys.stderr)
    print("        calls              'calls' => create calls and call_paths table", file=sys.stderr)
    print("        callchains         'callchains' => fill call_paths from the sampled callchains",
          file=sys.stderr)
    raise SystemExit(1)


if len(sys.argv) < 2:
    usage()
dbname = sys.argv[1]
branches = False
with_calls = False
with_callchains = False
for arg in sys.argv[2:]:
    if arg == "all":
        branches = False
    elif arg == "branches":
        branches = True
    elif arg == "calls":
        with_calls = True
    elif arg == "callchains":
        with_callchains = True
    else:
        usage()
# call paths come with the calls table, as in perf's "calls callchains"
with_calls = with_calls or with_callchains

if os.path.exists(dbname):
    raise SystemExit("Error: database already exists: " + dbname)


def say(text):
    print(datetime.datetime.today(), text)
    sys.stdout.flush()


say("Creating database ...")
db = sqlite3.connect(dbname)
db.isolation_level = None
db.execute("pragma journal_mode = OFF")
db.execute("BEGIN TRANSACTION")

TABLES = [
    ("selected_events", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,name\t\tvarchar(80)"),
    ("machines", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,pid\t\tinteger,root_dir \tvarchar(4096)"),
    ("threads", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,machine_id\tbigint,process_id\tbigint,"
                "pid\t\tinteger,tid\t\tinteger"),
    ("comms", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,comm\t\tvarchar(16),c_thread_id\tbigint,"
              "c_time\t\tbigint,exec_flag\tboolean"),
    ("comm_threads", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,comm_id\tbigint,thread_id\tbigint"),
    ("dsos", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,machine_id\tbigint,short_name\tvarchar(256),"
             "long_name\tvarchar(4096),build_id\tvarchar(64)"),
    ("symbols", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,dso_id\t\tbigint,sym_start\tbigint,"
                "sym_end\tbigint,binding\tinteger,name\t\tvarchar(2048)"),
    ("branch_types", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,name\t\tvarchar(80)"),
    ("samples", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,evsel_id\tbigint,machine_id\tbigint,"
                "thread_id\tbigint,comm_id\tbigint,dso_id\t\tbigint,symbol_id\tbigint,"
                "sym_offset\tbigint,ip\t\tbigint,time\t\tbigint,cpu\t\tinteger,"
                "to_dso_id\tbigint,to_symbol_id\tbigint,to_sym_offset\tbigint,to_ip\t\tbigint," +
                ("" if branches else "period\t\tbigint,weight\t\tbigint,transaction_\tbigint,"
                 "data_src\tbigint,") +
                "branch_type\tinteger,in_tx\t\tboolean,call_path_id\tbigint,insn_count\tbigint,"
                "cyc_count\tbigint,flags\t\tinteger"),
]
if with_calls:
    TABLES.append(("call_paths", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,parent_id\tbigint,"
                                 "symbol_id\tbigint,ip\t\tbigint"))
    TABLES.append(("calls", "id\t\tinteger\t\tNOT NULL\tPRIMARY KEY,thread_id\tbigint,"
                            "comm_id\tbigint,call_path_id\tbigint,call_time\tbigint,"
                            "return_time\tbigint,branch_count\tbigint,call_id\tbigint,"
                            "return_id\tbigint,parent_call_path_id\tbigint,flags\t\tinteger,"
                            "parent_id\tbigint,insn_count\tbigint,cyc_count\tbigint"))

VIEWS = [
    ("machines_view", "SELECT id,pid,root_dir,CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN "
                      "'host' ELSE 'guest' END AS host_or_guest FROM machines"),
    ("dsos_view", "SELECT id,machine_id,(SELECT host_or_guest FROM machines_view WHERE id = "
                  "machine_id) AS host_or_guest,short_name,long_name,build_id FROM dsos"),
    ("symbols_view", "SELECT id,name,(SELECT short_name FROM dsos WHERE id=dso_id) AS dso,"
                     "dso_id,sym_start,sym_end,CASE WHEN binding=0 THEN 'local' WHEN binding=1 "
                     "THEN 'global' ELSE 'weak' END AS binding FROM symbols"),
    ("threads_view", "SELECT id,machine_id,(SELECT host_or_guest FROM machines_view WHERE id = "
                     "machine_id) AS host_or_guest,process_id,pid,tid FROM threads"),
    ("comm_threads_view", "SELECT comm_id,(SELECT comm FROM comms WHERE id = comm_id) AS command,"
                          "thread_id,(SELECT pid FROM threads WHERE id = thread_id) AS pid,"
                          "(SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads"),
]
if with_calls:
    VIEWS.append(("call_paths_view",
                  "SELECT c.id,printf(\"%x\", c.ip) AS ip,c.symbol_id,(SELECT name FROM symbols "
                  "WHERE id = c.symbol_id) AS symbol,(SELECT dso_id FROM symbols WHERE id = "
                  "c.symbol_id) AS dso_id,(SELECT dso FROM symbols_view  WHERE id = c.symbol_id) "
                  "AS dso_short_name,c.parent_id,printf(\"%x\", p.ip) AS parent_ip,p.symbol_id AS "
                  "parent_symbol_id,(SELECT name FROM symbols WHERE id = p.symbol_id) AS "
                  "parent_symbol,(SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS "
                  "parent_dso_id,(SELECT dso FROM symbols_view  WHERE id = p.symbol_id) AS "
                  "parent_dso_short_name FROM call_paths c INNER JOIN call_paths p ON p.id = "
                  "c.parent_id"))
if with_calls:
    VIEWS.append(("calls_view",
                  "SELECT calls.id,thread_id,(SELECT pid FROM threads WHERE id = thread_id) AS pid,"
                  "(SELECT tid FROM threads WHERE id = thread_id) AS tid,(SELECT comm FROM comms "
                  "WHERE id = comm_id) AS command,call_path_id,printf(\"%x\", ip) AS ip,symbol_id,"
                  "(SELECT name FROM symbols WHERE id = symbol_id) AS symbol,call_time,return_time,"
                  "return_time - call_time AS elapsed_time,branch_count,insn_count,cyc_count,"
                  "CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) ELSE ROUND(CAST(insn_count AS FLOAT)"
                  " / cyc_count, 2) END AS IPC,call_id,return_id,CASE WHEN flags=0 THEN '' WHEN "
                  "flags=1 THEN 'no call' WHEN flags=2 THEN 'no return' WHEN flags=3 THEN "
                  "'no call/return' WHEN flags=6 THEN 'jump' ELSE flags END AS flags,"
                  "parent_call_path_id,calls.parent_id FROM calls INNER JOIN call_paths ON "
                  "call_paths.id = call_path_id"))
VIEWS.append(("samples_view",
              "SELECT id,time,cpu,(SELECT pid FROM threads WHERE id = thread_id) AS pid,"
              "(SELECT tid FROM threads WHERE id = thread_id) AS tid,(SELECT comm FROM comms "
              "WHERE id = comm_id) AS command,(SELECT name FROM selected_events WHERE id = "
              "evsel_id) AS event,printf(\"%x\", ip) AS ip_hex,(SELECT name FROM symbols WHERE "
              "id = symbol_id) AS symbol,sym_offset,(SELECT short_name FROM dsos WHERE id = "
              "dso_id) AS dso_short_name,printf(\"%x\", to_ip) AS to_ip_hex,(SELECT name FROM "
              "symbols WHERE id = to_symbol_id) AS to_symbol,to_sym_offset,(SELECT short_name "
              "FROM dsos WHERE id = to_dso_id) AS to_dso_short_name,(SELECT name FROM "
              "branch_types WHERE id = branch_type) AS branch_type_name,in_tx,insn_count,"
              "cyc_count,CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) ELSE "
              "ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC,flags FROM samples"))

for name, columns in TABLES:
    db.execute("create table %s (%s)" % (name, columns))

BRANCH_KINDS = [(1, "unconditional jump"), (3, "call"), (5, "return"), (9, "conditional jump"),
                (19, "system call"), (21, "return from system call"),
                (33, "asynchronous branch"), (67, "software interrupt"),
                (69, "return from interrupt"), (99, "hardware interrupt"),
                (129, "transaction abort")]


def branch_types():
    rows = [(0, "no branch")] + BRANCH_KINDS
    rows += [(256, "trace begin / no branch")]
    rows += [(256 + k, "trace begin / " + n) for k, n in BRANCH_KINDS]
    rows += [(512, "no branch / trace end")]
    rows += [(512 + k, "trace end" if k == 1 else n + " / trace end") for k, n in BRANCH_KINDS]
    rows[rows.index((257, "trace begin / unconditional jump"))] = (257, "trace begin")
    rows += [(2051, "vm entry"), (2307, "trace begin / vm entry"), (2563, "vm entry / trace end"),
             (4099, "vm exit"), (4355, "trace begin / vm exit"), (4611, "vm exit / trace end")]
    return rows


def s64(v):
    """perf stores 64-bit values as signed integers"""
    return v - (1 << 64) if v >= (1 << 63) else v


class Ids:
    """key -> id, new ids handed out in order (0 is each table's 'unknown' row)"""

    def __init__(self):
        self.ids = {}

    def get(self, key, insert):
        id = self.ids.get(key)
        if id is None:
            id = len(self.ids) + 1
            self.ids[key] = id
            insert(id)
        return id


events = Ids()
threads = Ids()
comms = Ids()
comm_threads = Ids()
dsos = Ids()
symbols = Ids()
call_paths = Ids()
sample_rows = []


def insert(table, row):
    db.execute("insert into %s values (%s)" % (table, ",".join("?" * len(row))), row)


def thread_id(pid, tid):
    def new_thread(id):
        process = id if pid == tid else thread_id(pid, pid)
        insert("threads", (id, 1, process, pid, tid))
    if (pid, tid) not in threads.ids and pid != tid:
        thread_id(pid, pid)
    return threads.get((pid, tid), new_thread)


def dso_id(name, build_id):
    short = name if name.startswith("[") else os.path.basename(name)
    return dsos.get(name, lambda id: insert("dsos", (id, 1, short, name, build_id)))


def symbol_id(dso, name, start, end, binding):
    return symbols.get((dso, name, start), lambda id: insert(
        "symbols", (id, dso, s64(start), s64(end), binding, name)))


def frame_symbol(node, build_id):
    """symbol id of a callchain frame: 0 outside any dso; a frame in a dso
    without a symbol gets an 'unknown' one at its address"""
    if "dso" not in node:
        return 0
    d = dso_id(node["dso"], build_id)
    sym = node.get("sym")
    if not sym:
        return symbol_id(d, "unknown", node["ip"], node["ip"], 0)
    return symbol_id(d, sym["name"], sym["start"], sym["end"], sym["binding"])


def path_id(chain, leaf_symbol):
    """the call path of a chain, outermost first under the root (id 1); the
    innermost frame is the sample's own symbol; frames with a symbol keep no ip"""
    build_ids = sonde_context.callchain_build_ids(perf_script_context)
    parent = call_paths.get((0, 0, 0), lambda id: insert("call_paths", (id, 0, 0, 0)))
    last = len(chain) - 1
    for i in range(last, -1, -1):
        node = chain[i]
        sym = leaf_symbol if i == 0 else frame_symbol(node, build_ids[i] if i < len(build_ids) else "")
        ip = 0 if sym else s64(node["ip"])
        parent = call_paths.get((parent, sym, ip), lambda id, p=parent, s=sym, a=ip: insert(
            "call_paths", (id, p, s, a)))
    return parent


def trace_begin():
    say("Writing records...")
    insert("selected_events", (0, "unknown"))
    insert("machines", (0, 0, "unknown"))
    insert("threads", (0, 0, 0, -1, -1))
    insert("comms", (0, "unknown", 0, 0, 0))
    insert("dsos", (0, 0, "unknown", "unknown", ""))
    insert("symbols", (0, 0, 0, 0, 0, "unknown"))
    for row in branch_types():
        insert("branch_types", row)
    insert("samples", (0,) * (21 if branches else 25))
    if with_calls:
        insert("call_paths", (0, 0, 0, 0))
        insert("calls", (0,) * 14)


machine_done = []
unhandled = [0]


def trace_unhandled(event_name, context, event_fields_dict):
    unhandled[0] += 1


def sched__sched_switch(*args):
    # perf's export takes sched_switch in (it feeds context switch tracking) and
    # writes nothing for it here: not an unhandled event
    pass



def process_event(param_dict):
    if not machine_done:
        # the host, once a sample of it comes
        insert("machines", (1, -1, ""))
        machine_done.append(1)
    sample = param_dict["sample"]
    name = param_dict["ev_name"]
    ev = events.get(name, lambda id: insert("selected_events", (id, name)))
    th = thread_id(sample["pid"], sample["tid"])
    comm = param_dict["comm"]
    comm_time, comm_exec = sonde_context.comm_info(perf_script_context)
    cm = comms.get((comm, sample["pid"]), lambda id: insert(
        "comms", (id, comm, th, comm_time, comm_exec)))
    comm_threads.get((cm, th), lambda id: insert("comm_threads", (id, cm, th)))
    dso = sym = 0
    if "dso" in param_dict:
        dso = dso_id(param_dict["dso"], param_dict.get("dso_bid", ""))
        loc = sonde_context.sample_location(perf_script_context) or {}
        if "symbol" in param_dict and "sym_start" in loc:
            sym = symbol_id(dso, param_dict["symbol"], loc["sym_start"], loc["sym_end"],
                            loc["binding"])
        elif "addr" in loc:
            sym = symbol_id(dso, "unknown", loc["addr"], loc["addr"], 0)
    path = 0
    if with_callchains and param_dict["callchain"]:
        path = path_id(param_dict["callchain"], sym)
    cpu = sample["cpu"]
    if cpu == 0xffffffff:
        cpu = -1
    row = [len(sample_rows) + 1, ev, 1, th, cm, dso, sym, param_dict.get("symoff", 0),
           s64(sample["ip"]), sample["time"], cpu, 0, 0, 0, 0]
    if not branches:
        row += [sample["period"], sample["weight"], sample["transaction"], sample["datasrc"]]
    row += [0, 0, path, 0, 0, 0]
    insert("samples", row)
    sample_rows.append(1)


def trace_end():
    say("Adding indexes")
    if with_calls:
        db.execute("ALTER TABLE comms ADD has_calls boolean")
        db.execute("UPDATE comms SET has_calls = 1 WHERE id IN (SELECT DISTINCT comm_id FROM calls)")
    say("Dropping unused tables")
    if unhandled[0]:
        print("Warning: ", unhandled[0], " unhandled events")
    for name, sql in VIEWS:
        db.execute("CREATE VIEW %s AS %s" % (name, sql))
    if with_calls:
        db.execute("CREATE INDEX pcpid_idx ON calls (parent_call_path_id)")
        db.execute("CREATE INDEX pid_idx ON calls (parent_id)")
    db.execute("END TRANSACTION")
    db.close()
    say("Done")
