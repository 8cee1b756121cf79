// The names Hop publishes under on npm (both answered E404 when chosen, so the project can take them).
export const PACKAGE_NAMES = { cli: 'hop-cli', server: 'hop-server' };
