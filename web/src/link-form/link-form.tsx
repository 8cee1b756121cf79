import { useRef, useState, type FormEvent } from 'react';
import { featuresOf, GATED_FEATURES } from '@hop/shared/plans';
import type { CreateLinkBody, Link, UpdateLinkBody, Workspace } from '@hop/shared';
import { apiFieldErrors, type FieldErrors } from '../api-errors.js';
import { useDomains } from '../queries/domains.js';
import type { FormMutation } from '../use-checked-form.js';
import { Field, SelectField } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { SlugSuggestion } from '../components/slug-suggestion.js';
import { createBody, smartState, toLocal, updateBody, type SmartState } from './body.js';
import { RulesEditor } from './rules-editor.js';
import { VariantsEditor } from './variants-editor.js';
import { SocialPreview } from './social-preview.js';

/** The schemas' check, loaded when the form is first focused or sent (check-body.ts). */
const loadCheck = () => import('./check-body.js');

interface Props {
  workspace: Workspace;
  link?: Link;
  submitLabel: string;
  disabled?: boolean;
  /** Creates the link, or updates `link` (queries/links.ts). */
  mutation: FormMutation<CreateLinkBody | UpdateLinkBody, Link>;
  onSaved?: (link: Link) => void;
}

/** The short URL's host, for the preview cards: the link's own, else the domain chosen or this server's. */
const hostOf = (link: Link | undefined, domain: string) => {
  if (link) return new URL(link.shortUrl).host;
  return domain || window.location.host;
};

/**
 * The short domain: the workspace's verified domains, read here rather than in the form, so that
 * their answer (a synchronous update) redraws this field, not the whole form in one long task.
 */
function DomainSelect({ workspace, link, error, onChange }: { workspace: Workspace; link?: Link; error?: string; onChange: (domain: string) => void }) {
  const domains = useDomains(workspace.id);
  const verified = (domains.data ?? []).filter((d) => d.verified).map((d) => d.name);
  const options = [{ value: '', label: link && !verified.includes(link.domain) ? link.domain : 'Default short domain' }, ...verified];
  return <SelectField label="Domain" name="domain" defaultValue={link && verified.includes(link.domain) ? link.domain : ''} options={options} error={error}
    onChange={(e) => onChange(e.target.value)} />;
}

/**
 * Every field of a link, checked with the server's own schema before it is sent. Editing sends
 * only what changed, so a field this form does not show (or one changed elsewhere meanwhile) is
 * kept as stored.
 */
export function LinkForm({ workspace, link, submitLabel, disabled, mutation, onSaved }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState('');
  const [smart, setSmart] = useState<SmartState>(() => smartState(link));
  const [domain, setDomain] = useState('');
  const slugInput = useRef<HTMLInputElement>(null);
  const change = <K extends 'rules' | 'variants' | 'preview'>(k: K) => (value: SmartState[K]) =>
    setSmart((s) => ({ ...s, [k]: value, touched: new Set([...s.touched, k]) }));

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const raw = link ? updateBody(f, smart, link) : createBody(f, smart);
    if (link && Object.keys(raw).length === 0) return setDone('Nothing changed.');
    const checked = (await loadCheck()).checkLinkBody(raw, Boolean(link));
    setErrors(checked.errors ?? {});
    setDone('');
    if (!checked.data) return;
    // The raw body: the schema's transforms (lower-cased tags) are the server's to apply.
    mutation.mutate(raw as CreateLinkBody, {
      onSuccess: (saved) => onSaved?.(saved),
      onError: (err) => setErrors(apiFieldErrors(err)),
    });
  };
  const busy = mutation.isPending;
  const error = Object.keys(errors).length ? null : mutation.error;
  const has = (k: string) => Object.keys(errors).some((e) => e === k || e.startsWith(`${k}.`));

  const preview = smart.preview;
  const setPreview = (k: keyof typeof preview) => (e: { target: { value: string } }) => change('preview')({ ...preview, [k]: e.target.value });
  return (
    <form onSubmit={(e) => void submit(e)} onFocus={() => void loadCheck()} noValidate className="link-form">
      <fieldset disabled={disabled || busy} className="plain">
        <Field label="Destination URL" name="url" type="url" required defaultValue={link?.url} error={errors.url} placeholder="https://example.com/page" />
        <div className="grid-2">
          <Field label="Slug" name="slug" ref={slugInput} defaultValue={link?.slug} error={errors.slug} hint={link ? undefined : 'Leave empty for a random one.'} />
          <DomainSelect workspace={workspace} link={link} error={errors.domain} onChange={setDomain} />
        </div>
        <SlugSuggestion error={mutation.error} onUse={(slug) => { if (slugInput.current) slugInput.current.value = slug; slugInput.current?.focus(); }} />
        <Field label="Tags" name="tags" defaultValue={link?.tags.join(', ')} error={errors.tags} hint="Separated by commas." />
        <div className="grid-2">
          <Field label="Title" name="title" defaultValue={link?.title ?? ''} error={errors.title} />
          <Field label="Description" name="description" defaultValue={link?.description ?? ''} error={errors.description} />
        </div>
        <details open={Boolean(link && (link.expiresAt || link.maxClicks || link.passwordProtected)) || has('expiresAt') || has('maxClicks') || has('password')}>
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
        <details open={Boolean(smart.rules.length || smart.variants.length) || has('rules') || has('variants')}>
          <summary>Rules and A/B variants</summary>
          <p className="hint">Visitors on iOS or Android go to the app links first, then the first matching rule, then a variant, else the destination URL.</p>
          <RulesEditor rows={smart.rules} onChange={change('rules')} errors={errors} />
          <VariantsEditor rows={smart.variants} onChange={change('variants')} errors={errors} />
        </details>
        <details open={Boolean(link?.ios || link?.android) || has('ios') || has('android')}>
          <summary>App links</summary>
          <div className="grid-2">
            <Field label="iOS link" name="ios" defaultValue={link?.ios ?? ''} error={errors.ios} placeholder="https://apps.apple.com/app/id123456789" hint="A universal link, App Store page or myapp://..." />
            <Field label="Android link" name="android" defaultValue={link?.android ?? ''} error={errors.android} placeholder="https://play.google.com/store/apps/details?id=..." hint="An app link, Play Store page, myapp://... or intent:" />
          </div>
        </details>
        <details open={Boolean(link?.preview) || has('preview')}>
          <summary>Social preview</summary>
          <p className="hint">What Facebook, X, LinkedIn, Slack and other link-preview crawlers show for the short link.</p>
          <div className="grid-2">
            <Field label="Preview title" value={preview.title} onChange={setPreview('title')} error={errors['preview.title'] ?? errors.preview} />
            <Field label="Preview image URL" type="url" value={preview.image} onChange={setPreview('image')} error={errors['preview.image']} hint="An https URL; about 1200 × 630 px shows best." />
          </div>
          <Field label="Preview description" value={preview.description} onChange={setPreview('description')} error={errors['preview.description']} />
          <SocialPreview preview={preview} host={hostOf(link, domain)} />
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
