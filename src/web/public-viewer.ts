/**
 * The public page's viewer script (`/p/viewer.js`): zoom and pan over the
 * diagram's picture with a mouse (drag to pan, the wheel to zoom around the
 * pointer), a trackpad (two-finger scroll pans, pinch zooms), touch (one
 * finger pans, two pinch) and the keyboard (+, −, 0 fits to the width, 1
 * shows it at its size), and the toolbar's buttons. Without it the page
 * still shows the whole picture, fitted to the window.
 */
export const VIEWER_PATH = '/p/viewer.js';

export const VIEWER_SCRIPT = `'use strict';
(() => {
  const stage = document.querySelector('main.stage');
  const picture = stage && stage.querySelector('img.diagram');
  if (!stage || !picture) return;
  stage.classList.add('viewing');
  let scale = 1;
  let x = 0;
  let y = 0;
  const natural = () => ({ width: picture.naturalWidth || picture.width, height: picture.naturalHeight || picture.height });
  const apply = () => {
    picture.style.transform = 'translate(' + x + 'px, ' + y + 'px) scale(' + scale + ')';
    stage.dataset.scale = String(Math.round(scale * 1000) / 1000);
  };
  const clamp = (value) => Math.min(8, Math.max(0.05, value));
  /** Zoom by a factor, keeping the point (px, py) of the stage where it is. */
  const zoomAt = (factor, px, py) => {
    const next = clamp(scale * factor);
    x = px - (px - x) * (next / scale);
    y = py - (py - y) * (next / scale);
    scale = next;
    apply();
  };
  const centre = () => ({ px: stage.clientWidth / 2, py: stage.clientHeight / 2 });
  /** The whole width of the picture in the stage, from its top. */
  const fitWidth = () => {
    scale = clamp(stage.clientWidth / natural().width);
    x = (stage.clientWidth - natural().width * scale) / 2;
    y = Math.max(0, (stage.clientHeight - natural().height * scale) / 2);
    apply();
  };
  const actualSize = () => {
    scale = 1;
    x = (stage.clientWidth - natural().width) / 2;
    y = Math.max(0, (stage.clientHeight - natural().height) / 2);
    apply();
  };
  const start = () => {
    const whole = Math.min(stage.clientWidth / natural().width, stage.clientHeight / natural().height);
    scale = clamp(whole);
    x = (stage.clientWidth - natural().width * scale) / 2;
    y = (stage.clientHeight - natural().height * scale) / 2;
    apply();
  };
  if (picture.complete) start();
  else picture.addEventListener('load', start);

  stage.addEventListener('wheel', (event) => {
    event.preventDefault();
    const box = stage.getBoundingClientRect();
    // A pinch on a trackpad arrives as a wheel with ctrlKey; a mouse wheel (whole notches: lines, or 50 px and more
    // straight down or up) zooms too; a trackpad's two-finger scroll (small steps, often sideways too) pans.
    const notch = event.deltaMode !== 0 || (Math.abs(event.deltaX) < 1 && Math.abs(event.deltaY) >= 50);
    if (event.ctrlKey || notch) zoomAt(Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.002)), event.clientX - box.left, event.clientY - box.top);
    else {
      x -= event.deltaX;
      y -= event.deltaY;
      apply();
    }
  }, { passive: false });

  const pointers = new Map();
  let pinch = null;
  stage.addEventListener('pointerdown', (event) => {
    stage.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    stage.classList.add('dragging');
  });
  stage.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.set(event.pointerId, now);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const box = stage.getBoundingClientRect();
      if (pinch) zoomAt(distance / pinch, (a.x + b.x) / 2 - box.left, (a.y + b.y) / 2 - box.top);
      pinch = distance;
      return;
    }
    x += now.x - last.x;
    y += now.y - last.y;
    apply();
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    pinch = null;
    if (pointers.size === 0) stage.classList.remove('dragging');
  };
  stage.addEventListener('pointerup', release);
  stage.addEventListener('pointercancel', release);

  const actions = {
    'zoom-in': () => zoomAt(1.25, centre().px, centre().py),
    'zoom-out': () => zoomAt(0.8, centre().px, centre().py),
    'fit-width': fitWidth,
    'actual-size': actualSize,
  };
  for (const button of document.querySelectorAll('button[data-view]')) {
    button.hidden = false;
    button.addEventListener('click', () => actions[button.dataset.view]());
  }
  document.addEventListener('keydown', (event) => {
    // Ctrl, ⌘ or Alt with + − 0 is the browser's own zoom, not the picture's.
    if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = { '+': 'zoom-in', '=': 'zoom-in', '-': 'zoom-out', '0': 'fit-width', '1': 'actual-size' }[event.key];
    if (key) actions[key]();
  });
})();
`;
