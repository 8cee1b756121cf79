import { readFileSync } from 'node:fs';

/** The server's version, from its package.json (beside both src/ and dist/). */
export const SERVER_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
