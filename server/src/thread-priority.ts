import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Lowers the calling thread's own priority by `steps` of niceness (Linux names a thread by its id,
 * read from /proc/thread-self; `setpriority` on that id changes that thread alone). Where this
 * thread and the one answering redirects both want a core, the scheduler gives the redirect
 * thread most of it, and this thread catches up once the load eases. Off Linux, or where the
 * system refuses, the thread keeps the process's priority.
 */
export function lowerThreadPriority(steps: number): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(thread)) setPriority(thread, Math.min(19, getPriority(thread) + steps));
  } catch {
    // Not Linux, or not allowed: nothing to do.
  }
}
