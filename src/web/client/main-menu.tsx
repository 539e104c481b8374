/**
 * The editor's main menu (its ☰ button), as it makes sense here: the
 * diagram's Share and History, Copy as Mermaid (the diagram as a Mermaid
 * flowchart, from the server, on the clipboard), the editor's own image export
 * (PNG, SVG or clipboard, drawn in the browser), find on canvas and help. Excalidraw's
 * file items (Open, Save to…, Reset the canvas), its social links and the
 * canvas colour (not saved with the diagram) are left out.
 */
import { MainMenu } from '@excalidraw/excalidraw';

/** The editor's file and canvas actions that have no place here; the menu below lists what stays. */
export const CANVAS_ACTIONS = {
  loadScene: false,
  saveToActiveFile: false,
  export: false,
  clearCanvas: false,
  changeViewBackgroundColor: false,
  toggleTheme: false,
  saveAsImage: true,
} as const;

const ShareIcon = (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <circle cx="18" cy="5" r="3" />
    <circle cx="6" cy="12" r="3" />
    <circle cx="18" cy="19" r="3" />
    <path d="M8.6 13.5l6.8 4M15.4 6.5l-6.8 4" />
  </svg>
);

const HistoryIcon = (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M3 12a9 9 0 1 0 3-6.7L3 8" />
    <path d="M3 3v5h5M12 7v5l3 2" />
  </svg>
);

const CopyIcon = (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </svg>
);

const BackIcon = (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M19 12H5M12 19l-7-7 7-7" />
  </svg>
);

export function EditorMainMenu({ onShare, onHistory, onCopyMermaid }: { onShare(): void; onHistory(): void; onCopyMermaid(): void }) {
  return (
    <MainMenu>
      <MainMenu.Item icon={ShareIcon} onSelect={onShare}>
        Share…
      </MainMenu.Item>
      <MainMenu.Item icon={HistoryIcon} onSelect={onHistory}>
        History
      </MainMenu.Item>
      <MainMenu.Item icon={CopyIcon} onSelect={onCopyMermaid}>
        Copy as Mermaid
      </MainMenu.Item>
      <MainMenu.DefaultItems.SaveAsImage />
      <MainMenu.Separator />
      <MainMenu.DefaultItems.SearchMenu />
      <MainMenu.DefaultItems.Help />
      <MainMenu.Separator />
      <MainMenu.ItemLink icon={BackIcon} href="/app">
        Back to diagrams
      </MainMenu.ItemLink>
    </MainMenu>
  );
}
