// hop links import --from kutt against a loopback fixture of its API (import-scenario.ts).
import { importScenario } from './import-scenario.js';

importScenario('kutt', { password: true });
