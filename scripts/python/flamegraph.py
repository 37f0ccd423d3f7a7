# SPDX-License-Identifier: MIT
# flamegraph: the samples' call stacks as a tree, written as the JSON that
# d3-flame-graph reads ({"n": name, "l": kind, "v": samples, "c": children}),
# or, with a d3-flame-graph HTML template, as a page. `sonde flamegraph`
# draws a self-contained SVG/HTML itself.
# usage: sonde script report flamegraph [-f json|html] [-o FILE] [--template PATH]

from __future__ import print_function

import argparse
import json
import os
import sys

parser = argparse.ArgumentParser(prog="flamegraph.py", description="Create flame graphs.")
parser.add_argument("-f", "--format", default="html", choices=["json", "html"],
                    help="output file format")
parser.add_argument("-o", "--output", help="output file name")
parser.add_argument("--template", default="/usr/share/d3-flame-graph/d3-flamegraph-base.html",
                    help="path to flame graph HTML template")
parser.add_argument("--colorscheme", default="blue-green", choices=["blue-green", "orange"],
                    help="flame graph color scheme")
opts = parser.parse_args(sys.argv[1:])


class Node:
    def __init__(self, name, kind):
        self.name = name
        self.kind = kind
        self.value = 0
        self.children = []
        self.index = {}

    def child(self, name, kind):
        key = (name, kind)
        node = self.index.get(key)
        if node is None:
            node = Node(name, kind)
            self.index[key] = node
            self.children.append(node)
        return node

    def as_dict(self):
        return {"n": self.name, "l": self.kind, "v": self.value,
                "c": [c.as_dict() for c in self.children]}


root = Node("all", "root")

if opts.format == "html" and not os.path.isfile(opts.template):
    print("Flame Graph template %s does not exist. Please install the js-d3-flame-graph (RPM)"
          " or libjs-d3-flame-graph (deb) package, specify an existing flame graph template"
          " (--template PATH) or another output format (--format FORMAT)." % opts.template,
          file=sys.stderr)
    sys.exit(1)


def is_kernel(dso):
    return dso.startswith("[kernel") or dso.endswith(".ko")


def process_event(param_dict):
    sample = param_dict["sample"]
    node = root.child("%s (%d)" % (param_dict["comm"], sample["pid"]), "")
    for frame in reversed(param_dict["callchain"]):
        name = frame["sym"]["name"] if "sym" in frame else "[unknown]"
        node = node.child(name, "kernel" if is_kernel(frame.get("dso", "")) else "")
    node.value += 1


def trace_end():
    data = json.dumps(root.as_dict())
    if opts.format == "html":
        sys.exit("flamegraph: HTML output from a d3-flame-graph template is not supported: "
                 "use -f json, or 'sonde flamegraph'")
    name = opts.output or "stacks.json"
    if name == "-":
        sys.stdout.write(data)
        return
    print("dumping data to %s" % name)
    with open(name, "w") as f:
        f.write(data)
