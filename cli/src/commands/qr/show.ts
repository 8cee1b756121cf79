import { Args } from '@oclif/core';
import type { QrCode } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';

export default class QrShow extends BaseCommand<typeof QrShow> {
  static summary = "Draw a link's QR code in the terminal";
  static description = 'Draws the newest QR code of the link (or the QR code given by id): the same address the printed code holds, so scans of the screen count as scans.';
  static examples = ['<%= config.bin %> qr show lnk_0Ppq8sWb3c1Fz9Xk2Lm4'];
  static args = { link: Args.string({ required: true, description: 'link id (lnk_...) or slug, or a QR code id (qr_...)' }) };

  static flags = { workspace: workspaceFlag() };

  async run(): Promise<QrCode> {
    const { link } = this.args;
    let qr: QrCode | undefined;
    if (link.startsWith('qr_')) {
      qr = (await this.api.call('getQrCode', { params: { qrId: link } })).data;
    } else {
      qr = (await this.api.call('listQrCodes', { params: { linkId: await this.resolveLinkId(link, this.flags.workspace) }, query: { limit: 1 } })).data[0];
      if (!qr) throw new UsageError(`${link} has no QR code yet: create one with \`hop qr create ${link}\``);
    }
    if (!this.jsonEnabled()) {
      const { default: qrcode } = await import('qrcode-terminal');
      qrcode.generate(qr.scanUrl, { small: true }, (drawing) => process.stdout.write(`${drawing}\n`));
      process.stdout.write(`${qr.scanUrl}\n`);
    }
    return qr;
  }
}
