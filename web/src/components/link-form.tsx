import { useState, type FormEvent } from 'react';
import { CreateLinkBodySchema, featuresOf, GATED_FEATURES, LINK_FIELDS, UpdateLinkBodySchema, type CreateLinkBody, type Link, type LinkField, type UpdateLinkBody, type Workspace } from '@hop/shared';
import { apiFieldErrors, check, type FieldErrors } from '../form-errors.js';
import { useDomains } from '../queries/domains.js';
import type { FormMutation } from '../use-checked-form.js';
import { Field, SelectField } from './field.js';
import { ErrorAlert } from './error-alert.js';

/** `2026-11-25T10:00:00.000Z` as a datetime-local value in the browser's zone, and back. */
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : null);

const text = (f: FormData, k: string) => String(f.get(k) ?? '').trim();

/**
 * The fields this form edits, from the shared table of link fields: every one but the smart-link
 * fields it does not show yet (rules, variants, app links, preview), which saving leaves alone.
 */
const FORM_FIELDS = (LINK_FIELDS as readonly LinkField[]).filter((f) => f.kind !== 'json' && f.name !== 'ios' && f.name !== 'android');

/** A form input's value as the body wants it, by the field's kind; undefined when empty. */
function readField(f: FormData, field: LinkField): unknown {
  if (field.name === 'password') return String(f.get('password') ?? '') || undefined;
  const v = text(f, field.name);
  if (!v) return undefined;
  if (field.kind === 'tags') return v.split(',').map((t) => t.trim()).filter(Boolean);
  if (field.kind === 'integer') return Number(v);
  if (field.kind === 'time') return fromLocal(v);
  return v;
}

/** The form's values as a create body (empty fields left out). */
function createBody(f: FormData): Record<string, unknown> {
  return Object.fromEntries(FORM_FIELDS.map((field) => [field.name, readField(f, field)]).filter(([, v]) => v !== undefined));
}

/** Only what changed, with `null` clearing a field that was emptied (the fields that can be cleared). */
function updateBody(f: FormData, link: Link): Record<string, unknown> {
  const now = createBody(f);
  const out: Record<string, unknown> = {};
  const before = link as unknown as Record<string, unknown>;
  for (const field of FORM_FIELDS) {
    const k = field.name;
    if (k === 'domain' || k === 'tags' || k === 'password') continue;
    const was = before[k] ?? undefined;
    const is = now[k];
    if (field.kind === 'time' && was && is && new Date(String(was)).getTime() === new Date(String(is)).getTime()) continue;
    if (is === undefined && was !== undefined && field.clearFlag) out[k] = null;
    else if (is !== undefined && is !== was) out[k] = is;
  }
  if (text(f, 'domain') && text(f, 'domain') !== link.domain) out.domain = text(f, 'domain');
  const tags = (now.tags as string[] | undefined) ?? [];
  if (tags.join(',').toLowerCase() !== link.tags.join(',')) out.tags = tags;
  if (now.password) out.password = now.password;
  else if (f.get('removePassword')) out.password = null;
  return out;
}

interface Props {
  workspace: Workspace;
  link?: Link;
  submitLabel: string;
  disabled?: boolean;
  /** Creates the link, or updates `link` (queries/links.ts). */
  mutation: FormMutation<CreateLinkBody | UpdateLinkBody, Link>;
  onSaved?: (link: Link) => void;
}

/** Every field of a link, checked with the server's own schema before it is sent. */
export function LinkForm({ workspace, link, submitLabel, disabled, mutation, onSaved }: Props) {
  const domains = useDomains(workspace.id);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState('');

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const raw = link ? updateBody(f, link) : createBody(f);
    if (link && Object.keys(raw).length === 0) return setDone('Nothing changed.');
    const checked = link ? check(UpdateLinkBodySchema, raw) : check(CreateLinkBodySchema, raw);
    setErrors(checked.errors ?? {});
    setDone('');
    if (!checked.data) return;
    // The raw body: the schema's transforms (lower-cased tags) are the server's to apply.
    mutation.mutate(raw as CreateLinkBody, {
      onSuccess: (saved) => { if (link) setDone('Saved.'); onSaved?.(saved); },
      onError: (err) => setErrors(apiFieldErrors(err)),
    });
  };
  const busy = mutation.isPending;
  const error = Object.keys(errors).length ? null : mutation.error;

  const verified = (domains.data ?? []).filter((d) => d.verified).map((d) => d.name);
  const domainOptions = [{ value: '', label: link && !verified.includes(link.domain) ? link.domain : 'Default short domain' }, ...verified];
  return (
    <form onSubmit={submit} noValidate className="link-form">
      <fieldset disabled={disabled || busy} className="plain">
        <Field label="Destination URL" name="url" type="url" required defaultValue={link?.url} error={errors.url} placeholder="https://example.com/page" />
        <div className="grid-2">
          <Field label="Slug" name="slug" defaultValue={link?.slug} error={errors.slug} hint={link ? undefined : 'Leave empty for a random one.'} />
          <SelectField label="Domain" name="domain" defaultValue={link && verified.includes(link.domain) ? link.domain : ''} options={domainOptions} error={errors.domain} />
        </div>
        <Field label="Tags" name="tags" defaultValue={link?.tags.join(', ')} error={errors.tags} hint="Separated by commas." />
        <div className="grid-2">
          <Field label="Title" name="title" defaultValue={link?.title ?? ''} error={errors.title} />
          <Field label="Description" name="description" defaultValue={link?.description ?? ''} error={errors.description} />
        </div>
        <details open={Boolean(link && (link.expiresAt || link.maxClicks || link.passwordProtected))}>
          <summary>Expiry, click limit and password</summary>
          <div className="grid-2">
            <Field label="Expires at" name="expiresAt" type="datetime-local" defaultValue={toLocal(link?.expiresAt ?? null)} error={errors.expiresAt} />
            <Field label="Expired URL" name="expiredUrl" type="url" defaultValue={link?.expiredUrl ?? ''} error={errors.expiredUrl} hint="Where visitors go once the link has expired or reached its limit." />
            <Field label="Click limit" name="maxClicks" type="number" min={1} defaultValue={link?.maxClicks ?? ''} error={errors.maxClicks} />
            <Field label="Password" name="password" type="password" autoComplete="new-password" error={errors.password}
              hint={link?.passwordProtected ? 'Protected. Type a new one to change it.'
                : featuresOf(workspace.plan).includes('password_protection') ? 'At least 8 characters.'
                : `The ${GATED_FEATURES.password_protection} plan and above. At least 8 characters.`} />
          </div>
          {link?.passwordProtected ? <label className="check"><input type="checkbox" name="removePassword" /> Remove password protection</label> : null}
        </details>
        <details>
          <summary>UTM parameters</summary>
          <p className="hint">Added to the destination URL.</p>
          <div className="grid-2">
            <Field label="UTM source" name="utmSource" error={errors.utmSource} />
            <Field label="UTM medium" name="utmMedium" error={errors.utmMedium} />
            <Field label="UTM campaign" name="utmCampaign" error={errors.utmCampaign} />
          </div>
        </details>
        <ErrorAlert error={error} />
        {done ? <p role="status" className="status-ok">{done}</p> : null}
        <button type="submit">{submitLabel}</button>
      </fieldset>
    </form>
  );
}
