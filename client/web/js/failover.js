// Where the page's socket goes when its server node is gone (PROTOCOL.md "Clusters").
//
// Mirrors client/failover.py: a cluster's node lists every node in `welcome.nodes`,
// itself first. After a drop the session tries the address it was on, then the other
// nodes in order (one round), pausing with backoff between rounds, and gives up after
// ROUNDS failed rounds. The page itself stays where it was loaded from; only the
// WebSocket goes to another node (which accepts this page's origin as a node's).
// `welcome.nodes` is the server's data: only well-formed ws/wss addresses are kept.

export const MAX_NODES = 32;
export const MAX_URL = 200;
export const ROUNDS = 6;

/** The usable addresses of `welcome.nodes`, in order, each once. */
export function nodeAddresses(raw) {
  if (!Array.isArray(raw)) return [];
  const found = [];
  for (const item of raw) {
    const url = address(item);
    if (url !== null && !found.includes(url)) found.push(url);
    if (found.length >= MAX_NODES) break;
  }
  return found;
}

function address(item) {
  if (typeof item !== "string" || item.length > MAX_URL) return null;
  const text = item.trim();
  // ws(s)://host:port/ and nothing else: printable ASCII, no user, path, query or fragment
  const hostPort = text.replace(/^wss?:\/\//i, "").replace(/\/$/, "");
  if (!/^wss?:\/\//i.test(text) || !/^[\x21-\x7e]+:[0-9]{1,5}$/.test(hostPort)) return null;
  if (/[/?#@\\]/.test(hostPort)) return null;
  let url;
  try { url = new URL(text); } catch { return null; }
  if (!url.hostname || Number(text.match(/:([0-9]+)\/?$/)[1]) > 65535) return null;
  return text;
}

/** One failover: the addresses to try (the current one first) and how far we got. */
export class Route {
  constructor(current, nodes) {
    this.order = [current, ...nodes.filter((n) => n !== current)];
    this.at = 0;
    this.rounds = 0; // rounds over `order` that failed
  }

  get current() { return this.order[this.at]; }

  /** The current address failed: move on. True when that ends a round (every address
   * tried once); `current` is then the first again. */
  failed() {
    this.at += 1;
    if (this.at < this.order.length) return false;
    this.at = 0;
    this.rounds += 1;
    return true;
  }
}
