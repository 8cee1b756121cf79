/**
 * Identical reads that arrive together share one run. A read that arrives while one with its key
 * is running does not join that run (which began before it, and may have missed what the caller
 * wrote just before asking): it waits for it to end and shares the next one with every read that
 * arrived meanwhile. So each answer comes from a run that began after its request arrived, and a
 * key never has more than one run going and one waiting.
 */
export function createSharedReads<T>() {
  const slots = new Map<string, { running: Promise<T>; next?: Promise<T> }>();

  function start(key: string, run: () => Promise<T>): Promise<T> {
    const running = run();
    const slot: { running: Promise<T>; next?: Promise<T> } = { running };
    slots.set(key, slot);
    const settle = () => {
      if (slots.get(key) === slot && !slot.next) slots.delete(key);
    };
    running.then(settle, settle);
    return running;
  }

  return function read(key: string, run: () => Promise<T>): Promise<T> {
    const slot = slots.get(key);
    if (!slot) return start(key, run);
    slot.next ??= slot.running.then(
      () => start(key, run),
      () => start(key, run),
    );
    return slot.next;
  };
}
