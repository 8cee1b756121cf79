import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

/** What a confirm asks: the question, and the words of the button that goes ahead. */
export interface ConfirmAsk {
  message: string;
  action: string;
}

type Confirm = (ask: ConfirmAsk) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/**
 * The dashboard's one confirm: a modal <dialog> in the page's own look (the browser's
 * window.confirm can't be styled, names no action and is blocked in some embedded views).
 * Escape or Cancel answer no; focus starts on Cancel, so Enter never destroys by accident.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [ask, setAsk] = useState<(ConfirmAsk & { answer: (yes: boolean) => void }) | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (ask && !dialog.current?.open) dialog.current?.showModal();
  }, [ask]);
  const confirm = useCallback<Confirm>((a) => new Promise((answer) => setAsk({ ...a, answer })), []);
  const close = (yes: boolean) => {
    dialog.current?.close();
    ask?.answer(yes);
    setAsk(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {ask ? (
        <dialog ref={dialog} className="confirm" aria-labelledby="confirm-message" onCancel={(e) => { e.preventDefault(); close(false); }}>
          <p id="confirm-message">{ask.message}</p>
          <div className="inline">
            <button type="button" className="secondary" autoFocus onClick={() => close(false)}>Cancel</button>
            <button type="button" className="danger" onClick={() => close(true)}>{ask.action}</button>
          </div>
        </dialog>
      ) : null}
    </ConfirmContext.Provider>
  );
}

/** Asks before something that cannot be undone; resolves to true when the person goes ahead. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a ConfirmProvider above it');
  return confirm;
}
