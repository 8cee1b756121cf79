import { startTransition, useEffect, useState } from 'react';

/**
 * How many of a page's parts to draw: the first at once, then one more after each paint, each in a
 * transition of its own. React splits a render into short tasks, but each commit, and the browser's
 * layout of what it added, is one task: a page committed whole made the longest tasks of its load
 * (see docs/dashboard.md). Parts are drawn in order, each below the last, so nothing on screen moves.
 */
export function useStaged(parts: number): number {
  const [shown, setShown] = useState(1);
  useEffect(() => {
    if (shown >= parts) return;
    let timer = 0;
    // A frame, then a task after it: the next part starts once the last one has painted.
    const frame = requestAnimationFrame(() => { timer = window.setTimeout(() => startTransition(() => setShown((n) => n + 1)), 0); });
    return () => { cancelAnimationFrame(frame); clearTimeout(timer); };
  }, [shown, parts]);
  return shown;
}
