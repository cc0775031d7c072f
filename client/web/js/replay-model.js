// A finished game as a sequence of views: the JS twin of protocol/replay.py.
//
// The server sends `start` (the view before the first action) and `steps`, each
// {t, by, view, delta, label?, path?} in the `moved` delta form relative to the
// frame before it (delta.js). Frame k is the board after k actions. Folding from
// the start costs O(k), so every CACHE_EVERY-th frame is kept: a jump folds from
// the nearest kept frame before it, and stepping back costs at most CACHE_EVERY
// folds. No game rules: the frames are what the server's rules made.
//
// A game's board may follow something across the steps (who changed each cell, so a
// replay can colour each player's reveals): its `tracker` ({start(), copy(state),
// step(state, before, after, by)}, the board class's `replayTracker()`) is run on
// every step folded, and its state kept with the cached frames.

import { applyDelta } from "./delta.js";

export const CACHE_EVERY = 32;

export class ReplayError extends Error {}

export class Replay {
  /** `msg`: the server's `replay` answer (its first page of steps); `tracker`: what the
   * game's board follows across the steps, or null. */
  constructor(msg, tracker = null) {
    if (!msg || typeof msg.start !== "object" || msg.start === null || !Array.isArray(msg.steps)) {
      throw new ReplayError("not a replay");
    }
    this.gameId = msg.game_id;
    this.game = String(msg.game || "");
    this.options = msg.options || {};
    this.players = Array.isArray(msg.players) ? msg.players : [];
    this.result = msg.result || {};
    this.rated = msg.rated === true;
    this.startedAt = msg.started_at;
    this.endedAt = msg.ended_at;
    this.steps = [];
    this.next = null;
    this.tracker = tracker;
    this.cache = new Map([[0, { view: msg.start, tracked: tracker ? tracker.start() : null }]]);
    this.position = 0;
    this.extend(msg.steps, msg.next);
  }

  /** Add a later page of steps (`get-replay` with `from`); `next` is the page after. */
  extend(steps, next = null) {
    for (const step of steps || []) {
      if (!step || typeof step !== "object") throw new ReplayError("a step is not an object");
      this.steps.push(step);
    }
    this.next = Number.isInteger(next) ? next : null;
  }

  /** The number of steps known (all of them once `next` is null). */
  get length() { return this.steps.length; }

  get complete() { return this.next === null; }

  /** The step that made frame k (1-based), or null for frame 0. */
  step(k) {
    return k >= 1 && k <= this.steps.length ? this.steps[k - 1] : null;
  }

  /** Frame k: {view, tracked} (tracked: the tracker's state after step k, or null). */
  frame(k) {
    const at = Math.max(0, Math.min(this.length, Math.trunc(Number(k) || 0)));
    let from = at;
    while (!this.cache.has(from)) from -= 1;
    const kept = this.cache.get(from);
    const tracker = this.tracker;
    let view = kept.view;
    // changed in place below; kept frames hold copies
    const tracked = tracker ? tracker.copy(kept.tracked) : null;
    for (let i = from + 1; i <= at; i += 1) {
      const step = this.steps[i - 1];
      const next = step.delta && typeof step.delta === "object"
        ? applyDelta(view, step.view || {}, step.delta)
        : step.view;
      if (!next || typeof next !== "object") throw new ReplayError(`step ${i} does not fit the frame before it`);
      if (tracker) tracker.step(tracked, view, next, step.by);
      view = next;
      if (i % CACHE_EVERY === 0) this.cache.set(i, { view, tracked: tracker ? tracker.copy(tracked) : null });
    }
    return { view, tracked };
  }

  /** The current frame's view. */
  get view() { return this.frame(this.position).view; }

  /** Move to frame k (clamped); returns the new position. */
  jump(k) {
    this.position = Math.max(0, Math.min(this.length, Math.trunc(Number(k) || 0)));
    return this.position;
  }

  forward() { return this.jump(this.position + 1); }

  back() { return this.jump(this.position - 1); }

  get atEnd() { return this.position >= this.length; }
}
