import { Command, Errors, type Interfaces } from '@oclif/core';
import { createHopClient, type HopClient } from '@hop/shared/client';
import { Flags } from '@oclif/core';
import { AuthRequiredError, EXIT, UsageError, describeError, exitCodeFor } from './errors.js';
import { askConfirm } from './prompts.js';
import { parseErrorLine } from './parse-errors.js';
import { DEFAULT_RETRY, NO_RETRY, withRetry } from './api-retry.js';
import { credentialKind, credentialProblem, openConfigStore, resolveSettings, type ConfigStore, type Settings } from './config-store.js';
import { refreshIfExpiring } from './oauth-login.js';
import { ciTokenSource, exchangeCiToken } from './ci-exchange.js';
import { systemIO, type IO } from './io.js';
import { printRecord, printTable, type Column } from './render.js';
import { clean } from './text-hygiene.js';
import { resolveWorkspace } from './workspace-ref.js';
import { isLinkId, linkIdFor } from './link-ref.js';

export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * What every `hop` command shares: `--json` (oclif prints whatever `run()` returns, which is the
 * response's `data`), settings, the API client, prompts only where a human can answer, and one
 * line on stderr with a fixed exit code when something fails.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static enableJsonFlag = true;
  static baseFlags = {
    retry: Flags.boolean({
      default: true,
      allowNo: true,
      helpGroup: 'GLOBAL',
      description: 'retry 429 and 5xx answers with backoff, waiting as long as Retry-After says (--no-retry: fail at once)',
    }),
  };
  /** Commands that handle the stored OAuth login themselves (login, logout) skip the refresh. */
  static skipRefresh = false;

  protected flags!: CommandFlags<T>;
  protected args!: CommandArgs<T>;
  protected store!: ConfigStore;
  protected settings!: Settings;
  /** The one source of terminal facts (TTY, width, colour): see io.ts. */
  protected readonly io: IO = systemIO();
  #client?: HopClient;
  #reloading?: Promise<void>;

  public async init(): Promise<void> {
    await super.init();
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as CommandFlags<T>;
    this.args = args as CommandArgs<T>;
    this.store = openConfigStore();
    this.settings = resolveSettings(this.store);
    // A browser login's access token lasts an hour: refresh it (rotating the refresh token) first.
    const skipRefresh = (this.ctor as typeof BaseCommand).skipRefresh;
    const ci = ciTokenSource(process.env);
    if (ci && !skipRefresh) {
      // A CI job proves who it is instead of storing a secret: its token is never written to disk.
      const { token } = await exchangeCiToken(this.settings.apiUrl, process.env, ci);
      this.settings = { ...this.settings, credential: token, credentialKind: 'ci', credentialSource: 'oidc' };
    } else if (this.settings.credentialSource === 'config' && !skipRefresh) {
      await refreshIfExpiring(this.store, this.settings.apiUrl);
      this.settings = resolveSettings(this.store);
    }
  }

  /** The API client for the configured server and credential; exit 4 when there is none. */
  protected get api(): HopClient {
    const { credential, apiUrl } = this.settings;
    const problem = credentialProblem(this.settings);
    if (problem) throw new AuthRequiredError(problem);
    if (!credential) throw new AuthRequiredError();
    this.#client ??= this.clientFor(apiUrl, credential);
    return this.#client;
  }

  /**
   * The API client with the stored login as it is now. A command that runs for hours (`hop mcp`)
   * outlives the hour a browser login's access token lasts, and meanwhile another `hop` may
   * refresh the login (rotating the refresh token this process read at start), log out or log in
   * again: the settings file is read again before each call and the token refreshed when due, one
   * refresh at a time, since a refresh token used twice ends the login.
   */
  protected async currentApi(): Promise<HopClient> {
    // HOP_API_KEY, when set, is the credential whatever the file says.
    if (this.settings.credentialSource !== 'env') {
      this.#reloading ??= this.#reloadLogin().finally(() => (this.#reloading = undefined));
      await this.#reloading;
    }
    return this.api;
  }

  async #reloadLogin(): Promise<void> {
    this.store = openConfigStore();
    await refreshIfExpiring(this.store, this.settings.apiUrl);
    const settings = resolveSettings(this.store);
    if (settings.credential !== this.settings.credential) this.#client = undefined;
    this.settings = settings;
  }

  /** A key goes in X-API-Key, anything else is a bearer token (docs/api.md, Access). */
  protected clientFor(apiUrl: string, credential: string): HopClient {
    const auth = credentialKind(credential) === 'api-key' ? { apiKey: credential } : { token: credential };
    const client = createHopClient({ baseUrl: apiUrl, userAgent: `hop-cli/${this.config.version}`, ...auth });
    // Pipelines retry: 429 and 5xx come back after Retry-After or a backoff; writes carry an Idempotency-Key.
    const retry = (this.flags as { retry?: boolean }).retry === false || process.env.HOP_NO_RETRY ? NO_RETRY : DEFAULT_RETRY;
    return withRetry(client, retry, {
      onRetry: ({ error, attempt, delayMs }) =>
        process.stderr.write(`${error.code === 'RATE_LIMIT_EXCEEDED' ? 'Rate limited' : `${error.message} (${error.code})`}: retrying in ${Math.ceil(delayMs / 1000)} s (${attempt}/${retry.retries})\n`),
    });
  }

  /** The workspace to act in: `--workspace`/HOP_WORKSPACE (id or slug), else the default; see workspace-ref.ts. */
  protected async workspaceId(explicit: string | undefined = process.env.HOP_WORKSPACE || undefined): Promise<string> {
    return (await resolveWorkspace(this.api, this.settings, explicit)).id;
  }

  /** A link named by id or slug (a slug is looked up in the workspace of `--workspace`/the default). */
  protected async resolveLinkId(ref: string, workspace?: string): Promise<string> {
    if (isLinkId(ref)) return ref;
    return linkIdFor(this.api, await this.workspaceId(workspace), ref);
  }

  /** A human can answer a prompt: stdin is a terminal and this is not a CI job. */
  protected get interactive(): boolean {
    return this.io.interactive;
  }

  /**
   * Asks before a deletion unless `yes`: a script must pass --yes (exit 2 without it); answering
   * No is a decision, not a failure: nothing changes and the exit code is 0.
   */
  protected async confirmOrStop(question: string | (() => Promise<string>), yes: boolean | undefined, verb = 'delete'): Promise<void> {
    if (yes) return;
    if (!this.interactive) throw new UsageError(`refusing to ${verb} without --yes when not on a terminal`);
    if (await askConfirm(typeof question === 'string' ? question : await question())) return;
    this.info('Nothing changed');
    this.exit(EXIT.ok);
  }

  /** Data goes to stdout; this is for messages and progress, which never belong in a pipe. */
  protected info(message: string): void {
    if (!this.jsonEnabled()) this.io.err(`${message}\n`);
  }

  /**
   * A list as a table (see render.ts), nothing under --json; an empty list is one line on stderr
   * saying so, never a lone header. `--wide`, where a command has it, shows every column in full.
   */
  protected async printList<R>(rows: readonly R[], columns: readonly Column<R>[], empty: string): Promise<void> {
    if (this.jsonEnabled()) return;
    if (!rows.length) return this.info(empty);
    await printTable(this.io, rows, columns, { wide: Boolean((this.flags as { wide?: boolean }).wide) });
  }

  /**
   * A secret the server shows only once (a key, a webhook secret): on a terminal the whole record;
   * piped, the secret alone, so `SECRET=$(hop ...)` captures it. Nothing under --json, which
   * prints the result itself.
   */
  protected showSecretOnce(record: Record<string, unknown>, secret: string): void {
    if (this.jsonEnabled()) return;
    if (this.io.stdoutIsTTY) printRecord(this.io, record);
    else this.io.out(`${secret}\n`);
  }

  protected async catch(err: Error & { exitCode?: number }): Promise<never> {
    if (err instanceof Errors.ExitError) throw err;
    const usage = parseErrorLine(err, this.id ?? '', this.config.bin, this.ctor);
    if (usage) {
      process.stderr.write(`Error: ${usage}\n`);
      return this.exit(EXIT.usage) as never;
    }
    const surface = { flags: Object.keys(this.ctor.flags ?? {}), args: Object.keys(this.ctor.args ?? {}) };
    process.stderr.write(`Error: ${clean(describeError(err, surface))}\n`);
    if (process.env.HOP_DEBUG && err.stack) process.stderr.write(`${err.stack}\n`);
    return this.exit(exitCodeFor(err)) as never;
  }
}
