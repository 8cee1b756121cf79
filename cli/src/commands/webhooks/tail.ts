import { Flags } from '@oclif/core';
import { EventSchema, type HopEvent } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { AuthRequiredError, UsageError } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';
import { forwardEvent, type ForwardResult } from '../../event-stream/forwarder.js';
import { checkStreamEvent, type SignatureCheck } from '../../event-stream/signature-check.js';
import { followEventStream, type StreamEvent, type StreamReady } from '../../event-stream/sse-client.js';
import { credentialHeaders, eventTime, painter, parseEventTypes, stopSignal, writeJsonLine } from '../../event-stream/stream-session.js';

export default class WebhooksTail extends BaseCommand<typeof WebhooksTail> {
  static summary = "Listen to the workspace's events live: verify each signature, optionally forward to a local URL";
  static description =
    'Prints the session signing secret on stderr, then one line per event: time, type, delivery id and ✓ or ✗ with the ' +
    'reason. With --forward-to, POSTs each raw body with its original headers to a local URL and prints the answer. ' +
    'With --json: a first line {"type":"ready",...}, then one line per event ({"type":"event",...}) and per forward ' +
    '({"type":"forward",...}). Reconnects by itself and resumes where it left off; Ctrl-C stops.';
  static examples = [
    '<%= config.bin %> webhooks tail --forward-to http://localhost:4000/hooks',
    '<%= config.bin %> webhooks tail --events link.created,link.updated --json',
    'export HOP_WEBHOOK_SECRET=$(<%= config.bin %> webhooks tail --print-secret)',
  ];
  static flags = {
    workspace: workspaceFlag(),
    events: Flags.string({ multiple: true, multipleNonGreedy: true, helpValue: '<type,...>', description: 'only these event types (comma-separated or repeated; default: all)' }),
    'forward-to': Flags.string({ helpValue: '<url>', description: 'POST each event to this URL (e.g. http://localhost:4000/hooks) with its signed headers' }),
    'print-secret': Flags.boolean({ exclusive: ['forward-to'], description: 'print only the session signing secret on stdout and exit' }),
  };

  async run(): Promise<{ secret: string } | undefined> {
    const { credential, apiUrl } = this.settings;
    if (!credential) throw new AuthRequiredError();
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const events = parseEventTypes(this.flags.events);
    const forwardTo = this.flags['forward-to'];
    if (forwardTo && !/^https?:\/\/[^/]/.test(forwardTo)) throw new UsageError('--forward-to needs an http:// or https:// URL');
    const userAgent = `hop-cli/${this.config.version}`;
    const stop = stopSignal();
    let secret = '';
    let workspaceSlug = workspaceId;
    await followEventStream({
      baseUrl: apiUrl, workspaceId, events, headers: credentialHeaders(credential, userAgent), signal: stop.signal,
      onReady: (ready, { reconnects, resumedFrom }) => {
        secret = ready.secret;
        workspaceSlug = ready.workspaceSlug ?? workspaceId;
        if (this.flags['print-secret']) return stop.abort();
        if (reconnects) return void process.stderr.write(`Reconnected${resumedFrom ? `, resuming after event ${resumedFrom}` : ''}\n`);
        if (this.jsonEnabled()) writeJsonLine({ type: 'ready', ...ready, forwardTo: forwardTo ?? null });
        else this.announce(ready, forwardTo);
      },
      onEvent: (event) => this.handleEvent(event, secret, { workspaceId, workspaceSlug }, forwardTo, userAgent),
      onReconnecting: ({ attempt, delayMs, error }) =>
        process.stderr.write(`Disconnected (${error}); reconnecting in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt})\n`),
    });
    if (!this.flags['print-secret']) return undefined;
    if (this.jsonEnabled()) return { secret };
    process.stdout.write(`${secret}\n`);
    return undefined;
  }

  /** One event: its signature checked and shown, then forwarded and the local answer reported back. */
  private async handleEvent(event: StreamEvent, secret: string, ws: { workspaceId: string; workspaceSlug: string }, forwardTo: string | undefined, userAgent: string) {
    const { workspaceId } = ws;
    this.printEvent(event, checkStreamEvent(secret, event), ws.workspaceSlug);
    if (!forwardTo) return;
    const result = await forwardEvent(forwardTo, event, `${userAgent} (webhooks tail)`);
    this.printForward(event, result);
    // Report the local answer so the workspace's log shows it; a failed report never stops the tail.
    await this.api.call('reportStreamResult', {
      params: { workspaceId },
      body: { eventId: event.eventId, deliveryId: event.deliveryId, forwardedTo: result.url, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error },
    }).catch(() => {});
  }

  private announce(ready: StreamReady, forwardTo: string | undefined) {
    const events = ready.events === 'all' ? 'all events' : ready.events.join(', ');
    process.stderr.write(
      `Listening for ${events} in ${ready.workspaceSlug ?? ready.workspaceId} (${ready.workspaceId})\n` +
        `Signing secret: ${ready.secret}\n` +
        `  (the same on every run with this credential; give it to your receiver, e.g. HOP_WEBHOOK_SECRET)\n` +
        (forwardTo ? `Forwarding to ${forwardTo}\n` : '') +
        'Ctrl-C to stop.\n',
    );
  }

  private printEvent(event: StreamEvent, check: SignatureCheck, workspaceSlug: string) {
    const body = parseEventBody(event.body);
    const linkSlug = linkSlugOf(body.event);
    if (this.jsonEnabled()) {
      return writeJsonLine({
        type: 'event', seq: event.seq, eventId: event.eventId, eventType: event.type, deliveryId: event.deliveryId, workspaceSlug, linkSlug,
        signature: check.valid ? 'valid' : 'invalid', reason: check.reason, explanation: check.explanation, event: body.raw,
      });
    }
    const time = eventTime(body.event?.timestamp, this.io);
    const { green, red } = painter(this.io);
    const mark = check.valid ? green('✓') : red(`✗ ${check.explanation}`);
    const where = `${workspaceSlug}/${linkSlug ?? '-'}`;
    process.stdout.write(`${time}  ${event.type.padEnd(12)}  ${where}  ${event.deliveryId}  ${mark}\n`);
  }

  private printForward(event: StreamEvent, r: ForwardResult) {
    if (this.jsonEnabled()) return writeJsonLine({ type: 'forward', eventId: event.eventId, deliveryId: event.deliveryId, ...r });
    const { green, red } = painter(this.io);
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const outcome = r.statusCode === null ? red(`✗ ${r.error}`) : ok ? green(String(r.statusCode)) : red(String(r.statusCode));
    process.stdout.write(`  → ${outcome} in ${r.durationMs} ms from ${r.url}\n`);
  }
}

/** A stream event's body as received (shown as text when it is not JSON), and as the contract reads it. */
function parseEventBody(text: string): { raw: unknown; event?: HopEvent } {
  let raw: unknown = text;
  try {
    raw = JSON.parse(text);
  } catch {
    return { raw };
  }
  const parsed = EventSchema.safeParse(raw);
  return { raw, event: parsed.success ? parsed.data : undefined };
}

/** The slug of the link an event is about: `data.link.slug`, or `data.slug` for clicks and scans. */
function linkSlugOf(event: HopEvent | undefined): string | null {
  const data = event?.data as { link?: { slug?: string }; slug?: string } | undefined;
  return data?.link?.slug ?? data?.slug ?? null;
}
