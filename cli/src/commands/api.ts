import { readFileSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { errorOf, type RawResponse } from '@hop/shared/client';
import { BaseCommand } from '../base-command.js';
import { UsageError } from '../errors.js';
import { fieldsToObject, toQuery } from '../api-request.js';
import { workspaceFlag } from '../flags.js';
import { clean } from '../text-hygiene.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export default class Api extends BaseCommand<typeof Api> {
  static summary = 'Call any endpoint of the API with the CLI\'s credential and workspace, like `gh api`';
  static description = `{ws} in the path is the workspace's id (--workspace, HOP_WORKSPACE, or the default). Fields go into the query of a GET or DELETE and into a JSON body otherwise; --input sends a file as the body instead (then fields go into the query). On a terminal the answer is pretty-printed JSON; piped, it is the body as the server sent it. With --json, the answer's body as JSON. An error answer is printed too, and the exit code is that of any other command (1, or 4 for UNAUTHORIZED). See docs/api.md for every endpoint.`;
  static examples = [
    '<%= config.bin %> api GET /v1/workspaces/{ws}/links --field limit=5',
    '<%= config.bin %> api POST /v1/workspaces/{ws}/links --field url=https://example.com --field slug=launch --field tags[]=promo',
    '<%= config.bin %> api PATCH /v1/workspaces/{ws}/links/lnk_0Ppq8sWb3c1Fz9Xk2Lm4 --input link.json',
    '<%= config.bin %> api GET /v1/me | jq .data.email',
  ];
  static args = {
    method: Args.string({ required: true, options: [...METHODS, ...METHODS.map((m) => m.toLowerCase())], description: 'HTTP method' }),
    path: Args.string({ required: true, description: 'path below the server, e.g. /v1/workspaces/{ws}/links' }),
  };
  static flags = {
    workspace: workspaceFlag(),
    field: Flags.string({ char: 'F', multiple: true, helpValue: '<key=value>', description: 'a field; true, false, null and integers are JSON values, @file reads a file (@- stdin), key[]=v adds to a list; repeat for several' }),
    'raw-field': Flags.string({ char: 'f', multiple: true, helpValue: '<key=value>', description: 'a field whose value stays a string; repeat for several' }),
    input: Flags.string({ helpValue: '<file|->', description: 'the request body: a JSON file, or - for stdin' }),
  };

  async run(): Promise<unknown> {
    const method = this.args.method.toUpperCase();
    const stdin = () => readFileSync(0, 'utf8');
    const fields = fieldsToObject(this.flags.field ?? [], this.flags['raw-field'] ?? [], stdin);
    const input = this.flags.input === undefined ? undefined : this.flags.input === '-' ? stdin() : readFileSync(this.flags.input, 'utf8');
    const inQuery = method === 'GET' || method === 'DELETE' || input !== undefined;
    if (input !== undefined && (method === 'GET' || method === 'DELETE')) throw new UsageError(`--input sends a body, which a ${method} does not take`);
    const path = `${await this.fillPath(this.args.path)}${inQuery ? toQuery(fields) : ''}`;
    const body = inQuery || !Object.keys(fields).length ? undefined : fields;
    const res = await this.api.raw(method, path, {
      ...(input !== undefined ? { rawBody: input, headers: { 'content-type': 'application/json' } } : { body }),
    });
    if (!this.jsonEnabled()) this.print(res);
    if (res.status >= 400) throw errorOf(res, this.settings.apiUrl);
    return res.body;
  }

  /** Piped, byte for byte what the server sent; on a terminal, indented and ending in a newline. */
  private print(res: RawResponse): void {
    if (!this.io.stdoutIsTTY) this.io.out(res.text);
    else if (res.text) this.io.out(`${clean(typeof res.body === 'object' ? JSON.stringify(res.body, null, 2) : res.text.trimEnd())}\n`);
  }

  /** `/`-rooted, with `{ws}` as the workspace's id (resolved only when the path has it). */
  private async fillPath(path: string): Promise<string> {
    const rooted = path.startsWith('/') ? path : `/${path}`;
    if (!rooted.includes('{ws}')) return rooted;
    return rooted.replaceAll('{ws}', encodeURIComponent(await this.workspaceId(this.flags.workspace)));
  }
}
