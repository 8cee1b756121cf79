import { CopyButton } from './copy-button.js';

/** A secret the API shows only in this answer: shown once with a copy button. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret" role="status">
      <p><strong>{label}</strong>: copy it now; it will not be shown again.</p>
      <p className="secret-row"><code data-testid="secret">{value}</code> <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} /></p>
    </div>
  );
}
