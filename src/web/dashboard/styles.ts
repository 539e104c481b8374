/** The dashboard's own CSS, on top of the app frame's (layout.ts); inline styles are allowed by the page CSP. */
export const DASHBOARD_STYLE = `<style>
main.dashboard { max-width: 1280px; }
.columns { display: flex; gap: 2rem; align-items: flex-start; }
.sidebar { flex: 0 0 15rem; position: sticky; top: 1rem; }
.sidebar ul { list-style: none; margin: 0; padding: 0; }
.sidebar li { padding-left: calc(var(--depth, 0) * 1rem); }
.sidebar li a { display: flex; justify-content: space-between; gap: .5rem; padding: .35rem .6rem; border-radius: 6px; color: var(--ink); text-decoration: none; }
.sidebar li a:hover { background: #f0f0f5; }
.sidebar li a[aria-current=page] { background: #ecebfb; color: var(--accent); font-weight: 600; }
.sidebar .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.sidebar .count { color: var(--muted); font-variant-numeric: tabular-nums; }
.sidebar h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 1.25rem .6rem .4rem; }
.sidebar ul.views + h2 { margin-top: 1.25rem; }
.sidebar ul.folders + ul.views, .sidebar p + ul.views { margin-top: 1rem; border-top: 1px solid var(--line); padding-top: .5rem; }
.small { font-size: .9rem; margin: .25rem .6rem; }
form.new-folder { margin-top: 1.5rem; display: grid; gap: .4rem; }
form.new-folder label { margin: 0; }
.content { flex: 1; min-width: 0; }
.toolbar { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
.toolbar h1 { margin: 0; flex: 1; min-width: 10rem; overflow-wrap: anywhere; }
form.search { display: flex; gap: .5rem; align-items: center; }
form.search input { width: 16rem; }
/* On a phone the sidebar comes after the cards: this link leads to it. */
a.to-sidebar { display: none; }
ul.cards { list-style: none; padding: 0; margin: 1.25rem 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 1rem; align-items: start; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 10px; overflow: hidden; display: flex; flex-direction: column; }
/* A fixed box whatever the picture's proportions: the 1024 px render is scaled down to fit inside it. */
.thumb { position: relative; display: flex; align-items: center; justify-content: center; aspect-ratio: 16 / 10; overflow: hidden; background: #fff; border-bottom: 1px solid var(--line); text-decoration: none; }
.thumb img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; padding: .5rem; }
.thumb .empty { color: var(--muted); }
.card.trashed .thumb { opacity: .6; }
.card-body { padding: .6rem .75rem .75rem; display: grid; gap: .35rem; }
.title-row { display: flex; align-items: flex-start; gap: .5rem; }
.title-row .title { flex: 1; font-weight: 600; color: var(--ink); text-decoration: none; overflow-wrap: anywhere; }
.title-row form { margin: 0; }
button.star { background: none; border: none; padding: 0 .2rem; font-size: 1.2rem; line-height: 1; color: #adb5bd; }
button.star.on { color: #f59f00; }
.meta { margin: 0; color: var(--muted); font-size: .85rem; }
details.actions summary { cursor: pointer; color: var(--muted); font-size: .85rem; }
details.actions form { display: flex; gap: .4rem; margin-top: .5rem; }
details.actions input, details.actions select { min-width: 0; padding: .35rem .45rem; }
details.actions button, .card form button { padding: .35rem .7rem; font-size: .9rem; }
.banner { background: #fff9db; border: 1px solid #ffe066; padding: .75rem 1rem; border-radius: 8px; margin-bottom: 1.5rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
.banner p, .banner form { margin: 0; }
.empty-state { margin: 2rem 0; }
nav.pager { display: flex; gap: 1.5rem; justify-content: center; margin: 1.5rem 0; }
.form-error { background: #fff5f5; border: 1px solid #ffc9c9; padding: .75rem 1rem; border-radius: 8px; overflow-wrap: anywhere; }
main.new-diagram { max-width: 78rem; }
main.new-diagram textarea { min-height: 30rem; font-size: .85rem; line-height: 1.45; }
main.new-diagram .buttons { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin-top: 1rem; }
.new-diagram-fields { display: grid; grid-template-columns: 2fr 1fr; gap: 0 1rem; max-width: 48rem; }
.spec-columns { display: flex; gap: 1.5rem; align-items: flex-start; }
.spec-editor { flex: 1 1 0; min-width: 0; }
.spec-editor p.muted { margin: 0 0 .5rem; }
.language-tabs { border: 0; padding: 0; margin: 0 0 .75rem; display: flex; gap: 1rem; flex-wrap: wrap; }
.language-tabs legend { font-weight: 600; margin-bottom: .25rem; }
.language-tabs label { display: inline-flex; gap: .35rem; align-items: center; font-weight: 400; }
.preview-warnings { margin: .5rem 0 0; padding-left: 1.2rem; font-size: .85rem; color: var(--muted, #666); text-align: left; }
.spec-side { flex: 1 1 0; min-width: 0; display: grid; gap: 1rem; margin-top: .75rem; }
.spec-side h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 .4rem; }
.preview-box { background: #fff; border: 1px solid var(--line); border-radius: 10px; min-height: 16rem; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: .75rem; overflow: hidden; }
.preview-box img { max-width: 100%; max-height: 22rem; object-fit: contain; }
.preview-box p { margin: 0; overflow-wrap: anywhere; }
.icon-picker-controls { display: flex; flex-wrap: wrap; gap: .5rem; }
.icon-picker-controls input { flex: 1 1 10rem; min-width: 0; }
.icon-picker-controls select { flex: 0 1 12rem; }
ul.icon-grid { list-style: none; margin: .6rem 0 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(5.2rem, 1fr)); gap: .35rem; max-height: 15rem; overflow-y: auto; }
ul.icon-grid button { width: 100%; display: grid; justify-items: center; gap: .2rem; padding: .4rem .2rem; background: #fff; color: var(--ink); border: 1px solid var(--line); border-radius: 8px; font-size: .72rem; }
ul.icon-grid button:hover { border-color: var(--accent); background: #f4f3ff; }
ul.icon-grid span { max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.role { font-size: .72rem; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; padding: .1rem .4rem; border-radius: 999px; background: #f1f3f5; color: #495057; white-space: nowrap; }
.role-editor, .role-admin { background: #ecebfb; color: var(--accent); }
.role-owner { background: #ebfbee; color: #2b8a3e; }
.workspace-meta { display: inline-flex; gap: .5rem; align-items: center; }
a.button.share { padding: .35rem .7rem; font-size: .9rem; justify-self: start; }
details.actions a.button.share { margin-top: .5rem; }
details.new-workspace { margin: .5rem .6rem 0; }
details.new-workspace summary { cursor: pointer; color: var(--accent); font-size: .9rem; }
details.new-workspace form { display: grid; gap: .4rem; margin-top: .4rem; }
@media (max-width: 760px) { .columns { flex-direction: column; } .content { order: -1; width: 100%; } .sidebar { position: static; flex: none; width: 100%; } .spec-columns { flex-direction: column; } .spec-editor, .spec-side { width: 100%; flex: none; } .new-diagram-fields { grid-template-columns: 1fr; } }
/* On a phone: the languages on one or two short lines, the text a screenful, the icon picker's two controls one above the other. */
@media (max-width: 600px) {
  .toolbar { gap: .75rem; }
  .toolbar h1 { flex-basis: 100%; }
  a.to-sidebar { display: inline; order: 1; font-size: .9rem; color: var(--accent); }
  form.search { flex: 1 1 100%; }
  form.search input { flex: 1; width: auto; min-width: 0; }
  .language-tabs { gap: .25rem 1.25rem; }
  .language-tabs label { margin: .3rem 0; }
  main.new-diagram textarea { min-height: 20rem; }
  .icon-picker-controls { flex-direction: column; }
  .icon-picker-controls select { flex: none; }
}
</style>`;
