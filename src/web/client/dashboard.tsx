/**
 * The dashboard pages' script (`/app`, `/app/new`); the pages work without
 * it. On the dashboard it opens the share dialog from a card's Share button
 * and the members dialog from a workspace's Members button (both links or
 * buttons the server rendered with `data-share-diagram` /
 * `data-workspace-members`), and closes the account menu when the person
 * clicks elsewhere. On "New diagram" it adds the live preview and the icon
 * picker (new-diagram.tsx).
 */
import { createRoot, type Root } from 'react-dom/client';
import { MembersDialog } from './members-dialog.tsx';
import { startNewDiagramPage } from './new-diagram.tsx';
import { ShareDialog } from './share-dialog.tsx';

function startDialogs(mount: HTMLElement): void {
  const csrfToken = mount.dataset.csrfToken ?? '';
  let root: Root | null = null;
  const show = (dialog: React.ReactNode) => {
    root ??= createRoot(mount);
    root.render(dialog);
  };
  const close = () => root?.render(null);

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const share = target?.closest<HTMLElement>('[data-share-diagram]');
    if (share?.dataset.shareDiagram) {
      event.preventDefault();
      show(<ShareDialog key={share.dataset.shareDiagram} diagramId={share.dataset.shareDiagram} csrfToken={csrfToken} onClose={close} />);
      return;
    }
    const members = target?.closest<HTMLElement>('[data-workspace-members]');
    if (members?.dataset.workspaceMembers) {
      event.preventDefault();
      const onClose = (changed: boolean) => (changed ? window.location.reload() : close());
      show(<MembersDialog key={members.dataset.workspaceMembers} workspaceId={members.dataset.workspaceMembers} csrfToken={csrfToken} onClose={onClose} />);
    }
  });
  // Share and Members open their dialogs from here on (before it, the page is as the server sent it).
  mount.dataset.ready = 'true';
}

/** The account menu is a <details>: it closes on a click outside it, as menus do. */
function closeMenusOnOutsideClick(): void {
  document.addEventListener('click', (event) => {
    for (const menu of document.querySelectorAll<HTMLDetailsElement>('details.account-menu[open]')) {
      if (!(event.target instanceof Node && menu.contains(event.target))) menu.open = false;
    }
  });
}

closeMenusOnOutsideClick();
const dialogs = document.getElementById('dashboard-dialogs');
if (dialogs) startDialogs(dialogs);
const newDiagram = document.getElementById('new-diagram-form');
if (newDiagram instanceof HTMLFormElement) startNewDiagramPage(newDiagram);
