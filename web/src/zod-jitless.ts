// The dashboard's CSP forbids eval, and zod probes for it (`new Function`) when its first object
// schema is built, which the browser reports as a CSP violation even though zod catches it. Its
// config must say "jitless" before any schema module runs: index.html loads this file as a module
// script of its own, ahead of the app's, and without imports (zod reads this global when loaded).
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };
export {};
