import { useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import { CreateQrCodeBodySchema, QR_ERROR_CORRECTIONS, QR_FORMATS } from '@hop/shared/qr';
import type { CreateQrCodeBody } from '@hop/shared';
import { useCheckedForm, type FormMutation } from '../use-checked-form.js';
import { Field, SelectField } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';

interface Props {
  /** What the preview encodes (the created code encodes its own stable /q/ address instead). */
  previewText: string;
  /** queries/qr-codes.ts's create mutation. */
  mutation: FormMutation<CreateQrCodeBody, unknown>;
  onCreated: () => void;
}

/**
 * Format, size, colours, error correction and logo, with a live preview drawn in the browser by
 * the `qrcode` library as the choices change; the server renders the real code on "Create QR
 * code". This module and `qrcode` load only when a link's page shows the designer.
 */
export default function QrDesigner({ previewText, mutation, onCreated }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [form, setForm] = useState({ format: 'png', size: '512', errorCorrection: 'M', foregroundColor: '#000000', backgroundColor: '#ffffff', logoUrl: '', logoSize: '20' });
  const [previewError, setPreviewError] = useState('');
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  useEffect(() => {
    if (!canvas.current) return;
    QRCode.toCanvas(canvas.current, previewText, {
      width: 240, margin: 2, errorCorrectionLevel: form.errorCorrection as 'M',
      color: { dark: form.foregroundColor, light: form.backgroundColor },
    }).then(() => setPreviewError(''), (err: Error) => setPreviewError(err.message));
  }, [previewText, form.errorCorrection, form.foregroundColor, form.backgroundColor]);

  const body = (): Record<string, unknown> => ({
    format: form.format,
    size: Number(form.size),
    errorCorrection: form.errorCorrection,
    foregroundColor: form.foregroundColor,
    backgroundColor: form.backgroundColor,
    ...(form.logoUrl ? { logoUrl: form.logoUrl, logoSize: Number(form.logoSize) } : {}),
  });

  // The values live in state (the preview follows them), so the form's own data is not read.
  const { onSubmit, errors, alert, busy } = useCheckedForm(CreateQrCodeBodySchema, { read: body, mutation, onSuccess: onCreated, keepValues: true });

  return (
    <div className="qr-grid">
      <form onSubmit={onSubmit} noValidate>
        <div className="grid-2">
          <SelectField label="Format" value={form.format} onChange={set('format')} options={QR_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))} error={errors.format} />
          <Field label="Size (px)" type="number" min={128} max={4096} value={form.size} onChange={set('size')} error={errors.size} />
          <SelectField label="Error correction" value={form.errorCorrection} onChange={set('errorCorrection')} error={errors.errorCorrection}
            options={QR_ERROR_CORRECTIONS.map((l) => ({ value: l, label: { L: 'L (7%)', M: 'M (15%)', Q: 'Q (25%)', H: 'H (30%, for logos)' }[l] }))} />
          <Field label="Foreground colour" type="color" value={form.foregroundColor} onChange={set('foregroundColor')} error={errors.foregroundColor} />
          <Field label="Background colour" type="color" value={form.backgroundColor} onChange={set('backgroundColor')} error={errors.backgroundColor} />
          <Field label="Logo URL" type="url" value={form.logoUrl} onChange={set('logoUrl')} error={errors.logoUrl} hint="An HTTPS PNG of at most 1 MiB; needs Q or H." />
          {form.logoUrl ? <Field label="Logo size (%)" type="number" min={1} max={30} value={form.logoSize} onChange={set('logoSize')} error={errors.logoSize} /> : null}
        </div>
        <ErrorAlert error={alert} />
        <button type="submit" disabled={busy}>Create QR code</button>
      </form>
      <figure className="qr-preview">
        <canvas ref={canvas} aria-label="Live preview of the QR code" role="img" />
        <figcaption className="hint">Live preview{form.logoUrl ? ' (the logo is added when the code is created)' : ''}.</figcaption>
        {previewError ? <p role="alert" className="field-error">{previewError}</p> : null}
      </figure>
    </div>
  );
}
