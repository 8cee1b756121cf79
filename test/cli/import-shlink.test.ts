// hop links import --from shlink against a loopback fixture of its API (import-scenario.ts).
import { importScenario } from './import-scenario.js';

importScenario('shlink', { password: false });
