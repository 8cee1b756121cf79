import { Args, Flags } from '@oclif/core';
import type { QrCode } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { qrColumns } from '../../qr-views.js';

export default class QrList extends BaseCommand<typeof QrList> {
  static summary = 'List the QR codes of a link, newest first';
  static args = { link: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  static examples = ['<%= config.bin %> qr list hello', '<%= config.bin %> qr list lnk_0Ppq8sWb3c1Fz9Xk2Lm4 --all --json'];
  static flags = {
    workspace: workspaceFlag(),
    wide: wideFlag(),
    limit: Flags.integer({ min: 1, max: 100, description: 'codes per page (1-100, default 20)' }),
    cursor: Flags.string({ description: 'the page after this cursor (printed on stderr after a page)' }),
    all: Flags.boolean({ exclusive: ['cursor'], description: 'follow cursors and fetch every page' }),
  };

  async run(): Promise<QrCode[]> {
    const linkId = await this.resolveLinkId(this.args.link, this.flags.workspace);
    const { data: codes, nextCursor: cursor } = await this.api.paginate('listQrCodes', {
      params: { linkId }, query: { limit: this.flags.limit, cursor: this.flags.cursor },
    }, { maxPages: this.flags.all ? undefined : 1 });
    await this.printList(codes, qrColumns, `No QR codes: create one with \`hop qr create ${this.args.link}\``);
    if (cursor) process.stderr.write(`More QR codes: add --cursor ${cursor} (or --all)\n`);
    return codes;
  }
}
