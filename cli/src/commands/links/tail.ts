import { Flags } from '@oclif/core';
import { VisitEventSchema } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { AuthRequiredError } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';
import { printRows } from '../../render.js';
import { cleanLine } from '../../text-hygiene.js';
import { followEventStream } from '../../event-stream/sse-client.js';
import { credentialHeaders, eventTime, stopSignal, writeJsonLine } from '../../event-stream/stream-session.js';

export default class LinksTail extends BaseCommand<typeof LinksTail> {
  static summary = 'Watch clicks and QR scans live';
  static description =
    'One line per visit: time, slug, country, device, browser, referrer, and "bot" for bots (they are shown, but do not ' +
    'count in analytics). Piped: tab-separated time, type, slug, country, device, browser, referrer, isBot, link id. ' +
    'With --json: a first line {"type":"ready",...}, then each event as a webhook receives it. Ctrl-C stops.';
  static examples = ['<%= config.bin %> links tail', '<%= config.bin %> links tail --link launch --json'];
  static flags = {
    workspace: workspaceFlag(),
    link: Flags.string({ helpValue: '<id|slug>', description: 'only visits of this link (id or slug)' }),
  };

  async run(): Promise<undefined> {
    const { credential, apiUrl } = this.settings;
    if (!credential) throw new AuthRequiredError();
    const workspaceId = await this.workspaceId(this.flags.workspace);
    // An unknown link fails now rather than waiting forever for visits that cannot come.
    const only = this.flags.link ? await this.resolveLinkId(this.flags.link, this.flags.workspace) : undefined;
    const stop = stopSignal();
    await followEventStream({
      baseUrl: apiUrl, workspaceId, events: ['link.clicked', 'qr.scanned'], signal: stop.signal,
      headers: credentialHeaders(credential, `hop-cli/${this.config.version}`),
      onReady: ({ sessionId, workspaceId: ws, events }, { reconnects }) => {
        if (reconnects) return void process.stderr.write('Reconnected\n');
        if (this.jsonEnabled()) writeJsonLine({ type: 'ready', sessionId, workspaceId: ws, events, link: only ?? null });
        else this.info(`Watching ${only ? `visits of ${only}` : 'every visit'} in ${ws}; Ctrl-C to stop.`);
      },
      onEvent: ({ body }) => this.printVisit(body, only),
      onReconnecting: ({ delayMs, error }) => process.stderr.write(`Disconnected (${error}); reconnecting in ${(delayMs / 1000).toFixed(1)} s\n`),
    });
    return undefined;
  }

  /** One visit: the event as sent under --json, a line on a terminal, tab-separated fields piped. */
  private printVisit(body: string, only: string | undefined): void {
    const raw: unknown = JSON.parse(body);
    const parsed = VisitEventSchema.safeParse(raw);
    if (!parsed.success) return void process.stderr.write(`Skipped an event that is not a visit: ${parsed.error.issues[0]?.message}\n`);
    const event = parsed.data;
    const d = event.data;
    if (only && d.linkId !== only) return;
    if (this.jsonEnabled()) return writeJsonLine(raw);
    if (!this.io.stdoutIsTTY) return printRows(this.io, [[d.clickedAt, event.type, d.slug, d.country, d.device, d.browser, d.referrer, d.isBot, d.linkId]]);
    const cells = [eventTime(d.clickedAt, this.io), d.slug, d.country ?? '--', d.device ?? '?', d.browser ?? '?', d.referrer ?? '(direct)'];
    process.stdout.write(`${cells.map((c) => cleanLine(String(c))).join('  ')}${event.type === 'qr.scanned' ? '  qr' : ''}${d.isBot ? '  bot' : ''}\n`);
  }
}
