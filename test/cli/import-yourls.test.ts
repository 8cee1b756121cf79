// hop links import --from yourls against a loopback fixture of its API (import-scenario.ts).
import { importScenario } from './import-scenario.js';

importScenario('yourls', { password: false });
