// The README's configuration table lists every setting the server reads: the keys of the one zod
// schema of the environment (server/src/config.ts). A setting added without a row fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EnvSchema } from '../../server/src/config.js';
import { readmeSettings } from '../helpers/readme-settings.js';

// Documented in the README from the contract (CONTRACT.md section 16) while their code lands from
// another branch: once the schema has them, they are held to it like every other row.
const CONTRACT_SETTINGS = new Set(['HOP_PLANS', 'HOP_SIGNUP']);

test('every setting of the config schema has a row in the README, and every row is a setting', () => {
  const schema = new Set(Object.keys(EnvSchema.shape));
  const documented = readmeSettings();
  assert.deepEqual([...schema].filter((name) => !documented.has(name)).sort(), [], 'settings without a README row');
  assert.deepEqual([...documented].filter((name) => !schema.has(name) && !CONTRACT_SETTINGS.has(name)).sort(), [], 'README rows the server does not read');
});
