/**
 * What the share and members dialogs have in common: the state the server
 * holds, loaded on open; changes run one at a time, each followed by a fresh
 * load, with a line saying what happened or why it was refused.
 */
import { useCallback, useEffect, useState } from 'react';
import { failureMessage } from './sharing-api.ts';

export interface ServerState<T> {
  state: T | null;
  busy: boolean;
  notice: string | null;
  problem: string | null;
  /** Runs a change (its answer: the notice to show, or null), then shows the state the server now holds; false when refused. */
  change(run: () => Promise<string | null>): Promise<boolean>;
  /** Shows a refusal that happened outside `change`. */
  fail(error: unknown): void;
}

export function useServerState<T>(load: () => Promise<T>): ServerState<T> {
  const [state, setState] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const reload = useCallback(async () => setState(await load()), [load]);
  useEffect(() => {
    reload().catch((error: unknown) => setProblem(failureMessage(error)));
  }, [reload]);

  const change = async (run: () => Promise<string | null>): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      setNotice(await run());
      await reload();
      return true;
    } catch (error) {
      setProblem(failureMessage(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { state, busy, notice, problem, change, fail: (error) => setProblem(failureMessage(error)) };
}

/** The dialog's notice and refusal lines. */
export function StatusLines({ notice, problem }: { notice: string | null; problem: string | null }) {
  return (
    <>
      {problem && (
        <p className="db-dialog-error" role="alert">
          {problem}
        </p>
      )}
      {notice && (
        <p className="db-dialog-notice" role="status">
          {notice}
        </p>
      )}
    </>
  );
}
