// hop links import --from bitly against a loopback fixture of its API (import-scenario.ts).
import { importScenario } from './import-scenario.js';

importScenario('bitly', { password: false });
