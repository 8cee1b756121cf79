import { Args, Flags } from '@oclif/core';
import type { QrCode } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { isQrId, newestQrCode } from '../../qr-ref.js';
import { workspaceFlag } from '../../flags.js';
import { cleanLine } from '../../text-hygiene.js';

export default class QrShow extends BaseCommand<typeof QrShow> {
  static summary = "Draw a link's QR code in the terminal";
  static description =
    'Draws the newest QR code of the link (or the QR code given by id): the same address the printed code holds, so scans of the screen count as scans. ' +
    'On a terminal with colours the code is black on white whatever the theme. Without colours (NO_COLOR, or piped) it is drawn for a dark background, or the one COLORFGBG names; --invert draws it for the other.';
  static examples = ['<%= config.bin %> qr show lnk_0Ppq8sWb3c1Fz9Xk2Lm4', 'NO_COLOR=1 <%= config.bin %> qr show hello --invert   # a light terminal that does not set COLORFGBG'];
  static args = { link: Args.string({ required: true, description: 'link id (lnk_...) or slug, or a QR code id (qr_...)' }) };

  static flags = {
    workspace: workspaceFlag(),
    invert: Flags.boolean({ description: 'without colours: draw for a light background instead of a dark one (or the other of the one COLORFGBG names)' }),
  };

  async run(): Promise<QrCode> {
    const { link } = this.args;
    const qr = isQrId(link)
      ? (await this.api.call('getQrCode', { params: { qrId: link } })).data
      : await newestQrCode(this.api, await this.resolveLinkId(link, this.flags.workspace), link);
    if (!this.jsonEnabled()) {
      const { drawQr, drawingFor } = await import('../../qr-terminal.js');
      const drawing = drawingFor({ colour: this.io.color, invert: Boolean(this.flags.invert), colorFgBg: process.env.COLORFGBG });
      process.stdout.write(`${drawQr(qr.scanUrl, drawing).join('\n')}\n${cleanLine(qr.scanUrl)}\n`);
    }
    return qr;
  }
}
