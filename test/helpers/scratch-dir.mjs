// Temporary directories for one test process (a server's data directory, a certificate, a file
// the CLI writes): each is removed when the process exits, passed or failed (a process killed by a
// signal leaves its own), so runs do not pile up under /tmp (an embedded server's holds ~40 MB).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];
process.on('exit', () => {
  for (const dir of made) {
    try {
      // A server still writing as the process exits can make a removal fail: never a test's failure.
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      /* left behind */
    }
  }
});

/**
 * A fresh directory under the system's temporary one, its name `prefix` and a random tail.
 * @param {string} prefix
 * @returns {string}
 */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
