// Requests that wait for their answer: history, replays, leaderboards, profiles and
// analyses are asked with an `id` and answered with `re` (PROTOCOL.md). A view awaits
// the answer; a refusal (`error` with that `re`) rejects with the error message, so
// the view says it in place instead of the page's notice line.

export class QueryError extends Error {
  constructor(msg) {
    super(String(msg.message || msg.code || "error"));
    this.msg = msg;
  }
}

export class Queries {
  constructor(send) {
    this.send = send; // (type, fields) -> request id, or null while offline
    this.waiting = new Map(); // request id -> {resolve, reject}
  }

  /** Send a request; resolves with its answer, rejects with a QueryError. */
  ask(type, fields = {}) {
    return new Promise((resolve, reject) => {
      const id = this.send(type, fields);
      if (id === null) {
        reject(new QueryError({ code: "offline" }));
        return;
      }
      this.waiting.set(id, { resolve, reject });
    });
  }

  /** Settle the request `msg` answers; true when it was one of ours. */
  take(msg) {
    if (!Number.isInteger(msg.re) || !this.waiting.has(msg.re)) return false;
    const { resolve, reject } = this.waiting.get(msg.re);
    this.waiting.delete(msg.re);
    if (msg.type === "error") reject(new QueryError(msg));
    else resolve(msg);
    return true;
  }

  /** The connection dropped: nothing still waiting will be answered. */
  dropAll() {
    for (const { reject } of this.waiting.values()) reject(new QueryError({ code: "offline" }));
    this.waiting.clear();
  }
}
