import { validationError } from './errors.js';

/** No contract nests deeper than this; deeper input is refused before anything walks it. */
const MAX_DEPTH = 32;

/**
 * The first place inside `value` that PostgreSQL could not store (text cannot hold U+0000), or
 * where it nests deeper than any contract does, with why; null when there is none. Iterative, so a
 * hostile body nested a hundred thousand levels deep cannot exhaust the stack. Paths start at
 * `root` (`query`, `params`; empty for a body, whose fields are named bare).
 */
export function nulProblem(value: unknown, root: (string | number)[]): { path: string; message: string } | null {
  const stack: [unknown, (string | number)[]][] = [[value, root]];
  const at = (path: (string | number)[]) => path.join('.') || 'body';
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { path: at(path), message: 'may not contain the NUL character' };
    } else if (v && typeof v === 'object') {
      if (path.length - root.length >= MAX_DEPTH) return { path: path.slice(0, 3).join('.') || 'body', message: 'is nested too deeply' };
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return { path: at(path), message: 'may not contain the NUL character' };
        stack.push([child, [...path, Array.isArray(v) ? Number(k) : k]]);
      }
    }
  }
  return null;
}

/** Throws VALIDATION_ERROR naming the first NUL (or over-deep nesting) inside `value`. */
export function rejectNul(value: unknown, root: (string | number)[]): void {
  const problem = nulProblem(value, root);
  if (problem) throw validationError(problem.path, problem.message);
}
