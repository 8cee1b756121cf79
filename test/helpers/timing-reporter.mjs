// A node:test reporter that writes one JSON line per test file (its whole run) and per top-level
// test (name, file, ms). test/run.mjs sends it to a file beside the spec reporter's output and
// prints the slowest of both when the run ends, so each CI log says where the suite's time went.
// A file's own duration arrives as a test:complete named by its path (absolute on Node 20,
// relative to the working directory on later versions).
export default async function* timingReporter(source) {
  const filesSeen = new Set();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail' && event.type !== 'test:complete') continue;
    const { name, nesting, file, details } = event.data;
    if (nesting !== 0 || !file) continue;
    const ms = Math.round(details?.duration_ms ?? 0);
    if (name === file || file.endsWith(`/${name}`)) {
      if (filesSeen.has(file)) continue;
      filesSeen.add(file);
      yield `${JSON.stringify({ kind: 'file', file, ms })}\n`;
    } else if (event.type !== 'test:complete') {
      yield `${JSON.stringify({ kind: 'test', file, name, ms })}\n`;
    }
  }
}
