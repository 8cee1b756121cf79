import { Args, Flags } from '@oclif/core';
import { QR_ERROR_CORRECTIONS, QR_FORMATS, QR_MAX_SIZE, QR_MIN_SIZE, type CreateQrCodeBody, type QrCode } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { printRecord } from '../../render.js';
import { workspaceFlag } from '../../flags.js';
import { qrRecord } from '../../qr-views.js';

export default class QrCreate extends BaseCommand<typeof QrCreate> {
  static summary = 'Create a QR code for a link; prints its download URL';
  static description = 'The code encodes a stable address that follows the link: change its destination or slug and printed codes follow. Piped, stdout holds only the download URL.';
  static examples = [
    '<%= config.bin %> qr create lnk_0Ppq8sWb3c1Fz9Xk2Lm4 --format svg --fg "#1a1a2e"',
    '<%= config.bin %> qr create lnk_0Ppq8sWb3c1Fz9Xk2Lm4 --logo https://example.com/logo.png --logo-size 25 --size 1024',
  ];
  static args = { link: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  static flags = {
    workspace: workspaceFlag(),
    format: Flags.string({ options: [...QR_FORMATS], description: 'image format (default png; pdf is vector)' }),
    size: Flags.integer({ min: QR_MIN_SIZE, max: QR_MAX_SIZE, description: `width and height in pixels (${QR_MIN_SIZE}-${QR_MAX_SIZE}, default 512)` }),
    fg: Flags.string({ helpValue: '#rrggbb', description: 'colour of the modules (default #000000)' }),
    bg: Flags.string({ helpValue: '#rrggbb', description: 'background colour (default #ffffff); at least 3:1 contrast, lighter than --fg' }),
    logo: Flags.string({ helpValue: '<https url>', description: 'an HTTPS URL of a PNG logo (at most 1 MiB) to place in the centre' }),
    'logo-size': Flags.integer({ min: 1, max: 30, dependsOn: ['logo'], description: 'logo width in percent of the code (1-30, default 20)' }),
    ec: Flags.string({ options: [...QR_ERROR_CORRECTIONS], description: 'error correction L M Q H (default M, or H with a logo, which needs Q or H)' }),
  };

  async run(): Promise<QrCode> {
    const f = this.flags;
    const body: CreateQrCodeBody = {
      format: f.format as CreateQrCodeBody['format'],
      size: f.size,
      foregroundColor: f.fg,
      backgroundColor: f.bg,
      logoUrl: f.logo,
      logoSize: f['logo-size'],
      errorCorrection: f.ec as CreateQrCodeBody['errorCorrection'],
    };
    const { data } = await this.api.call('createQrCode', { params: { linkId: await this.resolveLinkId(this.args.link, f.workspace) }, body });
    if (this.jsonEnabled()) return data;
    if (this.io.stdoutIsTTY) printRecord(this.io, qrRecord(data));
    else process.stdout.write(`${data.publicUrl}\n`);
    this.info(`Created ${data.id}: download it with \`hop qr download ${data.id}\``);
    return data;
  }
}
