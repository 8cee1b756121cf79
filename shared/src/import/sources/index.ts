import type { ImportSource, ImportSourceName } from '../types.js';
import { bitly } from './bitly.js';
import { dub } from './dub.js';
import { kutt } from './kutt.js';
import { shlink } from './shlink.js';
import { yourls } from './yourls.js';

/** Every importer, by the name `--from` takes. */
export const SOURCES: Record<ImportSourceName, ImportSource> = { bitly, dub, shlink, kutt, yourls };
