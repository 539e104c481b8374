/**
 * A modal dialog of the app's own (share, members): the browser's <dialog>
 * shown modally, so focus stays inside, Escape closes it and the page behind
 * is inert. Closing it in any way calls `onClose`.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';

export function Modal({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} className="db-modal" aria-label={title} onClose={onClose}>
      <header className="db-modal-header">
        <h2>{title}</h2>
        <button type="button" className="db-icon-button" aria-label="Close" onClick={() => dialog.current?.close()}>
          ×
        </button>
      </header>
      <div className="db-modal-body">{children}</div>
    </dialog>
  );
}

/** A read-only address with a Copy button (the clipboard when the browser allows it, else the text selected for copying by hand). */
export function CopyField({ label, value }: { label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard access: the text is selected, ready to copy by hand.
    }
  };
  return (
    <div className="db-copy-field">
      <input ref={input} type="text" readOnly value={value} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
      <button type="button" className="db-button" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
