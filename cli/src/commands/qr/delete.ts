import { Args } from '@oclif/core';
import type { QrCode } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { yesFlag } from '../../flags.js';
import { askConfirm } from '../../prompts.js';

export default class QrDelete extends BaseCommand<typeof QrDelete> {
  static summary = 'Delete a QR code (asks first on a terminal; --yes otherwise)';
  static examples = [
    '<%= config.bin %> qr delete qr_0Ppq8sWb3c1Fz9Xk2Lm4 --yes',
  ];
  static args = { qrId: Args.string({ required: true, description: 'QR code id (qr_...)' }) };
  static flags = { yes: yesFlag() };

  async run(): Promise<QrCode> {
    const { qrId } = this.args;
    if (!this.flags.yes) {
      if (!this.interactive) throw new UsageError('refusing to delete without --yes when not on a terminal');
      if (!(await askConfirm(`Delete ${qrId}? Printed copies stop working.`))) throw new UsageError('cancelled');
    }
    const { data } = await this.api.call('deleteQrCode', { params: { qrId } });
    this.info(`Deleted ${data.id}`);
    if (!this.jsonEnabled() && !this.io.stdoutIsTTY) this.io.out(`${data.id}\n`);
    return data;
  }
}
