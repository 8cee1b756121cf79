import { readFile } from 'node:fs/promises';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { PartialSuccessError, UsageError } from '../../errors.js';
import { workspaceFlag, yesFlag } from '../../flags.js';
import { createInBulk, customDomainNames, describeFailure, fetchAllLinks, progressBar } from '../../link-batch.js';
import { createBody, displayKey, parseLinksFile, planChanges, renderPlan, updateBody, type PlanItem } from '../../link-plan.js';
import { askConfirm, readStdin } from '../../prompts.js';

/** One line of `--json` output per link. */
export interface ApplyLine {
  action: PlanItem['action'];
  domain: string | null;
  slug: string;
  success: boolean;
  id?: string;
  changes?: string[];
  error?: { code: string; message: string };
}

/** The file (or stdin for `-`) as YAML, a superset of JSON: one parser for both. */
async function readLinksDocument(file: string): Promise<unknown> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8').catch((err) => {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  });
  const { parse } = await import('yaml');
  try {
    return parse(text);
  } catch (err) {
    throw new UsageError(`${file}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** What `--json` prints for a planned or applied item, before its result is known. */
function lineOf(item: PlanItem): ApplyLine {
  const link = item.action === 'create' ? undefined : item.link;
  return {
    action: item.action,
    domain: link ? link.domain : item.action === 'create' ? item.desired.domain : null,
    slug: link ? link.slug : (item as { desired: { slug: string } }).desired.slug,
    success: true,
    ...(item.action === 'update' ? { changes: item.changes.map((c) => c.field) } : {}),
  };
}

export default class LinksApply extends BaseCommand<typeof LinksApply> {
  static summary = 'Make the workspace\'s links match a YAML or JSON file (links as code)';
  static description = [
    'Links are matched by domain and slug. Without --plan, the changes are applied: creations through the bulk',
    'endpoint (100 per call), updates one by one; running it again shows no changes. --prune also deletes the',
    'workspace\'s links that the file does not list. Exit 0 when everything applied, 3 when some links failed.',
  ].join('\n');
  static examples = [
    '<%= config.bin %> links apply --file links.yaml --plan',
    '<%= config.bin %> links apply --file links.yaml --prune --yes',
    '<%= config.bin %> links export --format json > links.json && <%= config.bin %> links apply --file links.json --plan',
  ];
  static flags = {
    workspace: workspaceFlag(),
    file: Flags.string({ char: 'f', required: true, helpValue: '<links.yaml|links.json|->', description: 'the links file: YAML or JSON, a list of links or {links: [...]}; - reads stdin' }),
    plan: Flags.boolean({ description: 'show what would change and change nothing' }),
    prune: Flags.boolean({ description: 'delete links of the workspace that the file does not list' }),
    yes: yesFlag(),
  };

  async run(): Promise<void> {
    const { file, plan: planOnly, prune } = this.flags;
    const desired = parseLinksFile(await readLinksDocument(file), file);
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const [links, custom] = await Promise.all([fetchAllLinks(this.api, workspaceId), customDomainNames(this.api, workspaceId)]);
    const items = planChanges(desired, links, custom, prune);
    const defaultDomain = links.find((l) => !custom.has(l.domain))?.domain;
    const json = this.jsonEnabled();
    if (planOnly) {
      if (json) for (const item of items) process.stdout.write(`${JSON.stringify({ ...lineOf(item), success: undefined, planned: true })}\n`);
      else process.stdout.write(`${renderPlan(items, defaultDomain, this.io.color)}\n`);
      return;
    }
    if (!json) process.stderr.write(`${renderPlan(items, defaultDomain, Boolean(process.stderr.isTTY) && !process.env.NO_COLOR)}\n`);
    if (!items.length) return;
    await this.confirmDeletes(items.filter((i) => i.action === 'delete').length, file);
    const results = await this.applyItems(workspaceId, items, defaultDomain);
    const failed = results.filter((r) => !r.success).length;
    this.info(`Applied: ${results.length - failed} of ${results.length} change(s)${failed ? `, ${failed} failed` : ''}.`);
    if (failed === results.length) throw new Error(`every change failed (first: ${results[0].error?.message})`);
    if (failed) throw new PartialSuccessError(failed, results.length);
  }

  /** `--prune` deletes only with --yes, or after a yes at the prompt. */
  private async confirmDeletes(deletes: number, file: string): Promise<void> {
    if (!deletes || this.flags.yes) return;
    if (!this.interactive) throw new UsageError(`--prune would delete ${deletes} link(s): pass --yes to confirm in a non-interactive run`);
    if (!(await askConfirm(`Delete ${deletes} link(s) not in ${file}?`))) throw new UsageError('cancelled: nothing changed');
  }

  private async applyItems(workspaceId: string, items: PlanItem[], defaultDomain: string | undefined): Promise<ApplyLine[]> {
    const json = this.jsonEnabled();
    const bar = progressBar(items.length, !json && Boolean(process.stderr.isTTY));
    const out: ApplyLine[] = [];
    const report = (item: PlanItem, result: Partial<ApplyLine>) => {
      const line = { ...lineOf(item), ...result };
      out.push(line);
      bar.tick();
      if (json) process.stdout.write(`${JSON.stringify(line)}\n`);
      else if (!line.success) process.stderr.write(`\n${displayKey(item, defaultDomain)}: ${line.error?.message} (${line.error?.code})\n`);
    };
    const creates = items.filter((i): i is Extract<PlanItem, { action: 'create' }> => i.action === 'create');
    await createInBulk(this.api, workspaceId, creates.map((c) => createBody(c.desired)), (r) => {
      const item = creates[r.index];
      report(item, r.success ? { success: true, id: r.link?.id, domain: r.link?.domain ?? null } : { success: false, error: r.error });
    });
    for (const item of items) {
      if (item.action === 'create') continue;
      try {
        if (item.action === 'update') {
          await this.api.call('updateLink', { params: { workspaceId, linkId: item.link.id }, body: updateBody(item) });
        } else {
          await this.api.call('deleteLink', { params: { workspaceId, linkId: item.link.id } });
        }
        report(item, { success: true, id: item.link.id });
      } catch (err) {
        report(item, { success: false, id: item.link.id, error: describeFailure(err) });
      }
    }
    bar.end();
    return out;
  }
}
