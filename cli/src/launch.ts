// Runs `hop`: oclif over the package whose package.json is given, finding commands through its
// oclif.manifest.json so that a cold start loads only the command it runs. The checkout's bin/hop
// and the published package's bin both call this.
import { execute } from '@oclif/core';
import { fileURLToPath } from 'node:url';

const drained = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => (stream.writableNeedDrain ? stream.once('drain', () => resolve()) : resolve()));

export async function launch(packageJson: URL): Promise<never> {
  await execute({ dir: fileURLToPath(packageJson) });
  // The command is done (oclif exits by itself on errors). Exit now rather than when the event loop
  // empties: after an undici request (the tail commands use undici), V8 keeps the process alive
  // a noticeable while finishing the optimised compilation of its WebAssembly HTTP parser, which
  // nothing will use. Output still buffered for a pipe is written out first.
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit();
}
