import type { VisitorSalts } from '../domain/clicks/visitor-salts.js';
import type { Job } from './schedule.js';

/** At UTC midnight: make the new day's visitor salt and destroy the old one (docs/api.md, The redirector). */
export function saltRotationJob(salts: VisitorSalts): Job {
  return {
    name: 'salt-rotation',
    lockId: 72_410_102,
    async run(tx) {
      await salts.rotate(tx);
      return { rotated: true };
    },
  };
}
