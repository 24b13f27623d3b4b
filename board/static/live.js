// The push channel of a table (GET /api/tables/ID/events, server-sent events read with fetch so
// that the seat's key travels in its header as on every request): the server sends the game
// as this seat sees it after every change, and who is connected. A dropped connection, a
// server restarting or too busy (429) is tried again, waiting longer each time, and the page is
// told each time (onStatus), so that a board that is not live says so; the first message of a
// connection is the game as it stands, so nothing is missed.
import { authHeaders } from "./shared.js";

const RETRY_MS = [250, 500, 1000, 2000, 5000];  // waits before reconnecting, then the last

// Follow table `id` as `key`'s seat (null: a spectator): onView(view), onPresence(presence),
// onRefused(status, message) when the server refuses (then no more tries), onStatus(status)
// with {live: true} once connected, {live: false, reason, retryMs, attempt} while not. Returns
// a handle with close().
export function follow(id, key, { onView, onPresence, onRefused, onStatus = () => {} }) {
  const stop = new AbortController();
  const handle = { id, key, close: () => stop.abort() };
  (async () => {
    for (let failures = 0; !stop.signal.aborted; failures++) {
      let reason = "lost the connection to the server";
      try {
        const headers = authHeaders();
        if (key) headers["X-Seat-Key"] = key;
        const response = await fetch(`/api/tables/${encodeURIComponent(id)}/events`,
                                     { headers, signal: stop.signal, cache: "no-store" });
        if (!response.ok) {
          const data = await response.json().catch(() => ({}));
          if (response.status !== 429 && response.status < 500) {
            onRefused(response.status, data.error || `${response.status}`);
            onStatus({ live: false, reason: data.error || `${response.status}`, retryMs: null });
            return;
          }
          reason = data.error || `the server answered ${response.status}`;
        } else {
          failures = 0;
          onStatus({ live: true });
          await read(response.body, { onView, onPresence });
        }
      } catch (err) {
        if (stop.signal.aborted) return;
      }
      if (stop.signal.aborted) return;
      // a little jitter, so that the pages of a restarted server do not all come back at once
      const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)] * (0.8 + 0.4 * Math.random());
      onStatus({ live: false, reason, retryMs: wait, attempt: failures + 1 });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return handle;
}

// Each message of the stream `body` to its handler, until the stream ends.
async function read(body, handlers) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let kind = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) kind = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (!data.length) continue;  // a comment: the server is still there
      const message = JSON.parse(data.join("\n"));
      if (kind === "view") handlers.onView(message);
      else if (kind === "presence") handlers.onPresence(message);
    }
  }
}
