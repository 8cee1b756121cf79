/**
 * Identical reads that arrive together share one run. A read joins the run going for its key if
 * that run began at most `joinWithinMs` before the read arrived: its answer is then no older than
 * that. Otherwise it waits for that run to end and shares the next one with every read that
 * arrived meanwhile, so its answer comes from a run begun after it arrived. A key never has more
 * than one run going and one waiting.
 *
 * Analytics join within one click flush interval (1 s by default): a visit is already up to one
 * interval late in reaching the database, so a run that much older shows nothing a fresh one
 * could not have missed, while ten people on one dashboard wait for one statement instead of for
 * the end of one and the whole of the next (docs/adr/, "Analytics of a busy link").
 */
export function createSharedReads<T>(opts: { joinWithinMs?: number; now?: () => number } = {}) {
  const joinWithinMs = opts.joinWithinMs ?? 0;
  const now = opts.now ?? performance.now.bind(performance);
  type Slot = { running: Promise<T>; startedAt: number; next?: Promise<T> };
  const slots = new Map<string, Slot>();

  function start(key: string, run: () => Promise<T>): Promise<T> {
    const slot: Slot = { running: run(), startedAt: now() };
    slots.set(key, slot);
    const settle = () => {
      if (slots.get(key) === slot && !slot.next) slots.delete(key);
    };
    slot.running.then(settle, settle);
    return slot.running;
  }

  return function read(key: string, run: () => Promise<T>): Promise<T> {
    const slot = slots.get(key);
    if (!slot) return start(key, run);
    if (!slot.next && now() - slot.startedAt <= joinWithinMs) return slot.running;
    slot.next ??= slot.running.then(
      () => start(key, run),
      () => start(key, run),
    );
    return slot.next;
  };
}
