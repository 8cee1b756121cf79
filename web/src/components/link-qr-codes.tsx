import { lazy, Suspense, useState } from 'react';
import type { Link, Workspace } from '@hop/shared';
import { useCreateQrCode, useDeleteQrCode, useQrCodes } from '../queries/qr-codes.js';
import { mayChange, roleMayCall } from '@hop/shared/access';
import { useSession } from '../session.js';
import { ErrorAlert } from './error-alert.js';
import { Empty, Loading } from './states.js';
import { CopyButton } from './copy-button.js';
import { useConfirm } from './confirm.js';

const QrDesigner = lazy(() => import('../qr/qr-designer.js'));

/** The API serves this app, so its public URLs are fetched from this origin whatever host they name. */
const here = (url: string) => { const u = new URL(url); return u.pathname + u.search; };

/** A link's QR codes with their downloads, and the designer for a new one (members and up). */
export function LinkQrCodes({ workspace, link }: { workspace: Workspace; link: Link }) {
  const confirm = useConfirm();
  const [designing, setDesigning] = useState(false);
  const list = useQrCodes(workspace.id, link.id);
  const create = useCreateQrCode(workspace.id, link.id);
  const deleteQr = useDeleteQrCode(workspace.id, link.id);
  const canWrite = roleMayCall(workspace.role, 'createQrCode');
  const me = useSession().session?.user.id;
  const remove = (qrId: string) => {
    void confirm({ message: 'Delete this QR code? Printed copies will stop working.', action: 'Delete QR code' }).then((yes) => { if (yes) deleteQr.mutate(qrId); });
  };
  return (
    <section aria-labelledby="qr-heading">
      <h2 id="qr-heading">QR codes</h2>
      {canWrite ? (
        designing ? (
          <Suspense fallback={<Loading what="Loading the QR designer" />}>
            <QrDesigner previewText={link.shortUrl} mutation={create} onCreated={() => setDesigning(false)} />
          </Suspense>
        ) : <button type="button" onClick={() => setDesigning(true)}>New QR code</button>
      ) : null}
      <ErrorAlert error={list.error ?? deleteQr.error} />
      {list.isLoading ? <Loading what="Loading QR codes" /> : null}
      {list.data?.length === 0 ? <Empty><p>No QR codes yet.</p></Empty> : null}
      <ul className="qr-list">
        {list.data?.map((q) => (
          <li key={q.id} className="card">
            {q.format === 'pdf' ? <p className="hint">PDF, {q.size} px</p> : <img src={here(q.publicUrl)} alt={`QR code for ${link.shortUrl}`} width={160} height={160} loading="lazy" />}
            <p className="hint">{q.format.toUpperCase()} · {q.size} px · {q.errorCorrection} · {q.foregroundColor} on {q.backgroundColor}</p>
            <a className="button secondary" href={here(q.publicUrl)} download={`${link.slug}-${q.id}.${q.format}`}>Download {q.format.toUpperCase()}</a>{' '}
            <CopyButton value={q.publicUrl} label="Copy image URL" />{' '}
            {mayChange({ role: workspace.role, userId: me }, q) ? <button type="button" className="link-button" onClick={() => remove(q.id)}>Delete</button> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
