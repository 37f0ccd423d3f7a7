# SPDX-License-Identifier: MIT
# Test workload: three threads contending for one lock (futexes), reads of
# files that exist and one that does not, an empty write.
import threading, os, time
lock = threading.Lock()
def work():
    for i in range(200):
        with lock:
            time.sleep(0.0001)
ts = [threading.Thread(target=work) for _ in range(3)]
for t in ts: t.start()
for t in ts: t.join()
for p in ('/etc/hostname', '/nonexistent', '/etc/passwd'):
    try:
        with open(p) as f: f.read()
    except OSError: pass
os.write(1, b'')
fd = os.open('/dev/null', os.O_WRONLY)
for n in (100, 2000, 30):
    os.write(fd, b'x' * n)
os.close(fd)
fd = os.open('/dev/full', os.O_WRONLY)
try:
    os.write(fd, b'full')
except OSError:
    pass
os.close(fd)
