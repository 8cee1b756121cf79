import { useState } from 'react';

/** Copies `value` to the clipboard; says so for a moment (politely, for screen readers). */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [done, setDone] = useState<'' | 'Copied' | 'Copy failed: select and copy by hand'>('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setDone('Copied');
    } catch {
      setDone('Copy failed: select and copy by hand');
    }
    setTimeout(() => setDone(''), 2000);
  };
  return (
    <>
      <button type="button" className="secondary" onClick={copy}>{label}</button>
      <span aria-live="polite" className="hint"> {done}</span>
    </>
  );
}
