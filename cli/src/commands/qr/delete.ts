import { Args } from '@oclif/core';
import type { QrCode } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { yesFlag } from '../../flags.js';

export default class QrDelete extends BaseCommand<typeof QrDelete> {
  static summary = 'Delete a QR code (asks first on a terminal; --yes otherwise)';
  static examples = [
    '<%= config.bin %> qr delete qr_0Ppq8sWb3c1Fz9Xk2Lm4 --yes',
  ];
  static args = { qrId: Args.string({ required: true, description: 'QR code id (qr_...)' }) };
  static flags = { yes: yesFlag() };

  async run(): Promise<QrCode> {
    const { qrId } = this.args;
    await this.confirmOrStop(`Delete ${qrId}? Printed copies stop working.`, this.flags.yes);
    const { data } = await this.api.call('deleteQrCode', { params: { qrId } });
    this.info(`Deleted ${data.id}`);
    if (!this.jsonEnabled() && !this.io.stdoutIsTTY) this.io.out(`${data.id}\n`);
    return data;
  }
}
