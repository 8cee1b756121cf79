// What an import prints: the plan (counts, then each link) and, after a run, the lists a team
// moving over needs: links that changed domain, passwords left behind, what was not carried.
import { importCounts, PASSWORD_TAG, type ImportItem } from '@hop/shared/import';
import type { ImportResult } from './import-writer.js';

const where = (i: ImportItem, defaultDomain: string | undefined) => `${i.domain ?? defaultDomain ?? '(default domain)'}/${i.slug}`;

export function countsLine(items: ImportItem[]): string {
  const c = importCounts(items);
  const parts = [`${c.create} to create`];
  if (c.overwrite) parts.push(`${c.overwrite} to overwrite`);
  parts.push(`${c.skip} to skip (already there)`, `${c.conflict} conflict(s)`);
  if (c.invalid) parts.push(`${c.invalid} that cannot be imported`);
  return `Plan: ${parts.join(', ')}.`;
}

const SIGN = { create: '+', overwrite: '~', skip: '=', conflict: '!', invalid: 'x' } as const;

/** Counts first, then each link with its notes. */
export function renderImportPlan(items: ImportItem[], defaultDomain: string | undefined): string {
  const lines = [countsLine(items), ''];
  for (const i of items) {
    const reason = i.reason ? `: ${i.reason}` : '';
    lines.push(`  ${SIGN[i.action]} ${i.action} ${i.source} → ${where(i, defaultDomain)}${reason}`);
    lines.push(...notes(i).map((n) => `      ${n}`));
  }
  return lines.join('\n');
}

function notes(i: ImportItem): string[] {
  const out: string[] = [];
  if (i.domainChanged) out.push(`domain changed: ${i.source.split('/')[0]} is not a domain of this workspace`);
  if (i.passwordProtected) out.push(`password not carried: tagged ${PASSWORD_TAG}; set one with hop links update --password-stdin`);
  for (const n of i.notCarried) out.push(`not carried: ${n}`);
  return out;
}

/** After a run: the totals and the lists of links that need a look. */
export function renderImportSummary(items: ImportItem[], results: ImportResult[], defaultDomain: string | undefined): string {
  const created = results.filter((r) => r.success && r.item.action === 'create').length;
  const overwritten = results.filter((r) => r.success && r.item.action === 'overwrite').length;
  const failed = results.filter((r) => !r.success);
  const c = importCounts(items);
  const lines = [`Imported ${created} link(s)${overwritten ? `, overwrote ${overwritten}` : ''}; skipped ${c.skip} already there; ${c.conflict} conflict(s)${c.invalid ? `; ${c.invalid} could not be imported` : ''}${failed.length ? `; ${failed.length} failed` : ''}.`];
  const section = (title: string, list: string[]) => {
    if (list.length) lines.push('', `${title} (${list.length}):`, ...list.map((l) => `  ${l}`));
  };
  const done = new Set(results.filter((r) => r.success).map((r) => r.item));
  section('Changed domain', items.filter((i) => i.domainChanged && done.has(i)).map((i) => `${i.source} → ${where(i, defaultDomain)}`));
  section(`Password-protected at the source, tagged ${PASSWORD_TAG}`, items.filter((i) => i.passwordProtected && done.has(i)).map((i) => where(i, defaultDomain)));
  section('Not carried', items.filter((i) => i.notCarried.length && done.has(i)).map((i) => `${where(i, defaultDomain)}: ${i.notCarried.join('; ')}`));
  section('Conflicts (not overwritten; --on-conflict overwrite replaces them)', items.filter((i) => i.action === 'conflict').map((i) => `${i.source} → ${where(i, defaultDomain)}: ${i.reason}`));
  section('Cannot be imported', items.filter((i) => i.action === 'invalid').map((i) => `${i.source}: ${i.reason}`));
  section('Failed', failed.map((r) => `${r.item.source} → ${where(r.item, defaultDomain)}: ${r.error?.message} (${r.error?.code})`));
  return lines.join('\n');
}

/** The `--json` report: counts, then every link with its action, result and notes. */
export function importReport(source: string, dryRun: boolean, items: ImportItem[], results: ImportResult[] | null) {
  const byItem = new Map((results ?? []).map((r) => [r.item, r]));
  return {
    source,
    dryRun,
    counts: importCounts(items),
    ...(results ? { created: results.filter((r) => r.success && r.item.action === 'create').length, failed: results.filter((r) => !r.success).length } : {}),
    links: items.map((i) => {
      const r = byItem.get(i);
      return {
        action: i.action,
        source: i.source,
        domain: i.domain,
        slug: i.slug,
        ...(r ? { success: r.success, id: r.id ?? i.linkId, shortUrl: r.shortUrl } : i.linkId ? { id: i.linkId } : {}),
        ...(i.reason ? { reason: i.reason } : {}),
        domainChanged: i.domainChanged,
        passwordProtected: i.passwordProtected,
        notCarried: i.notCarried,
        ...(r?.error ? { error: r.error } : {}),
      };
    }),
  };
}
