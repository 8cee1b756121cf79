// hop links import --from dub against a loopback fixture of its API (import-scenario.ts).
import { importScenario } from './import-scenario.js';

importScenario('dub', { password: true });
