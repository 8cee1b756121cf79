import { Args, Flags } from '@oclif/core';
import type { QrAnalytics } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { printRecord, printTable } from '../../render.js';

export default class QrAnalyticsCommand extends BaseCommand<typeof QrAnalyticsCommand> {
  static summary = 'Scans of a QR code: totals, by country, per day';
  static examples = [
    '<%= config.bin %> qr analytics qr_0Ppq8sWb3c1Fz9Xk2Lm4',
    '<%= config.bin %> qr analytics qr_0Ppq8sWb3c1Fz9Xk2Lm4 --json',
  ];
  static args = { qrId: Args.string({ required: true, description: 'QR code id (qr_...)' }) };
  static flags = { days: Flags.integer({ min: 1, max: 730, description: 'days back from today (1-730, default 30)' }) };

  async run(): Promise<QrAnalytics> {
    const { data } = await this.api.call('getQrAnalytics', { params: { qrId: this.args.qrId }, query: { days: this.flags.days } });
    if (this.jsonEnabled()) return data;
    printRecord(this.io, { period: `${data.start} .. ${data.end}`, totalScans: data.totalScans, uniqueScans: data.uniqueScans });
    if (data.scansByCountry.length) {
      this.io.out('\n');
      await printTable(this.io, data.scansByCountry, [
        { header: 'COUNTRY', value: (c) => c.country ?? 'unknown' },
        { header: 'SCANS', value: (c) => c.scans },
      ]);
    }
    return data;
  }
}
