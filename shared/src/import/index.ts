export * from './types.js';
export * from './plan.js';
export { SOURCES } from './sources/index.js';
export * from './read-api.js';
export * from './contract.js';
