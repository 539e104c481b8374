/**
 * The history panel: the diagram's revisions, newest first, each with who
 * wrote it, how (a token, an application, an MCP tool, the web editor), when,
 * and what changed in one line. Choosing one asks the editor to preview it;
 * the newest is the current content. The list follows the diagram's revision
 * clock (`revisionClock`, from the editor's event stream): a new revision
 * appears at the top while the panel is open. Server text is only ever
 * rendered as text.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeVia, exactTime, fetchRevisions, kindLabel, mergeNewest, type RevisionItem, type RevisionPage, relativeTime } from './history-api.ts';

/** How often the relative times ("5 minutes ago") are brought up to date. */
const CLOCK_TICK_MS = 30_000;

export interface HistoryPanelProps {
  diagramId: string;
  /** The diagram's latest announced revision: the list refreshes when it moves. */
  revisionClock: string | null;
  /** The revision being previewed, if any. */
  previewing: string | null;
  /** Bumped by the editor to ask for a refresh (after a restore). */
  refreshKey: number;
  onSelect(item: RevisionItem, isCurrent: boolean): void;
  onClose(): void;
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function HistoryPanel({ diagramId, revisionClock, previewing, refreshKey, onSelect, onClose }: HistoryPanelProps) {
  const [page, setPage] = useState<RevisionPage | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const now = useNow();
  // The list as last shown, for merging the newest page into it (effects must not depend on it).
  const shown = useRef<RevisionPage | null>(null);

  const refresh = useCallback(async () => {
    try {
      const newest = await fetchRevisions(diagramId);
      const merged = shown.current ? mergeNewest(shown.current, newest) : newest;
      shown.current = merged;
      setPage(merged);
      setLoadError(null);
    } catch (error) {
      setLoadError(errorText(error));
    }
  }, [diagramId]);

  useEffect(() => {
    void refresh();
  }, [refresh, revisionClock, refreshKey]);

  const loadMore = async () => {
    const current = shown.current;
    if (!current?.nextCursor) return;
    setLoadingMore(true);
    try {
      const next = await fetchRevisions(diagramId, current.nextCursor);
      const known = new Set(current.items.map((item) => item.rev));
      const merged = { items: [...current.items, ...next.items.filter((item) => !known.has(item.rev))], nextCursor: next.nextCursor };
      shown.current = merged;
      setPage(merged);
      setLoadError(null);
    } catch (error) {
      setLoadError(errorText(error));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <aside className="db-history" aria-label="History">
      <header className="db-history-head">
        <h2>History</h2>
        <button type="button" className="db-icon-button" aria-label="Close history" title="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {loadError !== null && (
        <p className="db-history-error" role="alert">
          The history could not be loaded: {loadError}{' '}
          <button type="button" className="db-link-button" onClick={() => void refresh()}>
            Try again
          </button>
        </p>
      )}
      {page === null && loadError === null && <p className="db-history-empty">Loading…</p>}
      {page !== null && page.items.length === 0 && <p className="db-history-empty">No revisions recorded yet.</p>}
      {page !== null && page.items.length > 0 && (
        <ol className="db-revisions">
          {page.items.map((item, index) => {
            const isCurrent = index === 0;
            const selected = previewing === null ? isCurrent : previewing === item.rev;
            const how = describeVia(item.via);
            return (
              <li key={item.rev} data-rev={item.rev} data-kind={item.kind}>
                <button type="button" className="db-revision" aria-pressed={selected} onClick={() => onSelect(item, isCurrent)}>
                  <span className="db-revision-top">
                    <time dateTime={item.at} title={exactTime(item.at)}>
                      {relativeTime(item.at, now)}
                    </time>
                    <span className={`db-tag db-tag-${item.kind}`}>{kindLabel(item.kind)}</span>
                    {isCurrent && <span className="db-tag db-tag-current">Current</span>}
                  </span>
                  <span className="db-revision-summary">{item.summary}</span>
                  <span className="db-revision-who">
                    <span className="db-revision-author">{item.author?.email ?? 'before history was kept'}</span>
                    {how !== '' && <span className="db-revision-via">{how}</span>}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {page?.nextCursor && (
        <button type="button" className="db-load-more" disabled={loadingMore} onClick={() => void loadMore()}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </aside>
  );
}
