/**
 * The settings file: one JSON object, private to the user (directory 0700, file 0600), replaced
 * atomically (a temporary file renamed over it) so that a crash never leaves half a file. Not
 * `conf`, whose schema validation and helpers slow every cold start for a file of five keys; the
 * file is where conf keeps it (`env-paths`: ~/.config/hop/config.json on Linux), so logins made
 * with conf still read.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';

export class SettingsFile<T extends object> {
  readonly path: string;
  readonly #dir: string;
  #data: Partial<T>;

  /** In `dir`, else the user's configuration directory for `hop`. */
  constructor(dir?: string) {
    this.#dir = dir ?? envPaths('hop', { suffix: '' }).config;
    this.path = join(this.#dir, 'config.json');
    this.#data = this.#read();
  }

  get<K extends keyof T>(key: K): T[K] | undefined {
    return this.#data[key];
  }

  has(key: keyof T): boolean {
    return this.#data[key] !== undefined;
  }

  set<K extends keyof T>(key: K, value: T[K]): void {
    this.#data[key] = value;
    this.#write();
  }

  delete(key: keyof T): void {
    if (!(key in this.#data)) return;
    delete this.#data[key];
    this.#write();
  }

  #read(): Partial<T> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    try {
      const data: unknown = JSON.parse(text || '{}');
      if (data && typeof data === 'object' && !Array.isArray(data)) return data as Partial<T>;
    } catch {
      // reported below
    }
    throw new Error(`the settings file ${this.path} is not a JSON object: fix it, or delete it and log in again`);
  }

  #write(): void {
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.#data, null, '\t')}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
  }
}
