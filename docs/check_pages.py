"""Open every page of the built site in headless Chromium and fail on any error it reports.

    python docs/check_pages.py docs/_build/html [--screenshot docs/images/site-front.png]

An error is an uncaught exception, a ``console.error``, or a log entry of level error (a
resource that does not load: an image, a script, a style sheet). Chromium is driven through
the DevTools protocol over a pipe (``--remote-debugging-pipe``), so nothing but the standard
library and a ``chromium`` binary is needed. The screenshot is of the front page at 1280×900.
"""
import argparse
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOAD_TIMEOUT = 30  # seconds for one page to fire its load event
SETTLE = 0.3       # seconds to wait after the load event for late errors


class Browser:
    """A headless Chromium and one tab, spoken to in DevTools protocol messages."""

    def __init__(self, binary):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        self._profile = tempfile.mkdtemp(prefix="chromium-")

        def pipes_as_3_and_4():
            for fd, target in ((to_chrome_r, 3), (from_chrome_w, 4)):
                os.dup2(fd, target)
                os.set_inheritable(target, True)  # dup2 onto itself keeps close-on-exec

        self.process = subprocess.Popen(
            [binary, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--disable-extensions", "--allow-file-access-from-files",
             f"--user-data-dir={self._profile}", "about:blank"],
            preexec_fn=pipes_as_3_and_4, close_fds=False,  # closing would undo the dup2s
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer, self._next_id, self.events = b"", 0, []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=1280, height=900,
                  deviceScaleFactor=1, mobile=False)

    def close(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self._profile, ignore_errors=True)

    def _read(self, deadline):
        """The next message from Chromium, or None at the deadline."""
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._from_chrome], [], [],
                                        max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=False, **params):
        """Send one command and wait for its answer; events that come first are kept."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + LOAD_TIMEOUT
        while (reply := self._read(deadline)) is not None:
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise RuntimeError(f"{method}: no answer in {LOAD_TIMEOUT} s")

    def wait_for(self, method, seconds):
        """Keep events until ``method`` arrives (True) or ``seconds`` pass (False)."""
        deadline = time.monotonic() + seconds
        while (event := self._read(deadline)) is not None:
            self.events.append(event)
            if event.get("method") == method:
                return True
        return False

    def open(self, url):
        """The errors ``url`` reports while it loads and settles."""
        self.events = []
        self.call("Page.navigate", session=True, url=url)
        if not self.wait_for("Page.loadEventFired", LOAD_TIMEOUT):
            return [f"no load event in {LOAD_TIMEOUT} s"]
        self.wait_for(None, SETTLE)
        return [error for event in self.events if (error := describe_error(event))]

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        partial = Path(path).with_suffix(".partial")
        partial.write_bytes(base64.b64decode(data))
        os.replace(partial, path)  # never half a picture


def describe_error(event):
    """One line for an event that is an error, else None."""
    method, params = event.get("method"), event.get("params", {})
    if method == "Runtime.exceptionThrown":
        details = params["exceptionDetails"]
        return details.get("exception", {}).get("description") or details.get("text")
    if method == "Runtime.consoleAPICalled" and params.get("type") == "error":
        return "console.error: " + " ".join(str(a.get("value", a.get("description")))
                                            for a in params.get("args", []))
    if method == "Log.entryAdded" and params["entry"]["level"] == "error":
        entry = params["entry"]
        return f"{entry['text']} {entry.get('url', '')}".strip()
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built site (docs/_build/html)")
    parser.add_argument("--screenshot", type=Path, help="save the front page as this PNG")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium",
                        help="the Chromium binary (default: chromium on the PATH)")
    args = parser.parse_args(argv)
    pages = sorted(args.site.resolve().glob("**/*.html"))
    pages = [page for page in pages if "_static" not in page.parts]
    if not pages:
        sys.exit(f"no pages under {args.site}: run make docs first")
    if shutil.which(args.chromium) is None:
        sys.exit(f"{args.chromium} not found (Debian: apt-get install chromium)")
    browser = Browser(args.chromium)
    failures = 0
    try:
        for page in pages:
            errors = browser.open(page.as_uri())
            failures += bool(errors)
            for error in errors:
                print(f"{page.relative_to(args.site.resolve())}: {error}")
        if args.screenshot:
            browser.open((args.site.resolve() / "index.html").as_uri())
            browser.screenshot(args.screenshot)
    finally:
        browser.close()
    print(f"{len(pages)} pages opened in {args.chromium}, {failures} with errors")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
