import { createWriteStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Args, Flags } from '@oclif/core';
import { HopApiError } from '@hop/shared/client';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';
import { isQrId, newestQrCode } from '../../qr-ref.js';

export interface QrDownloadResult {
  qrId: string;
  /** Where the image was written. */
  path: string;
  bytes: number;
  contentType: string;
}

/** The image's response, streaming; the contract's error otherwise. Public: it needs no credential, only the server. */
async function openDownload(apiUrl: string, qrId: string, userAgent: string) {
  const { request } = await import('undici');
  let res;
  try {
    res = await request(`${apiUrl.replace(/\/+$/, '')}/v1/qr/${qrId}/download`, { headers: { 'user-agent': userAgent } });
  } catch (err) {
    throw new HopApiError('NETWORK_ERROR', `cannot reach ${apiUrl}: ${(err as Error).message}`, 0);
  }
  if (res.statusCode === 200) return res;
  let error: { code?: string; message?: string } = {};
  try {
    error = (JSON.parse(await res.body.text()) as { error: typeof error }).error ?? {};
  } catch { /* not JSON */ }
  throw new HopApiError((error.code ?? 'INTERNAL_ERROR') as never, error.message ?? `unexpected ${res.statusCode} answer`, res.statusCode);
}

export default class QrDownload extends BaseCommand<typeof QrDownload> {
  static summary = 'Save a QR code image (PNG, SVG or PDF as it was created)';
  static description = 'Without --output, piped: the bytes go to stdout; on a terminal: saved under the name the server gives (<slug>.<format>).';
  static examples = [
    '<%= config.bin %> qr download launch --output launch.png',
    '<%= config.bin %> qr download qr_0Ppq8sWb3c1Fz9Xk2Lm4 --output launch.png',
    '<%= config.bin %> qr download qr_0Ppq8sWb3c1Fz9Xk2Lm4 > launch.svg',
    '<%= config.bin %> qr download qr_0Ppq8sWb3c1Fz9Xk2Lm4 --json   # saves <slug>.<format>, prints {path, bytes, contentType}',
  ];
  static args = { link: Args.string({ required: true, description: 'a QR code id (qr_...), or a link id (lnk_...) or slug for its newest code' }) };
  static flags = {
    workspace: workspaceFlag(),
    output: Flags.string({ char: 'o', helpValue: 'FILE', description: 'write the image to FILE ("-" for stdout)' }),
  };

  async run(): Promise<QrDownloadResult | void> {
    const qrId = await this.qrIdOf(this.args.link, this.flags.workspace);
    const res = await openDownload(this.settings.apiUrl, qrId, `hop-cli/${this.config.version}`);
    const disposition = String(res.headers['content-disposition'] ?? '');
    const suggested = /filename="([^"/\\]+)"/.exec(disposition)?.[1] ?? `${qrId}.bin`;
    let output = this.flags.output;
    // Under --json, stdout holds the record: the image always goes to a file.
    if (!output) output = this.io.stdoutIsTTY || this.jsonEnabled() ? suggested : '-';
    if (output === '-') {
      if (this.jsonEnabled()) throw new UsageError('--json prints a record on stdout: write the image with --output FILE');
      await pipeline(res.body, process.stdout);
      return;
    }
    await pipeline(res.body, createWriteStream(output));
    this.info(`Saved ${output}`);
    return { qrId, path: output, bytes: statSync(output).size, contentType: String(res.headers['content-type'] ?? '') };
  }

  /** A QR code id as given; a link (id or slug) names its newest code. */
  private async qrIdOf(ref: string, workspace: string | undefined): Promise<string> {
    if (isQrId(ref)) return ref;
    if (ref.startsWith('qr_')) throw new UsageError(`"${ref}" is not a QR code id (qr_...)`);
    return (await newestQrCode(this.api, await this.resolveLinkId(ref, workspace), ref)).id;
  }
}
