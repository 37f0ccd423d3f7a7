#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Drives headless Chromium over the DevTools protocol (stdlib only) for t9010:
# opens a flame graph, screenshots it, clicks a frame, resets, searches, and
# prints what the DOM says as key=value lines.
# Usage: flame-browser.py CHROMIUM FILE PNG_PREFIX FRAME_NAME SEARCH
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class Page:
    def __init__(self, ws_url):
        host_port, path = ws_url[len("ws://"):].split("/", 1)
        host, port = host_port.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, host_port, key))
        self.sock.sendall(req.encode())
        resp = b""
        while b"\r\n\r\n" not in resp:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("websocket handshake failed")
            resp += chunk
        if b" 101 " not in resp.split(b"\r\n")[0]:
            raise RuntimeError("websocket refused: %r" % resp[:200])
        self.buf = resp.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0
        self.events = []

    def _send(self, text):
        data = text.encode()
        head = bytearray([0x81])
        n = len(data)
        if n < 126:
            head.append(0x80 | n)
        elif n < 65536:
            head.append(0x80 | 126)
            head += struct.pack(">H", n)
        else:
            head.append(0x80 | 127)
            head += struct.pack(">Q", n)
        mask = os.urandom(4)
        head += mask
        self.sock.sendall(bytes(head) + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("browser closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            msg += payload
            if b0 & 0x80:
                return json.loads(msg.decode())

    def call(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self._send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            m = self._recv()
            if m.get("id") == my_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e.get("method") == name:
                    return self.events.pop(i)
            self.events.append(self._recv())
        raise RuntimeError("no %s event" % name)

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("script error in %s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def shot(self, path):
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data["data"]))


def center_of(page, selector):
    r = page.js("(function(){var e=document.querySelector(%s); if(!e) return null;"
                "e.scrollIntoView({block: 'center', inline: 'center'});"
                "var b=e.getBoundingClientRect(); return [b.left+b.width/2, b.top+b.height/2];})()"
                % json.dumps(selector))
    if r is None:
        raise RuntimeError("nothing matches " + selector)
    return r


def main():
    chromium, path, png, frame_name, term = sys.argv[1:6]
    prof = tempfile.mkdtemp(prefix="sonde-chromium.")
    proc = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                             "--hide-scrollbars", "--no-first-run", "--mute-audio",
                             "--remote-debugging-port=0", "--user-data-dir=" + prof,
                             "--window-size=1220,1400", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(prof, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        page = Page([t for t in targets if t["type"] == "page"][0]["webSocketDebuggerUrl"])
        page.call("Page.enable")
        page.call("Page.navigate", url="file://" + os.path.abspath(path))
        page.wait_event("Page.loadEventFired", 30)
        print("frames=%d" % page.js("document.querySelectorAll('g.f').length"))
        print("script=%s" % page.js("typeof window.sondeFlame"))
        print("title=%s" % page.js("document.getElementById('fg-title').textContent"))
        page.shot(png + "-initial.png")
        # click the first frame with this name
        idx = page.js("(function(){var F=window.sondeFlame.frames;for(var i=0;i<F.length;i++)"
                      "if(F[i].name===%s) return i; return -1;})()" % json.dumps(frame_name))
        print("clicked_index=%d" % idx)
        print("clicked_depth=%d" % page.js("window.sondeFlame.frames[%d].d" % idx))
        x, y = center_of(page, 'g.f[data-i="%d"] rect' % idx)
        page.click(x, y)
        print("zoomed=%s" % page.js("document.getElementById('fg').getAttribute('data-zoomed')"))
        print("zoomed_width=%s" % page.js(
            "document.querySelector('g.f[data-i=\"%d\"] rect').getAttribute('width')" % idx))
        print("hidden=%d" % page.js("document.querySelectorAll('g.f.hide').length"))
        print("ancestors=%d" % page.js("document.querySelectorAll('g.f.anc').length"))
        print("outside=%d" % page.js(
            "(function(){var n=0,W=+document.getElementById('fg').getAttribute('width');"
            "document.querySelectorAll('g.f:not(.hide) rect').forEach(function(r){"
            "var x=+r.getAttribute('x'),w=+r.getAttribute('width');"
            "if(x<0||x+w>W+0.5) n++;}); return n;})()"))
        print("reset_visible=%s" % page.js(
            "document.getElementById('fg-reset').style.display !== 'none'"))
        page.shot(png + "-zoomed.png")
        rx, ry = center_of(page, "#fg-reset")
        page.click(rx, ry)
        print("after_reset_zoomed=%s" % page.js(
            "document.getElementById('fg').getAttribute('data-zoomed')"))
        print("after_reset_hidden=%d" % page.js("document.querySelectorAll('g.f.hide').length"))
        # search: the HTML page has a box; the bare SVG asks with a prompt
        if page.js("document.getElementById('fg-input') !== null"):
            ix, iy = center_of(page, "#fg-input")
            page.click(ix, iy)
            page.call("Input.insertText", text=term)
        else:
            sx, sy = center_of(page, "#fg-search")
            page._send(json.dumps({"id": 99999, "method": "Input.dispatchMouseEvent",
                                   "params": {"type": "mousePressed", "x": sx, "y": sy,
                                              "button": "left", "clickCount": 1}}))
            page._send(json.dumps({"id": 99998, "method": "Input.dispatchMouseEvent",
                                   "params": {"type": "mouseReleased", "x": sx, "y": sy,
                                              "button": "left", "clickCount": 1}}))
            page.wait_event("Page.javascriptDialogOpening", 10)
            page.call("Page.handleJavaScriptDialog", accept=True, promptText=term)
        print("matched_w=%s" % page.js("document.getElementById('fg').getAttribute('data-matched-w')"))
        print("matched_text=%s" % page.js("document.getElementById('fg-matched').textContent"))
        print("hits=%d" % page.js("document.querySelectorAll('g.f[data-hit]').length"))
        print("hit_fill=%s" % page.js(
            "(function(){var e=document.querySelector('g.f[data-hit] rect');"
            "return e ? e.getAttribute('fill') : '';})()"))
        page.shot(png + "-search.png")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(prof, ignore_errors=True)


if __name__ == "__main__":
    main()
